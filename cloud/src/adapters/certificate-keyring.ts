import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * How a certificate key is named: every key that ever signed stays on record (see
 * adapters/certificate-keys.ts) under its key id, and each signature names the id of the key
 * that made it, so a certificate signed before a rotation still verifies.
 */

/** Base64 raw 32-byte public key of an Ed25519 key. */
export function rawPublicKeyBase64(key: KeyObject): string {
  const spki = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32).toString('base64');
}

/** A key's id: the first 16 hex digits of SHA-256 over its raw public key (stable, public). */
export function certificateKeyId(key: KeyObject): string {
  return createHash('sha256').update(Buffer.from(rawPublicKeyBase64(key), 'base64')).digest('hex').slice(0, 16);
}

/** The key that signs now, with its id. */
export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
}
