import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/** Leeway on `exp`/`iat`/`nbf`, in seconds (CONTRACT.md, gateway). */
export const DEVICE_TOKEN_LEEWAY_SECONDS = 60;

// DER headers that turn a raw 32-byte Ed25519 seed / public key into PKCS#8 / SPKI.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export class DeviceKeyError extends Error {
  readonly code = 'DEVICE_KEY_INVALID';
}

function raw32(base64: string, what: string): Buffer {
  const bytes = Buffer.from(base64.trim(), 'base64');
  if (bytes.length !== 32) throw new DeviceKeyError(`${what} must be base64 of 32 raw bytes`);
  return bytes;
}

/** Private signing key from `DEVICE_TOKEN_PRIVATE_KEY` (base64 raw seed). */
export function devicePrivateKey(base64Seed: string): KeyObject {
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, raw32(base64Seed, 'device token private key')]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

/** Public verification key from `DEVICE_TOKEN_PUBKEY` (base64 raw key). */
export function devicePublicKey(base64Raw: string): KeyObject {
  const der = Buffer.concat([SPKI_ED25519_PREFIX, raw32(base64Raw, 'device token public key')]);
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}

/** Base64 raw public key of a base64 raw seed, as the gateway is configured. */
export function devicePublicKeyOfSeed(base64Seed: string): string {
  const spki = createPublicKey(devicePrivateKey(base64Seed)).export({ format: 'der', type: 'spki' });
  return spki.subarray(SPKI_ED25519_PREFIX.length).toString('base64');
}

/** A fresh fleet keypair, both halves as base64 raw 32 bytes. */
export function generateDeviceKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  const seed = pkcs8.subarray(PKCS8_ED25519_PREFIX.length).toString('base64');
  return { privateKey: seed, publicKey: devicePublicKeyOfSeed(seed) };
}

export interface DeviceTokenClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
}

/** Mints the compact EdDSA JWS a device image carries. */
export async function signDeviceToken(
  key: KeyObject,
  claims: { sub: string; jti: string; expiresAt: number; issuedAt?: number; product?: 'engine' | 'hotswap' },
): Promise<string> {
  // `product` tells the image which mode to start in (a hotswap token starts a station); the cloud
  // still decides every check-in from the token row, so the claim grants nothing by itself.
  return new SignJWT(claims.product ? { product: claims.product } : {})
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt(claims.issuedAt ?? Math.floor(Date.now() / 1000))
    .setExpirationTime(claims.expiresAt)
    .sign(key);
}

export type DeviceTokenCheck =
  | { ok: true; sub: string; jti: string; exp: number }
  | { ok: false; reason: 'unauthorized' }
  | { ok: false; reason: 'invalid_token' };

/**
 * Verifies a compact JWS: EdDSA only, signature by `key`, `exp` required and enforced with leeway.
 * A verified token lacking a usable `jti` or `sub` is `invalid_token`; every other failure is `unauthorized`.
 */
export async function verifyDeviceToken(
  key: KeyObject | undefined,
  token: string,
  now: Date = new Date(),
): Promise<DeviceTokenCheck> {
  if (!key || !token) return { ok: false, reason: 'unauthorized' };
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['EdDSA'],
      clockTolerance: DEVICE_TOKEN_LEEWAY_SECONDS,
      requiredClaims: ['exp'],
      currentDate: now,
    }));
  } catch {
    return { ok: false, reason: 'unauthorized' };
  }
  const { jti, sub, exp } = payload;
  if (typeof jti !== 'string' || jti === '' || typeof sub !== 'string' || sub === '') {
    return { ok: false, reason: 'invalid_token' };
  }
  return { ok: true, sub, jti, exp: exp as number };
}
