import { settle, type Medium } from './medium.js';
import { HashWorker } from './hash-worker.js';
import { defaultKeystreamWorkers, KeystreamPool, sharedSlots } from './keystream-pool.js';
import { fixedBuffers, type Pattern } from './pattern.js';
import { DEFAULT_TUNING, paceTo, throttle, type IoTuning, type ProgressSink } from './progress.js';

/** Result of reading the whole medium back. */
export interface VerifyStats {
  /** Every byte read back equals the pattern. */
  readonly matches: boolean;
  /** SHA-256 (hex) over the bytes as re-read from the medium: the wipe result's `verification_hash`. */
  readonly sha256: string;
  readonly bytes: number;
  /** Chunks holding at least one byte that differs from the pattern. */
  readonly mismatchedChunks: number;
  readonly firstMismatchOffset?: number;
  readonly ms: number;
  /** True when the reads bypassed the page cache (O_DIRECT). */
  readonly fromMedium: boolean;
}

/** Options of a verification. */
export interface VerifyOptions {
  readonly tuning?: Partial<IoTuning>;
  readonly onProgress?: ProgressSink;
  readonly signal?: AbortSignal;
  /** Test seam: sees the hash worker once it runs (to make it fail mid-verification). */
  readonly onHashWorker?: (worker: HashWorker) => void;
}

/**
 * Full verification (NIST SP 800-88 4.7): reads every user-addressable byte back with O_DIRECT
 * after fdatasync + BLKFLSBUF, so the page cache cannot answer for the medium, compares it with
 * the pattern and hashes the bytes actually read. Reads are pipelined like writes. SHA-256 is
 * one sequential stream: a dedicated worker thread hashes it, fed each chunk in offset order as
 * soon as its read is in, while the main thread keeps reads in flight and compares (zeros), or
 * keystream workers compare (PRNG) on other cores. A slot is reused only once its chunk is both
 * compared and hashed.
 */
export async function verifyPass(medium: Medium, pattern: Pattern, options: VerifyOptions = {}): Promise<VerifyStats> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const chunk = Math.max(medium.alignment, tuning.chunkBytes - (tuning.chunkBytes % medium.alignment));
  const inFlight = Math.max(1, tuning.inFlight);
  const workers = pattern.kind === 'prng' ? (tuning.keystreamWorkers ?? defaultKeystreamWorkers()) : 0;
  // One slot per read in flight, two queued at or being hashed, and one per worker comparing.
  const depth = inFlight + 2 + workers;
  const slots = sharedSlots(depth, chunk, Math.max(medium.alignment, 4096));
  const pool = pattern.kind === 'prng' ? new KeystreamPool(pattern.seed, slots, workers) : undefined;
  const expected = pattern.kind === 'prng' ? undefined : fixedBuffers(pattern, chunk, (size) => Buffer.alloc(size));
  await settle(medium);
  const report = throttle(options.onProgress, tuning.progressEveryMs);
  const hasher = new HashWorker(slots);
  options.onHashWorker?.(hasher);
  const started = performance.now();
  const reads: Array<{ offset: number; length: number; read: Promise<number>; hashed: Promise<void>; same: Promise<boolean> }> = [];
  // The hash stream must see chunks in offset order, but reads may complete out of order: each
  // chunk is posted once its read is in and the chunk before it was posted. Chaining on "posted",
  // not "hashed", keeps the hash thread's queue full instead of idle for a message round trip.
  let lastPosted: Promise<unknown> = Promise.resolve();
  let mismatchedChunks = 0;
  let firstMismatchOffset: number | undefined;
  let done = 0;
  const consume = async () => {
    const head = reads.shift();
    if (!head) return;
    const got = await head.read;
    if (got !== head.length) throw new Error(`short read at byte ${head.offset}: ${got} of ${head.length} bytes`);
    await head.hashed;
    if (!(await head.same)) {
      mismatchedChunks += 1;
      firstMismatchOffset ??= head.offset;
    }
    done += head.length;
    report({ device: medium.path, stage: 'verify', pass: 0, bytesDone: done, bytesTotal: medium.sizeBytes });
  };
  let slot = 0;
  let sha256 = '';
  try {
    for (let offset = 0; offset < medium.sizeBytes; offset += chunk) {
      options.signal?.throwIfAborted();
      await paceTo(started, Math.min(offset + chunk, medium.sizeBytes), tuning.maxBytesPerSecond);
      options.signal?.throwIfAborted();
      if (reads.length >= depth) await consume();
      const length = Math.min(chunk, medium.sizeBytes - offset);
      const index = slot;
      slot = (slot + 1) % depth;
      const buffer = slots.buffers[index] as Buffer;
      const at = offset;
      const read = medium.handle.read(buffer, 0, length, at).then((r) => r.bytesRead);
      // The comparison starts as soon as the bytes are in, while earlier chunks are still hashed.
      const same = read.then((n) =>
        n !== length ? false : pool ? pool.matches(index, at, length) : buffer.subarray(0, length).equals((expected?.(at) as Buffer).subarray(0, length)),
      );
      read.catch(() => undefined); // surfaced by consume(), in order
      same.catch(() => undefined);
      // Wrapped in an object so the posted step resolves before the hashing finishes.
      const posted = lastPosted.then(() => read).then((n) => ({ done: n === length ? hasher.update(index, length) : Promise.resolve() }));
      const hashed = posted.then((p) => p.done);
      hashed.catch(() => undefined);
      lastPosted = posted;
      reads.push({ offset, length, read, hashed, same });
    }
    while (reads.length > 0) await consume();
    sha256 = await hasher.digest();
  } finally {
    await Promise.allSettled(reads.flatMap((r) => [r.read, r.hashed, r.same]));
    await Promise.all([pool?.close(), hasher.close()]);
  }
  const ms = performance.now() - started;
  report({ device: medium.path, stage: 'verify', pass: 0, bytesDone: done, bytesTotal: medium.sizeBytes, percent: 100, bytesPerSecond: done / (ms / 1000) }, true);
  return {
    matches: mismatchedChunks === 0 && done === medium.sizeBytes,
    sha256,
    bytes: done,
    mismatchedChunks,
    ...(firstMismatchOffset !== undefined ? { firstMismatchOffset } : {}),
    ms,
    fromMedium: medium.direct,
  };
}
