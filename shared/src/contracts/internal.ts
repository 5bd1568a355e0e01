import { Type, type Static } from '@sinclair/typebox';
import { ErrorBody, LADDER_DENY_REASONS, QuotaRemaining, TokenStatus } from './common.js';
import { ChassisMapDraft, Fingerprint, SystemIdentity, TestSnapshot } from './hardware.js';
import { CertificatesFound, CertificatesLookupBody, ChassisLookupResult, ErasurePolicyGranted, type RouteDescriptor } from './gateway.js';
import { JobId, WipeResultAccepted, wipeResultFields } from './wipe.js';
import { ValidationPickAnswer, ValidationPickBody, ValidationRecorded, ValidationReportBody } from './validation.js';
import { JobChoices, JobDetailsBody, JobDetailsSaved } from './job-details.js';
import { FloorReportAck, FloorReportBody } from './floor.js';

/**
 * Bodies of the internal API (spec 4.2). The gateway adds `jti` and `account_id`
 * (the token's `sub`) to every device body it forwards.
 */
const Jti = Type.String({ minLength: 1, maxLength: 100 });
const AccountRef = Type.String({ minLength: 1, maxLength: 100 });
const forwarded = { jti: Jti, account_id: Type.Optional(AccountRef) };

export const LadderRequest = Type.Object(forwarded, { additionalProperties: false });
export type LadderRequest = Static<typeof LadderRequest>;

export const InternalVerifyAllow = Type.Object(
  {
    allow: Type.Literal(true),
    status: Type.Literal('active'),
    account: Type.String(),
    quota_remaining: QuotaRemaining,
  },
  { additionalProperties: false },
);
export type InternalVerifyAllow = Static<typeof InternalVerifyAllow>;

export const InternalValidateAllow = Type.Object(
  {
    allow: Type.Literal(true),
    status: Type.Literal('active'),
    quota_remaining: QuotaRemaining,
    job_id: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
export type InternalValidateAllow = Static<typeof InternalValidateAllow>;

export const InternalDeny = Type.Object(
  {
    allow: Type.Literal(false),
    status: TokenStatus,
    reason: Type.Union(LADDER_DENY_REASONS.filter((r) => r !== 'not_found').map((r) => Type.Literal(r))),
    quota_remaining: QuotaRemaining,
  },
  { additionalProperties: false },
);
export type InternalDeny = Static<typeof InternalDeny>;

export const InternalNotFound = Type.Object(
  { allow: Type.Literal(false), status: Type.Literal('unknown'), reason: Type.Literal('not_found') },
  { additionalProperties: false },
);
export type InternalNotFound = Static<typeof InternalNotFound>;

export const InternalAssetRequest = Type.Object(
  {
    ...forwarded,
    record_id: Type.String({ minLength: 1, maxLength: 64 }),
    engine_version: Type.Optional(Type.String({ maxLength: 64 })),
    fingerprint: Fingerprint,
  },
  { additionalProperties: false },
);
export type InternalAssetRequest = Static<typeof InternalAssetRequest>;

export const InternalNotesRequest = Type.Object(
  { ...forwarded, record_id: Type.String({ minLength: 1, maxLength: 64 }), notes: Type.String({ maxLength: 20_000 }) },
  { additionalProperties: false },
);
export type InternalNotesRequest = Static<typeof InternalNotesRequest>;

export const InternalTestsRequest = Type.Object(
  { ...forwarded, record_id: Type.String({ minLength: 1, maxLength: 64 }), tests: TestSnapshot },
  { additionalProperties: false },
);
export type InternalTestsRequest = Static<typeof InternalTestsRequest>;

export const InternalWipeResultRequest = Type.Object(
  { ...forwarded, job_id: JobId, ...wipeResultFields },
  { additionalProperties: false },
);
export type InternalWipeResultRequest = Static<typeof InternalWipeResultRequest>;

export const InternalChassisMapRequest = Type.Object(
  {
    ...forwarded,
    record_id: Type.String({ minLength: 1, maxLength: 64 }),
    engine_version: Type.Optional(Type.String({ maxLength: 64 })),
    fingerprint: Fingerprint,
    map: ChassisMapDraft,
  },
  { additionalProperties: false },
);
export type InternalChassisMapRequest = Static<typeof InternalChassisMapRequest>;

export const InternalChassisLookupRequest = Type.Object(
  { ...forwarded, system: Type.Optional(SystemIdentity) },
  { additionalProperties: false },
);
export type InternalChassisLookupRequest = Static<typeof InternalChassisLookupRequest>;

/** Certificate numbers by job id (gateway `certificatesLookup`), scoped to the token's account. */
export const InternalCertificatesLookupRequest = Type.Object(
  { ...forwarded, ...CertificatesLookupBody.properties },
  { additionalProperties: false },
);
export type InternalCertificatesLookupRequest = Static<typeof InternalCertificatesLookupRequest>;

/** A validation report (gateway `validationReport`), scoped to the token's account. */
export const InternalValidationRequest = Type.Object(
  { ...forwarded, ...ValidationReportBody.properties },
  { additionalProperties: false },
);
export type InternalValidationRequest = Static<typeof InternalValidationRequest>;

/** Job details typed at the kiosk (gateway `jobDetails`), for an asset of the token's account. */
export const InternalJobDetailsRequest = Type.Object({ ...forwarded, ...JobDetailsBody.properties }, { additionalProperties: false });
export type InternalJobDetailsRequest = Static<typeof InternalJobDetailsRequest>;

/** The floor report (issue 32) as the gateway forwards it. */
export const InternalFloorReportRequest = Type.Object({ ...forwarded, ...FloorReportBody.properties }, { additionalProperties: false });
export type InternalFloorReportRequest = Static<typeof InternalFloorReportRequest>;

/** Whether a drive was picked for validation (gateway `validationPick`), within the token's account. */
export const InternalValidationPickRequest = Type.Object(
  { ...forwarded, ...ValidationPickBody.properties },
  { additionalProperties: false },
);
export type InternalValidationPickRequest = Static<typeof InternalValidationPickRequest>;

export const InternalAssetAccepted = Type.Object(
  { ok: Type.Literal(true), asset_id: Type.String() },
  { additionalProperties: false },
);

export const InternalChassisMapSaved = Type.Object(
  { ok: Type.Literal(true), chassis_map_id: Type.String(), asset_id: Type.String() },
  { additionalProperties: false },
);

/** The internal lookup answers `{found:false}`; the gateway contract adds `map: null`. */
export const InternalChassisLookupResult = Type.Union([
  ChassisLookupResult.anyOf[0],
  Type.Object({ found: Type.Literal(false), map: Type.Optional(Type.Null()) }, { additionalProperties: false }),
]);
export type InternalChassisLookupResult = Static<typeof InternalChassisLookupResult>;

const ladderErrors = { 401: ErrorBody, 403: InternalDeny, 404: InternalNotFound } as const;
const writeErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody } as const;

/** The cloud's signed internal API (spec 4.2); every route is a POST signed with HMAC. */
export const internalApi = {
  verify: {
    method: 'POST',
    url: '/internal/tokens/verify',
    body: LadderRequest,
    response: { 200: InternalVerifyAllow, ...ladderErrors },
  },
  validate: {
    method: 'POST',
    url: '/internal/tokens/validate',
    body: LadderRequest,
    response: { 200: InternalValidateAllow, ...ladderErrors },
  },
  assets: {
    method: 'POST',
    url: '/internal/assets',
    body: InternalAssetRequest,
    response: { 201: InternalAssetAccepted, ...writeErrors },
  },
  notes: {
    method: 'POST',
    url: '/internal/assets/notes',
    body: InternalNotesRequest,
    response: { 200: InternalAssetAccepted, ...writeErrors },
  },
  tests: {
    method: 'POST',
    url: '/internal/assets/tests',
    body: InternalTestsRequest,
    response: { 200: InternalAssetAccepted, ...writeErrors },
  },
  wipeResults: {
    method: 'POST',
    url: '/internal/wipe_results',
    body: InternalWipeResultRequest,
    response: { 200: WipeResultAccepted, 201: WipeResultAccepted, ...writeErrors },
  },
  chassisMaps: {
    method: 'POST',
    url: '/internal/chassis_maps',
    body: InternalChassisMapRequest,
    response: { 201: InternalChassisMapSaved, ...writeErrors },
  },
  chassisLookup: {
    method: 'POST',
    url: '/internal/chassis_maps/lookup',
    body: InternalChassisLookupRequest,
    response: { 200: InternalChassisLookupResult, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  },
  certificatesLookup: {
    method: 'POST',
    url: '/internal/certificates/lookup',
    body: InternalCertificatesLookupRequest,
    response: { 200: CertificatesFound, ...writeErrors },
  },
  validations: {
    method: 'POST',
    url: '/internal/validations',
    body: InternalValidationRequest,
    response: { 200: ValidationRecorded, 201: ValidationRecorded, ...writeErrors, 409: ErrorBody },
  },
  validationPick: {
    method: 'POST',
    url: '/internal/validations/pick',
    body: InternalValidationPickRequest,
    response: { 200: ValidationPickAnswer, ...writeErrors },
  },
  jobDetails: { method: 'POST', url: '/internal/assets/job_details', body: InternalJobDetailsRequest, response: { 200: JobDetailsSaved, ...writeErrors } },
  jobChoices: { method: 'POST', url: '/internal/job_choices', body: LadderRequest, response: { 200: JobChoices, ...writeErrors } },
  floorReport: { method: 'POST', url: '/internal/floor_report', body: InternalFloorReportRequest, response: { 200: FloorReportAck, ...writeErrors } },
  erasurePolicy: {
    method: 'POST',
    url: '/internal/tokens/erasure_policy',
    body: LadderRequest,
    response: { 200: ErasurePolicyGranted, ...writeErrors },
  },
} as const satisfies Record<string, RouteDescriptor>;

export type InternalApi = typeof internalApi;
