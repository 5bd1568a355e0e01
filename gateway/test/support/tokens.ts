import { createHmac, randomUUID, sign, type KeyObject } from 'node:crypto';
import { devicePrivateKey, devicePublicKey, generateDeviceKeyPair, signDeviceToken } from '@erasure/shared';

/** A fleet keypair, as `erasure-cloud keygen` would produce it. */
export interface Fleet {
  readonly publicKeyBase64: string;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

export function newFleet(): Fleet {
  const pair = generateDeviceKeyPair();
  return {
    publicKeyBase64: pair.publicKey,
    publicKey: devicePublicKey(pair.publicKey),
    privateKey: devicePrivateKey(pair.privateKey),
  };
}

export const ACCOUNT = 'acct_42';
const now = () => Math.floor(Date.now() / 1000);

/** A genuine device token, the way the cloud mints it. */
export async function mintToken(fleet: Fleet, claims: { jti?: string; sub?: string; expiresAt?: number } = {}): Promise<{ token: string; jti: string }> {
  const jti = claims.jti ?? randomUUID();
  const token = await signDeviceToken(fleet.privateKey, {
    sub: claims.sub ?? ACCOUNT,
    jti,
    expiresAt: claims.expiresAt ?? now() + 3600,
  });
  return { token, jti };
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Compact JWS signed with Ed25519 by hand, for claim sets the minting helper will not produce. */
export function handSignedEdDsa(privateKey: KeyObject, payload: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
}

/** An unsigned token (`alg: none`): the classic downgrade. */
export function algNoneToken(payload: Record<string, unknown>): string {
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
}

/** HS256 keyed with the public key's raw bytes: the classic key-confusion forgery. */
export function hs256WithPublicKey(fleet: Fleet, payload: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  const mac = createHmac('sha256', Buffer.from(fleet.publicKeyBase64, 'base64')).update(input).digest('base64url');
  return `${input}.${mac}`;
}

/** Claims of a well-formed, unexpired token. */
export function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { sub: ACCOUNT, jti: randomUUID(), iat: now(), exp: now() + 3600, ...overrides };
}
