import { createHash } from 'node:crypto';
import { blockdev } from '../adapters/blockdev.js';
import { settle, type Medium } from './medium.js';
import { fillPattern, type Pattern } from './pattern.js';
import { DEFAULT_TUNING, throttle, type IoTuning, type ProgressSink } from './progress.js';

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
}

/**
 * Full verification (NIST SP 800-88 4.7): reads every user-addressable byte back with O_DIRECT
 * after fdatasync + BLKFLSBUF, so the page cache cannot answer for the medium, compares it with
 * the regenerated pattern and hashes the bytes actually read. Reads are pipelined like writes;
 * hashing and comparing happen in offset order on the main thread while later reads run.
 */
export async function verifyPass(medium: Medium, pattern: Pattern, options: VerifyOptions = {}): Promise<VerifyStats> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const chunk = Math.max(medium.alignment, tuning.chunkBytes - (tuning.chunkBytes % medium.alignment));
  const slots = Math.max(1, tuning.inFlight);
  const addon = blockdev();
  const align = Math.max(medium.alignment, 4096);
  const buffers = Array.from({ length: slots }, () => addon.alignedBuffer(chunk, align));
  const expected = Buffer.alloc(chunk); // stays zero for the zero pattern
  await settle(medium);
  const report = throttle(options.onProgress, tuning.progressEveryMs);
  const hash = createHash('sha256');
  const started = performance.now();
  const reads: Array<{ offset: number; length: number; buffer: Buffer; read: Promise<number> }> = [];
  let mismatchedChunks = 0;
  let firstMismatchOffset: number | undefined;
  let done = 0;
  const consume = async () => {
    const head = reads.shift();
    if (!head) return;
    const got = await head.read;
    if (got !== head.length) throw new Error(`short read at byte ${head.offset}: ${got} of ${head.length} bytes`);
    const bytes = head.buffer.subarray(0, head.length);
    hash.update(bytes);
    if (pattern.kind === 'prng') fillPattern(pattern, head.offset, expected.subarray(0, head.length));
    if (!bytes.equals(expected.subarray(0, head.length))) {
      mismatchedChunks += 1;
      firstMismatchOffset ??= head.offset;
    }
    done += head.length;
    report({ device: medium.path, stage: 'verify', pass: 0, bytesDone: done, bytesTotal: medium.sizeBytes });
  };
  let slot = 0;
  for (let offset = 0; offset < medium.sizeBytes; offset += chunk) {
    options.signal?.throwIfAborted();
    if (reads.length >= slots) await consume();
    const length = Math.min(chunk, medium.sizeBytes - offset);
    const buffer = buffers[slot] as Buffer;
    slot = (slot + 1) % slots;
    const read = medium.handle.read(buffer, 0, length, offset).then((r) => r.bytesRead);
    read.catch(() => undefined); // surfaced by consume(), in order
    reads.push({ offset, length, buffer, read });
  }
  while (reads.length > 0) await consume();
  const ms = performance.now() - started;
  report({ device: medium.path, stage: 'verify', pass: 0, bytesDone: done, bytesTotal: medium.sizeBytes, percent: 100, bytesPerSecond: done / (ms / 1000) }, true);
  return {
    matches: mismatchedChunks === 0 && done === medium.sizeBytes,
    sha256: hash.digest('hex'),
    bytes: done,
    mismatchedChunks,
    ...(firstMismatchOffset !== undefined ? { firstMismatchOffset } : {}),
    ms,
    fromMedium: medium.direct,
  };
}
