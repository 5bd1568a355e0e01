import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isValidObjectKey, type ObjectStore } from './local-store.js';

export interface CopyObjectsResult {
  /** Objects found in the local folder. */
  total: number;
  /** Put into the target and read back with the same SHA-256. */
  copied: number;
  /** Already in the target with the same SHA-256 (an earlier run): left alone. */
  skipped: number;
}

/** An object that did not read back from the target as it was sent. */
export class CopyChecksumError extends Error {
  constructor(readonly key: string) {
    super(`object ${key} read back from the target with a different SHA-256; nothing was deleted locally`);
    this.name = 'CopyChecksumError';
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every object key under `root`, in a stable order; `.tmp` (unfinished puts) is not an object. */
async function* localKeys(root: string, dir = root): AsyncGenerator<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === root && entry.name === '.tmp') continue;
      yield* localKeys(root, path);
    } else if (entry.isFile()) {
      const key = relative(root, path).split(sep).join('/');
      if (isValidObjectKey(key)) yield key;
    }
  }
}

/**
 * Copies every object of the local folder `root` into `target` under the same key. Idempotent and
 * resumable: an object already in the target with the same SHA-256 is skipped, so a second run
 * (or one after an interruption) copies only what is missing. Each copy is read back and its
 * checksum compared. Nothing is deleted locally: the operator removes the folder once satisfied.
 */
export async function copyObjects(root: string, target: ObjectStore, progress: (done: number, result: CopyObjectsResult) => void = () => {}): Promise<CopyObjectsResult> {
  const result: CopyObjectsResult = { total: 0, copied: 0, skipped: 0 };
  for await (const key of localKeys(root)) {
    result.total++;
    const bytes = new Uint8Array(await readFile(join(root, ...key.split('/'))));
    const sum = sha256(bytes);
    const there = await target.get(key);
    if (there && sha256(there) === sum) {
      result.skipped++;
    } else {
      await target.put(key, bytes);
      const back = await target.get(key);
      if (!back || sha256(back) !== sum) throw new CopyChecksumError(key);
      result.copied++;
    }
    progress(result.total, result);
  }
  return result;
}
