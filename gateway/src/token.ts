import type { KeyObject } from 'node:crypto';
import { DEVICE_TOKEN_LEEWAY_SECONDS, verifyDeviceToken, type DeviceTokenCheck } from '@erasure/shared';

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

/** Verified tokens remembered at once; past this the oldest are forgotten first. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * {@link authenticateDevice} with a memory of tokens that already verified. An Ed25519 check
 * costs ~100-200 µs, more than the rest of the gateway's work per request; a given token string
 * verifies the same way every time under one key, so only its expiry has to be re-judged.
 * Revocation is not the gateway's business: the cloud re-decides on every call (spec 1.3).
 * Failures are never cached, so a key rotation or clock change cannot pin a denial.
 */
export function createDeviceAuthenticator(
  key: KeyObject | undefined,
  maxEntries: number = VERIFIED_TOKEN_CACHE_SIZE,
): (authorization: string | undefined, now: Date) => Promise<DeviceTokenCheck> {
  const verified = new Map<string, { sub: string; jti: string; exp: number }>();
  return async (authorization, now) => {
    const token = bearerOf(authorization);
    if (token === undefined || !key) return { ok: false, reason: 'unauthorized' };
    const known = verified.get(token);
    if (known) {
      if (now.getTime() / 1000 <= known.exp + DEVICE_TOKEN_LEEWAY_SECONDS) return { ok: true, ...known };
      verified.delete(token);
      return { ok: false, reason: 'unauthorized' };
    }
    const check = await verifyDeviceToken(key, token, now);
    if (check.ok) {
      if (verified.size >= maxEntries) verified.delete(verified.keys().next().value!);
      verified.set(token, { sub: check.sub, jti: check.jti, exp: check.exp });
    }
    return check;
  };
}
