import { Type, type Static } from '@sinclair/typebox';
import { CertificateStatus, DenyReason, ErrorBody, Nullable, Ok, QuotaRemaining } from './common.js';
import { ChassisMapDraft, Fingerprint, SystemIdentity, TestSnapshot } from './hardware.js';
import { JobId, WipeResultAccepted, WipeResultRecord } from './wipe.js';
import { ValidationPickAnswer, ValidationPickBody, ValidationRecorded, ValidationReportBody } from './validation.js';
import { JobChoices, JobDetailsBody, JobDetailsSaved } from './job-details.js';
import { FloorReportAck, FloorReportBody } from './floor.js';
import { ErasurePolicySchema } from '../erasure-methods.js';
import { HealthGradingGranted } from './health-rules.js';

/** Route descriptor: one per route, shared by the server that serves it and the client that calls it. */
export interface RouteDescriptor {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body?: import('@sinclair/typebox').TSchema;
  /** Query parameters, for routes that take them (documented in the public API's OpenAPI document). */
  readonly query?: import('@sinclair/typebox').TSchema;
  readonly response: Readonly<Record<number, import('@sinclair/typebox').TSchema>>;
}

const RecordId = Type.String({ minLength: 1, maxLength: 64 });
const EngineVersion = Type.String({ maxLength: 64 });

export const Health = Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false });

export const Deny = Type.Object(
  { allow: Type.Literal(false), reason: DenyReason },
  { additionalProperties: false },
);
export type Deny = Static<typeof Deny>;

export const VerifyAllow = Type.Object(
  { allow: Type.Literal(true), account: Type.String(), quota_remaining: QuotaRemaining },
  { additionalProperties: false },
);
export type VerifyAllow = Static<typeof VerifyAllow>;

export const CheckinAllow = Type.Object(
  { allow: Type.Literal(true), job_id: Type.String({ minLength: 1 }), quota_remaining: QuotaRemaining },
  { additionalProperties: false },
);
export type CheckinAllow = Static<typeof CheckinAllow>;

/** A write the cloud refused, as the gateway reports it: `cloud rejected …` plus the cloud's status. */
export const WriteRejected = Type.Object(
  { error: Type.String({ pattern: '^cloud rejected' }), status: Type.Integer() },
  { additionalProperties: false },
);
export type WriteRejected = Static<typeof WriteRejected>;

/** verify and check-in take no body; an empty JSON object is tolerated. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const RecordBody = Type.Object(
  { record_id: RecordId, engine_version: Type.Optional(EngineVersion), fingerprint: Fingerprint },
  { additionalProperties: false },
);
export type RecordBody = Static<typeof RecordBody>;

export const AssetAccepted = Type.Object(
  { ok: Type.Literal(true), asset_id: Type.String() },
  { additionalProperties: false },
);
export type AssetAccepted = Static<typeof AssetAccepted>;

export const NotesBody = Type.Object(
  { record_id: RecordId, notes: Type.String({ maxLength: 20_000 }) },
  { additionalProperties: false },
);
export type NotesBody = Static<typeof NotesBody>;

export const TestsBody = Type.Object({ record_id: RecordId, tests: TestSnapshot }, { additionalProperties: false });
export type TestsBody = Static<typeof TestsBody>;

export const ChassisMapBody = Type.Object(
  {
    record_id: RecordId,
    engine_version: Type.Optional(EngineVersion),
    fingerprint: Fingerprint,
    map: ChassisMapDraft,
  },
  { additionalProperties: false },
);
export type ChassisMapBody = Static<typeof ChassisMapBody>;

export const ChassisMapSaved = Type.Object(
  { ok: Type.Literal(true), chassis_map_id: Type.String(), asset_id: Type.String() },
  { additionalProperties: false },
);
export type ChassisMapSaved = Static<typeof ChassisMapSaved>;

export const ChassisLookupBody = Type.Object({ system: SystemIdentity }, { additionalProperties: false });
export type ChassisLookupBody = Static<typeof ChassisLookupBody>;

const StoredMap = Type.Object(
  { name: Type.String(), bays: Type.Array(Type.Unknown()), site: Type.Optional(Type.String()) },
  { additionalProperties: true },
);
export const ChassisLookupResult = Type.Union([
  Type.Object({ found: Type.Literal(true), map: StoredMap }, { additionalProperties: false }),
  Type.Object({ found: Type.Literal(false), map: Type.Null() }, { additionalProperties: false }),
]);
export type ChassisLookupResult = Static<typeof ChassisLookupResult>;

/**
 * Certificate numbers of this device's wipe results (a route beyond the spec, README "Routes
 * beyond the spec"): the wipe-result answer must stay exactly as spec 7 shapes it, so a device
 * that wants the `CW-…` number reads it here. Job ids with no wipe result in the token's account
 * are left out of the answer.
 */
export const CERTIFICATE_LOOKUP_MAX_JOBS = 64;
export const CertificatesLookupBody = Type.Object(
  { job_ids: Type.Array(JobId, { maxItems: CERTIFICATE_LOOKUP_MAX_JOBS }) },
  { additionalProperties: false },
);
export type CertificatesLookupBody = Static<typeof CertificatesLookupBody>;

export const CertificateNumberEntry = Type.Object(
  {
    job_id: Type.String(),
    wipe_result_id: Type.String(),
    certificate_number: Nullable(Type.String()),
    certificate_status: Nullable(CertificateStatus),
  },
  { additionalProperties: false },
);
export type CertificateNumberEntry = Static<typeof CertificateNumberEntry>;

export const CertificatesFound = Type.Object(
  { certificates: Type.Array(CertificateNumberEntry, { maxItems: CERTIFICATE_LOOKUP_MAX_JOBS }) },
  { additionalProperties: false },
);
export type CertificatesFound = Static<typeof CertificatesFound>;

/**
 * The erasure policy a device erases under (issue 29 item 2; a route beyond the spec, docs/
 * integrator.md): the token's own policy (a customer's contract), else its account's, else the
 * built-in default, and which of them it is. The check-in answer stays exactly as spec 4.1 shapes
 * it, so the device asks for the policy here, once verify allowed it, before any drive is chosen.
 */
export const ErasurePolicySource = Type.Union([Type.Literal('token'), Type.Literal('account'), Type.Literal('default')]);
export type ErasurePolicySource = Static<typeof ErasurePolicySource>;
/**
 * The account's ATA master passwords (issue 30 item 1), for drives locked with an unknown user
 * password: set by its admins in the web app, never shown again, and sent to the device only here.
 * An ATA password is at most 32 bytes (ATA8-ACS SECURITY UNLOCK); `factory_defaults`: the makers'
 * published factory master passwords may be tried too. Absent: the account set none.
 */
export const ATA_MASTER_PASSWORDS_MAX = 16;
export const ATA_MASTER_PASSWORD_MAX_CHARS = 32;
export const AtaMasterPasswordsGranted = Type.Object(
  {
    passwords: Type.Array(Type.String({ minLength: 1, maxLength: ATA_MASTER_PASSWORD_MAX_CHARS }), { maxItems: ATA_MASTER_PASSWORDS_MAX }),
    factory_defaults: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AtaMasterPasswordsGranted = Static<typeof AtaMasterPasswordsGranted>;
/**
 * `health_grading` (issue 30 item 6): the account's own health grade rule table and whether the
 * SMART short self-test runs (contracts/health-rules.ts). Absent: the documented default table.
 */
export const ErasurePolicyGranted = Type.Object(
  {
    erasure_policy: ErasurePolicySchema,
    source: ErasurePolicySource,
    ata_master_passwords: Type.Optional(AtaMasterPasswordsGranted),
    health_grading: Type.Optional(HealthGradingGranted),
  },
  { additionalProperties: false },
);
export type ErasurePolicyGranted = Static<typeof ErasurePolicyGranted>;

/** Diagnostics: any JSON document up to 16 KiB, logged by the gateway and never stored. */
export const DIAGNOSTICS_LIMIT_BYTES = 16 * 1024;
export const DiagnosticsBody = Type.Unknown();

const unauthorized = { 401: ErrorBody, 400: Type.Union([Deny, ErrorBody]) } as const;
const writeErrors = { ...unauthorized, 403: WriteRejected, 404: Type.Union([WriteRejected, ErrorBody]), 422: WriteRejected, 503: ErrorBody } as const;

/** The device-facing edge (spec 4.1 and CONTRACT.md "Gateway routes left open"). */
export const gatewayApi = {
  health: { method: 'GET', url: '/api/health', response: { 200: Health } },
  verify: {
    method: 'POST',
    url: '/api/verify',
    body: EmptyBody,
    response: { 200: VerifyAllow, ...unauthorized, 403: Deny, 404: Deny, 503: Deny },
  },
  checkin: {
    method: 'POST',
    url: '/api/checkin',
    body: EmptyBody,
    response: { 200: CheckinAllow, ...unauthorized, 403: Deny, 404: Deny, 503: Deny },
  },
  record: { method: 'POST', url: '/api/record', body: RecordBody, response: { 200: AssetAccepted, 201: AssetAccepted, ...writeErrors } },
  notes: { method: 'POST', url: '/api/notes', body: NotesBody, response: { 200: AssetAccepted, ...writeErrors } },
  tests: { method: 'POST', url: '/api/tests', body: TestsBody, response: { 200: AssetAccepted, ...writeErrors } },
  wipeResult: {
    method: 'POST',
    url: '/api/wipe_result',
    body: WipeResultRecord,
    response: { 200: WipeResultAccepted, 201: WipeResultAccepted, ...writeErrors },
  },
  chassisMap: {
    method: 'POST',
    url: '/api/chassis_map',
    body: ChassisMapBody,
    response: { 200: ChassisMapSaved, 201: ChassisMapSaved, ...writeErrors },
  },
  chassisLookup: {
    method: 'POST',
    url: '/api/chassis_map/lookup',
    body: ChassisLookupBody,
    response: { 200: ChassisLookupResult, ...writeErrors },
  },
  certificatesLookup: {
    method: 'POST',
    url: '/api/certificates/lookup',
    body: CertificatesLookupBody,
    response: { 200: CertificatesFound, ...writeErrors },
  },
  /** Beyond the spec (issue 29): a validation's result for a drive picked from a lot. */
  validationReport: {
    method: 'POST',
    url: '/api/validation',
    body: ValidationReportBody,
    response: { 200: ValidationRecorded, 201: ValidationRecorded, ...writeErrors, 409: Type.Union([WriteRejected, ErrorBody]) },
  },
  /** Beyond the spec (issue 29): whether the cloud picked a drive (by serial) for validation. */
  validationPick: {
    method: 'POST',
    url: '/api/validation_pick',
    body: ValidationPickBody,
    response: { 200: ValidationPickAnswer, ...writeErrors },
  },
  /** Beyond the spec (issue 31 item 6): customer, lot and asset tag typed or scanned at the kiosk. */
  jobDetails: { method: 'POST', url: '/api/job_details', body: JobDetailsBody, response: { 200: JobDetailsSaved, ...writeErrors } },
  jobChoices: { method: 'POST', url: '/api/job_choices', body: EmptyBody, response: { 200: JobChoices, ...writeErrors } },
  /** Beyond the spec (issue 32): the machine's live state for the floor view; best effort. */
  floorReport: { method: 'POST', url: '/api/floor_report', body: FloorReportBody, response: { 200: FloorReportAck, ...writeErrors } },
  erasurePolicy: {
    method: 'POST',
    url: '/api/erasure_policy',
    body: EmptyBody,
    response: { 200: ErasurePolicyGranted, ...writeErrors },
  },
  diagnostics: { method: 'POST', url: '/api/diagnostics', body: DiagnosticsBody, response: { 200: Ok, 413: ErrorBody } },
} as const satisfies Record<string, RouteDescriptor>;

export type GatewayApi = typeof gatewayApi;

/** Retired endpoints: 410 (spec 1.8). */
export const RETIRED_GATEWAY_PATHS = ['/api/certificate', '/api/sign', '/api/timestamp'] as const;
