import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { devicePrivateKey, devicePublicKey, generateDeviceKeyPair } from '@erasure/shared';

/**
 * The certificate keyring under `${DATA_DIR}/keys`: `certificate-signing-key` is the current
 * private seed; `certificate-public-keys.json` lists every public key that ever signed, each with
 * its key id, and is never pruned, so a certificate signed before a rotation still verifies.
 */
export interface KeyringEntry {
  key_id: string;
  /** Base64 raw 32-byte Ed25519 public key. */
  public_key: string;
  added_at: string;
  /** When a rotation replaced it; null for the current key. */
  retired_at: string | null;
}

export const SIGNING_KEY_FILE = 'certificate-signing-key';
export const PUBLIC_KEYS_FILE = 'certificate-public-keys.json';

/** Base64 raw 32-byte public key of an Ed25519 key. */
export function rawPublicKeyBase64(key: KeyObject): string {
  const spki = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32).toString('base64');
}

/** A key's id: the first 16 hex digits of SHA-256 over its raw public key (stable, public). */
export function certificateKeyId(key: KeyObject): string {
  return createHash('sha256').update(Buffer.from(rawPublicKeyBase64(key), 'base64')).digest('hex').slice(0, 16);
}

/** Writes `text` to `path` atomically (temporary file, fsync, rename, fsync of the folder). */
function writeAtomically(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomUUID()}.tmp`;
  const fd = openSync(tmp, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  fsyncSync(dir);
  closeSync(dir);
}

export function readKeyring(keysDir: string): KeyringEntry[] {
  const path = join(keysDir, PUBLIC_KEYS_FILE);
  if (!existsSync(path)) return [];
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { keys?: KeyringEntry[] };
  return Array.isArray(parsed.keys) ? parsed.keys : [];
}

const writeKeyring = (keysDir: string, keys: KeyringEntry[]) =>
  writeAtomically(join(keysDir, PUBLIC_KEYS_FILE), `${JSON.stringify({ keys }, null, 2)}\n`, 0o644);

/** Adds the public half of `key` to the keyring unless it is there (upgrades, env-configured keys). */
export function recordPublicKey(keysDir: string, key: KeyObject, now: string): void {
  const keys = readKeyring(keysDir);
  const keyId = certificateKeyId(key);
  if (keys.some((k) => k.key_id === keyId)) return;
  writeKeyring(keysDir, [...keys, { key_id: keyId, public_key: rawPublicKeyBase64(key), added_at: now, retired_at: null }]);
}

/**
 * Replaces the current signing key with a fresh one. The keyring is written first (with the new
 * key, and the old one marked retired but kept), then the private key file is swapped by rename:
 * at no moment can a certificate be signed by a key whose public half is not on record.
 */
export function rotateSigningKey(keysDir: string, now: string): { key_id: string; retired_key_id: string; public_key: string } {
  const oldKey = devicePrivateKey(readFileSync(join(keysDir, SIGNING_KEY_FILE), 'utf8').trim());
  recordPublicKey(keysDir, oldKey, now);
  const seed = generateDeviceKeyPair().privateKey;
  const newKey = devicePrivateKey(seed);
  const oldId = certificateKeyId(oldKey);
  const newId = certificateKeyId(newKey);
  const keys = readKeyring(keysDir).map((k) => (k.key_id === oldId && k.retired_at === null ? { ...k, retired_at: now } : k));
  writeKeyring(keysDir, [...keys, { key_id: newId, public_key: rawPublicKeyBase64(newKey), added_at: now, retired_at: null }]);
  writeAtomically(join(keysDir, SIGNING_KEY_FILE), `${seed}\n`, 0o600);
  return { key_id: newId, retired_key_id: oldId, public_key: rawPublicKeyBase64(newKey) };
}

/** The key that signs now, with its id. */
export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
}

/** Reads a file again only when its modification time changed (a rotation by another process). */
function reloading<T>(path: string, load: () => T): () => T {
  let cached: { mtimeMs: number; value: T } | undefined;
  return () => {
    const mtimeMs = existsSync(path) ? statSync(path).mtimeMs : -1;
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, value: load() };
    return cached.value;
  };
}

/**
 * The current signing key, following `erasure-cloud rotate-certificate-key` run by any process
 * without a restart; or the fixed CERTIFICATE_SIGNING_KEY.
 */
export function currentSigningKey(keysDir: string, configuredSeed: string | undefined): () => SigningKey {
  const of = (privateKey: KeyObject): SigningKey => ({ keyId: certificateKeyId(privateKey), privateKey });
  if (configuredSeed) {
    const fixed = of(devicePrivateKey(configuredSeed));
    return () => fixed;
  }
  return reloading(join(keysDir, SIGNING_KEY_FILE), () => of(devicePrivateKey(readFileSync(join(keysDir, SIGNING_KEY_FILE), 'utf8').trim())));
}

/**
 * The public keys a signature may be checked with: the one its key id names (none when the id
 * is unknown: fail closed), or, for a signature made before key ids existed, every key on record.
 */
export function keyringLookup(keysDir: string): (keyId: string | undefined) => readonly KeyObject[] {
  const load = reloading(join(keysDir, PUBLIC_KEYS_FILE), () =>
    readKeyring(keysDir).map((k) => ({ keyId: k.key_id, key: devicePublicKey(k.public_key) })),
  );
  return (keyId) => {
    const keys = load();
    return keyId === undefined ? keys.map((k) => k.key) : keys.filter((k) => k.keyId === keyId).map((k) => k.key);
  };
}
