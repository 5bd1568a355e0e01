import type { KeyObject } from 'node:crypto';
import { verifyDeviceToken, type DeviceTokenCheck } from '@erasure/shared';

/** Who a verified token speaks for: the license-token row and its account (spec 2, claims). */
export interface DeviceIdentity {
  readonly jti: string;
  /** The token's `sub`, an `acct_…` id; forwarded as `account_id`. */
  readonly sub: string;
}

// A compact EdDSA JWS with our four claims is a few hundred bytes. The cap keeps a hostile
// header from costing a base64 decode and a signature check on kilobytes of noise.
const MAX_TOKEN_CHARS = 4096;
// RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces separate it.
const BEARER = /^bearer +(\S+)$/i;

/**
 * Checks an `Authorization` header value (spec 5.1). The signature, algorithm and expiry
 * rules are shared's `verifyDeviceToken`; this only extracts the bearer credential.
 * Every failure, including an unset key, is `unauthorized`, never an exception.
 */
export async function authenticateDevice(
  key: KeyObject | undefined,
  authorization: string | undefined,
  now: Date,
): Promise<DeviceTokenCheck> {
  const token = bearerOf(authorization);
  if (token === undefined) return { ok: false, reason: 'unauthorized' };
  return verifyDeviceToken(key, token, now);
}

/** The credential of a `Bearer` header, or `undefined` when the header is absent or malformed. */
export function bearerOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.length > MAX_TOKEN_CHARS + 16) return undefined;
  const token = BEARER.exec(authorization.trim())?.[1];
  return token !== undefined && token.length <= MAX_TOKEN_CHARS ? token : undefined;
}
