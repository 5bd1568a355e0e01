import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Private object storage (ARCHITECTURE #6): a local directory by default, an S3-compatible
 * bucket later. Keys are `/`-separated paths of safe segments.
 */
export interface ObjectStore {
  /** Where the objects are, as an operator would look for them (log lines and job errors name it). */
  readonly where?: string;
  /** Stores `bytes` under `key`, replacing any previous object; durable once it resolves. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  exists(key: string): Promise<boolean>;
  /**
   * As `put`, from chunks as they come (a lot ZIP of any size, never whole in memory). Optional:
   * a store without it is given the bytes collected (see {@link putChunks}).
   */
  putStream?(key: string, chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /** The object as a stream of chunks, or undefined when there is none. Optional like `putStream`. */
  readStream?(key: string): Promise<NodeJS.ReadableStream | undefined>;
  /** Removes the object; no error when there is none. Optional: stores without it keep expired exports. */
  remove?(key: string): Promise<void>;
  /**
   * A URL customers fetch the object from directly, valid `expiresInSeconds` (an S3 presigned GET,
   * spec 4.4). Absent: downloads go through the cloud's own presigned `/files/…` link (the local
   * folder, or a bucket customers cannot reach, `S3_PRESIGN=proxy`).
   */
  downloadUrl?(key: string, expiresInSeconds: number, served: { contentType: string; contentDisposition: string }): Promise<string>;
}

/** `store.putStream`, or `put` of the chunks collected for a store that cannot take a stream. */
export async function putChunks(store: ObjectStore, key: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  if (store.putStream) return store.putStream(key, chunks);
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  await store.put(key, Buffer.concat(parts));
}

/** A key that could escape the store or be ambiguous on disk. */
export class InvalidObjectKeyError extends Error {
  readonly code = 'invalid_object_key';
  constructor(readonly key: string) {
    super(`invalid object key ${JSON.stringify(key)}`);
    this.name = 'InvalidObjectKeyError';
  }
}

// Segments start with a letter or digit, so "." and ".." (and hidden files) cannot be named.
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,15}$/;

/** True for keys every store accepts. */
export const isValidObjectKey = (key: string): boolean => KEY.test(key);

const TMP_DIR = '.tmp';

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The local-directory store with its housekeeping. */
export interface LocalObjectStore extends ObjectStore {
  readonly root: string;
  /** Removes temporary files left by writers that crashed mid-put, older than `olderThanMs`. */
  sweepTemporary(olderThanMs: number, nowMs?: number): Promise<number>;
}

/**
 * Objects as files under `root` (`${DATA_DIR}/objects`). A put writes a temporary file in
 * `root/.tmp`, fsyncs it, renames it over the key and fsyncs the directory: a reader (or a
 * crash) sees the old object or the new one, never a torn one, and a resolved put survives a
 * power cut. Writing the same key twice is harmless, which is what lets a retried job re-put.
 */
export function localObjectStore(root: string): LocalObjectStore {
  const pathOf = (key: string) => {
    if (!isValidObjectKey(key)) throw new InvalidObjectKeyError(key);
    return join(root, ...key.split('/'));
  };

  /** mkdir -p, then fsync the parent of every directory it created so the entries persist. */
  async function ensureDir(dir: string): Promise<void> {
    const first = await mkdir(dir, { recursive: true });
    if (first === undefined) return;
    for (let d = dir; ; d = dirname(d)) {
      await fsyncPath(dirname(d));
      if (d === first || dirname(d) === d) break;
    }
  }

  /** Writes a temporary file with `write`, fsyncs it and renames it over the key. */
  async function atomically(key: string, write: (handle: FileHandle) => Promise<unknown>): Promise<void> {
    const target = pathOf(key);
    await ensureDir(join(root, TMP_DIR));
    await ensureDir(dirname(target));
    const tmp = join(root, TMP_DIR, `${randomUUID()}.part`);
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await write(handle);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(tmp, { force: true });
      throw error;
    }
    await handle.close();
    await rename(tmp, target);
    await fsyncPath(dirname(target));
  }

  return {
    root,
    where: `folder ${root}`,
    async put(key, bytes) {
      await atomically(key, (handle) => handle.writeFile(bytes));
    },
    async putStream(key, chunks) {
      await atomically(key, async (handle) => {
        for await (const chunk of chunks) await handle.write(chunk);
      });
    },
    async readStream(key) {
      const path = pathOf(key);
      try {
        const handle = await open(path, 'r');
        return createReadStream(path, { fd: handle, autoClose: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
      await fsyncPath(dirname(pathOf(key))).catch(() => undefined);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
    async sweepTemporary(olderThanMs, nowMs = Date.now()) {
      const dir = join(root, TMP_DIR);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const path = join(dir, name);
        const info = await stat(path).catch(() => undefined);
        if (info && nowMs - info.mtimeMs > olderThanMs) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
