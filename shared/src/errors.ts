import type { TokenStatus } from './contracts/common.js';

/**
 * The exact error texts of spec section 7, written once. Servers answer with these and
 * tests assert against them; a new text gets a new key, an old key is never reused.
 */
export const ERRORS = {
  unauthorized: 'unauthorized',
  notFound: 'not found',
  invalidPayload: 'invalid payload',
  payloadTooLarge: 'payload too large',
  unknownToken: 'unknown token',
  unknownAsset: 'unknown asset',
  missingRecordOrFingerprint: 'missing record_id or fingerprint',
  invalidTests: 'invalid tests',
  missingJobId: 'missing job_id',
  noUsableBays: 'map has no usable bays',
  invalidWipeResult: 'invalid wipe result',
  jobIdOfAnotherToken: 'job_id was issued to another token',
  invalidJson: 'invalid JSON body',
  nestedTooDeeply: 'body nested too deeply (at most 64 levels)',
  internalSecretUnset: 'internal API secret not configured',
  cloudUnavailable: 'cloud unavailable',
  internalError: 'internal server error',
} as const;
export type ErrorKey = keyof typeof ERRORS;

/** `token revoked`, `token suspended`, `token disabled`: non-ladder endpoints, token not active. */
export function tokenNotActiveError(status: Exclude<TokenStatus, 'active'>): string {
  return `token ${status}`;
}

/** Prefix of every write rejection the gateway relays (spec 7: cloud-name prefix, then `rejected`). */
export const WRITE_REJECTED_PREFIX = 'cloud rejected';
