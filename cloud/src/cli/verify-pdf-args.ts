import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { devicePublicKey } from '@erasure/shared';

/**
 * `verify-pdf --public-key B64` read as the certificate key it is. The parser it shares with the
 * device token keys would otherwise name the wrong key ("device token public key") in its error.
 * A bare `--public-key` is a mistake too, never a silent fall-back to the deployment's database.
 */
export function certificateKeyFlag(value: string | boolean): { ok: true; key: KeyObject } | { ok: false; error: string } {
  const wanted = "the certificate public key, base64 of 32 raw bytes: the public_key that 'erasure-cloud certificate-public-key --all' prints on the deployment";
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, error: `--public-key needs a value: ${wanted}` };
  try {
    return { ok: true, key: devicePublicKey(value) };
  } catch {
    return { ok: false, error: `--public-key must be ${wanted}` };
  }
}

/**
 * Why verify-pdf found no SQLite database at `path` (DATA_DIR/cloud.sqlite), and where it is when
 * DATA_DIR names the folder `npm start` keeps its services' data in (the cloud's is `cloud/`).
 */
export function missingDatabaseMessage(path: string, dataDir: string, whereKeysAre: string, exists: (path: string) => boolean): string {
  const nested = join(dataDir, 'cloud', 'cloud.sqlite');
  if (exists(nested)) {
    return `no cloud database at ${path}. This DATA_DIR holds a whole stack (as \`npm start\` lays it out): the cloud's database is ${nested}, so run it with DATA_DIR=${join(dataDir, 'cloud')}`;
  }
  return `no cloud database at ${path}, so no keys to verify with: ${whereKeysAre}`;
}
