import type { Static, TSchema } from '@fastify/type-provider-typebox';
import {
  CertificatesFound,
  ERRORS,
  ErasurePolicyGranted,
  ErrorBody,
  InternalAssetAccepted,
  InternalChassisLookupResult,
  InternalChassisMapSaved,
  InternalDeny,
  InternalNotFound,
  InternalValidateAllow,
  InternalVerifyAllow,
  JobChoices,
  FloorReportAck,
  JobDetailsSaved,
  WRITE_REJECTED_PREFIX,
  ValidationPickAnswer,
  ValidationRecorded,
  WipeResultAccepted,
  conforms,
  gatewayApi,
  internalApi,
  parseUnknown,
  type ChassisLookupResult,
  type CheckinAllow,
  type Deny,
  type VerifyAllow,
} from '@erasure/shared';
import type { CloudAnswer } from '../forward.js';

/**
 * The one place where cloud answers become spec 7 gateway answers. Every route the
 * gateway forwards is a row below; the two rule sets (ladder and write) read top to
 * bottom, first match wins, and anything no rule recognises fails closed.
 */

/** Gateway texts the spec leaves to us; device clients only look at the status. */
export const GATEWAY_ERRORS = {
  gone: 'gone',
  invalidCloudAnswer: 'cloud answered with an invalid body',
} as const;

/** A reply to the device, plus a note for the operator log when the cloud misbehaved. */
export interface DeviceAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly problem?: string;
}

/** One forwarded route: the device-facing descriptor, the cloud route, and its answer rules. */
export interface ForwardedRoute {
  readonly gateway: { readonly method: 'POST'; readonly url: string; readonly body: TSchema };
  readonly internalPath: string;
  /** verify and check-in carry no body (spec 4.1); absent counts as `{}`. */
  readonly bodyOptional: boolean;
  answer(cloud: CloudAnswer): DeviceAnswer;
}

const VALIDATION_UNAVAILABLE: Deny = { allow: false, reason: 'validation_unavailable' };
// Cloud denials, exactly as spec 4.2 shapes them: 403 ladder denials and 404 unknown token.
const cloudDenial = (body: unknown): Deny | undefined =>
  conforms(InternalDeny, body) || conforms(InternalNotFound, body) ? { allow: false, reason: body.reason } : undefined;

/**
 * verify and check-in (spec 4.1 rules 2 and 3, spec 7 rows 3 and 4).
 * - 200 matching the allow contract: allow, in the gateway's shape.
 * - 401: the cloud refused our HMAC. That is gateway misconfiguration, not a verdict on
 *   the device, so it is "validation unavailable" like an unreachable cloud.
 * - a well-formed denial: its reason, its status if 4xx, else 403.
 * - anything else (unreachable, 5xx, non-JSON, wrong shape, check-in without job_id): 503.
 */
function ladder<S extends TSchema, A>(allow: S, toDevice: (cloud: Static<S>) => A) {
  return (cloud: CloudAnswer): DeviceAnswer => {
    if (cloud.kind === 'unavailable') return { status: 503, body: VALIDATION_UNAVAILABLE, problem: cloud.cause };
    if (cloud.status === 401) {
      return { status: 503, body: VALIDATION_UNAVAILABLE, problem: 'cloud refused the service signature (INTERNAL_API_SECRET mismatch?)' };
    }
    if (cloud.status === 200) {
      const parsed = parseUnknown(allow, cloud.body);
      if (parsed.ok) return { status: 200, body: toDevice(parsed.value) };
    }
    const denial = cloudDenial(cloud.body);
    if (denial) return { status: cloud.status >= 400 && cloud.status < 500 ? cloud.status : 403, body: denial };
    return { status: 503, body: VALIDATION_UNAVAILABLE, problem: `cloud answered ${cloud.status} outside the contract` };
  };
}

/**
 * The writes (spec 7 row "cloud rejected a write").
 * - 2xx matching the route's contract: the cloud's status and body (201 stays 201).
 * - 401: our HMAC was refused; relaying 401 would tell the device its token is bad
 *   (spec 7 row 1), so it is 503 "cloud unavailable" like an unreachable cloud.
 * - other 4xx/5xx: same status, `cloud rejected <what>: <cloud text>` and the status.
 * - 2xx (or 1xx/3xx) outside the contract: 502. Not 503, because the cloud was reached and
 *   may have committed the write; not 2xx, because an unreadable answer acknowledges
 *   nothing. The device treats any non-2xx as "not stored" and retries.
 */
function write<S extends TSchema>(what: string, accepted: S, toDevice: (cloud: Static<S>) => unknown = (body) => body) {
  return (cloud: CloudAnswer): DeviceAnswer => {
    if (cloud.kind === 'unavailable') return { status: 503, body: { error: ERRORS.cloudUnavailable }, problem: cloud.cause };
    const { status, body } = cloud;
    if (status === 401) {
      return { status: 503, body: { error: ERRORS.cloudUnavailable }, problem: 'cloud refused the service signature (INTERNAL_API_SECRET mismatch?)' };
    }
    if (status >= 400 && status < 600) return { status, body: { error: rejection(what, body), status } };
    if (status >= 200 && status < 300) {
      const parsed = parseUnknown(accepted, body);
      if (parsed.ok) return { status, body: toDevice(parsed.value) };
      return invalidAnswer(`cloud answered ${status} for ${what} outside the contract at ${parsed.path}: ${parsed.message}`);
    }
    return invalidAnswer(`cloud answered ${status} for ${what}`);
  };
}

// The cloud's error text is relayed for the technician, bounded so a cloud bug cannot
// turn the gateway into an amplifier.
const MAX_RELAYED_TEXT = 200;

function rejection(what: string, body: unknown): string {
  const head = `${WRITE_REJECTED_PREFIX} ${what}`;
  return conforms(ErrorBody, body) && body.error !== '' ? `${head}: ${body.error.slice(0, MAX_RELAYED_TEXT)}` : head;
}

function invalidAnswer(problem: string): DeviceAnswer {
  return { status: 502, body: { error: GATEWAY_ERRORS.invalidCloudAnswer }, problem };
}

/** The spec's lookup answers `map: null` when nothing is stored; the internal API omits it. */
function lookupForDevice(found: Static<typeof InternalChassisLookupResult>): ChassisLookupResult {
  return found.found ? found : { found: false, map: null };
}

/** Every forwarded route (CONTRACT.md "Gateway routes left open by the spec"). */
export const FORWARDED_ROUTES = {
  verify: {
    gateway: gatewayApi.verify,
    internalPath: internalApi.verify.url,
    bodyOptional: true,
    // The cloud's `status` is internal bookkeeping; the device contract has no such field.
    answer: ladder(InternalVerifyAllow, (a): VerifyAllow => ({ allow: true, account: a.account, quota_remaining: a.quota_remaining })),
  },
  checkin: {
    gateway: gatewayApi.checkin,
    internalPath: internalApi.validate.url,
    bodyOptional: true,
    answer: ladder(InternalValidateAllow, (a): CheckinAllow => ({ allow: true, job_id: a.job_id, quota_remaining: a.quota_remaining })),
  },
  record: { gateway: gatewayApi.record, internalPath: internalApi.assets.url, bodyOptional: false, answer: write('asset report', InternalAssetAccepted) },
  notes: { gateway: gatewayApi.notes, internalPath: internalApi.notes.url, bodyOptional: false, answer: write('notes', InternalAssetAccepted) },
  tests: { gateway: gatewayApi.tests, internalPath: internalApi.tests.url, bodyOptional: false, answer: write('test results', InternalAssetAccepted) },
  wipeResult: {
    gateway: gatewayApi.wipeResult,
    internalPath: internalApi.wipeResults.url,
    bodyOptional: false,
    answer: write('wipe result', WipeResultAccepted),
  },
  chassisMap: {
    gateway: gatewayApi.chassisMap,
    internalPath: internalApi.chassisMaps.url,
    bodyOptional: false,
    answer: write('chassis map', InternalChassisMapSaved),
  },
  chassisLookup: {
    gateway: gatewayApi.chassisLookup,
    internalPath: internalApi.chassisLookup.url,
    bodyOptional: false,
    answer: write('chassis map lookup', InternalChassisLookupResult, lookupForDevice),
  },
  // Beyond the spec (README "Routes beyond the spec"): the cloud's answer is the device's, as is.
  certificatesLookup: {
    gateway: gatewayApi.certificatesLookup,
    internalPath: internalApi.certificatesLookup.url,
    bodyOptional: false,
    answer: write('certificate lookup', CertificatesFound),
  },
  // Beyond the spec (issue 29): a validation result of a drive picked from a lot.
  validationReport: {
    gateway: gatewayApi.validationReport,
    internalPath: internalApi.validations.url,
    bodyOptional: false,
    answer: write('validation report', ValidationRecorded),
  },
  // Beyond the spec (issue 29): whether the cloud picked a drive for validation, and what its
  // method left. A garbled answer is 502, so the device reads nothing against a guess.
  validationPick: {
    gateway: gatewayApi.validationPick,
    internalPath: internalApi.validationPick.url,
    bodyOptional: false,
    answer: write('validation pick', ValidationPickAnswer),
  },
  // Beyond the spec (issue 31 item 6): job details typed or scanned at the kiosk, and the lists it offers.
  jobDetails: { gateway: gatewayApi.jobDetails, internalPath: internalApi.jobDetails.url, bodyOptional: false, answer: write('job details', JobDetailsSaved) },
  jobChoices: { gateway: gatewayApi.jobChoices, internalPath: internalApi.jobChoices.url, bodyOptional: true, answer: write('job choices', JobChoices) },
  // Beyond the spec (issue 32): a machine's live state for the floor view. Best effort on the
  // device's side; here a write like the others, on the same token and HMAC rules.
  floorReport: { gateway: gatewayApi.floorReport, internalPath: internalApi.floorReport.url, bodyOptional: false, answer: write('floor report', FloorReportAck) },
  // Beyond the spec too (issue 29): the policy the device erases under. An answer outside the
  // contract (a garbled policy) is 502 like any other write's, so the device erases nothing.
  erasurePolicy: {
    gateway: gatewayApi.erasurePolicy,
    internalPath: internalApi.erasurePolicy.url,
    bodyOptional: true,
    answer: write('erasure policy', ErasurePolicyGranted),
  },
} as const satisfies Record<string, ForwardedRoute>;
