import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devicePublicKey } from '@erasure/shared';
import type { SigningKeyRecord } from './db/deployment-keys.js';

/**
 * The certificate keys as releases before the database kept them, under `${DATA_DIR}/keys`:
 * `certificate-signing-key` (base64 raw seed of the current key), `certificate-public-keys.json`
 * (`{keys: [{key_id, public_key, added_at, retired_at}]}`, every key that ever signed) and
 * `url-signing-secret` (hex HMAC key of presigned URLs). Only read, for the import into the
 * database; the files are left as they are.
 */
export interface LegacyKeyFiles {
  seed: string | undefined;
  keyring: SigningKeyRecord[];
  urlSecret: string | undefined;
}

const KEY_ID = /^[0-9a-f]{16}$/;

/** Reads the legacy files in `keysDir`; undefined when there are none. */
export function readLegacyKeyFiles(keysDir: string): LegacyKeyFiles | undefined {
  const seed = readIfPresent(join(keysDir, 'certificate-signing-key'));
  const keyringText = readIfPresent(join(keysDir, 'certificate-public-keys.json'));
  const urlSecret = readIfPresent(join(keysDir, 'url-signing-secret'));
  if (seed === undefined && keyringText === undefined && urlSecret === undefined) return undefined;
  const path = join(keysDir, 'certificate-public-keys.json');
  return { seed, keyring: keyringText === undefined ? [] : parseKeyring(keyringText, path), urlSecret };
}

/** A file's trimmed text; undefined when it does not exist or is empty. */
function readIfPresent(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The keyring, checked entry by entry. A malformed one stops the import rather than being
 * skipped: a key dropped here would leave the certificates it signed failing verification.
 */
function parseKeyring(text: string, path: string): SigningKeyRecord[] {
  const parsed: unknown = JSON.parse(text);
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error(`${path}: no keys list`);
  return keys.map((entry: unknown, i) => {
    const k = (entry ?? {}) as Record<string, unknown>;
    const wellFormed =
      typeof k.key_id === 'string' &&
      KEY_ID.test(k.key_id) &&
      typeof k.public_key === 'string' &&
      typeof k.added_at === 'string' &&
      (k.retired_at === null || k.retired_at === undefined || typeof k.retired_at === 'string');
    if (!wellFormed) throw new Error(`${path}: key ${i} is malformed`);
    devicePublicKey(k.public_key as string); // throws unless it is 32 raw bytes
    return { key_id: k.key_id as string, public_key: k.public_key as string, added_at: k.added_at as string, retired_at: (k.retired_at as string | null | undefined) ?? null };
  });
}
