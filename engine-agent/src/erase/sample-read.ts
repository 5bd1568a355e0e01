import { createHash, randomInt } from 'node:crypto';
import { blockdev } from '../adapters/blockdev.js';
import { settle, type Medium } from './medium.js';
import { DEFAULT_TUNING, throttle, type IoTuning, type ProgressSink } from './progress.js';

/**
 * Which blocks a read-back reads. The drive is cut into blocks (up to 1 MiB; smaller on a small
 * drive so there are at least 2 000 of them) and into 100 subsections; N % of the blocks (rounded
 * up) are shared out evenly among the subsections, each getting at least two, picked at random
 * inside it (NIST SP 800-88 Rev. 1 §4.7 "representative sampling"; the two-per-subsection floor is
 * what Blancco and WIPERAPP implement). 100 % is every block.
 */
export interface SamplePlan {
  readonly blockBytes: number;
  /** Blocks of the whole drive (the last may be shorter). */
  readonly blocks: number;
  /** Block indices to read, ascending (one forward sweep: no back-and-forth seeks on a disk). */
  readonly picks: readonly number[];
  readonly percent: number;
}

const MIB = 1024 * 1024;

/** The block size of a drive's read-back: a power of two from the alignment (4 KiB at least) to 1 MiB. */
export function sampleBlockBytes(sizeBytes: number, alignment: number): number {
  let block = MIB;
  // 2 000 blocks: 10 % is then two per subsection without the floor adding any, while a block
  // stays large enough that a read's fixed cost does not dominate on a small drive.
  while (block > Math.max(4096, alignment) && sizeBytes / block < 2_000) block /= 2;
  return block;
}

/** Picks the blocks of an N % read-back (`pick(n)` returns an integer in [0, n); tests pass their own). */
export function planSample(sizeBytes: number, alignment: number, percent: number, pick: (n: number) => number = randomInt): SamplePlan {
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new RangeError(`sample percent must be 1..100, got ${percent}`);
  const blockBytes = sampleBlockBytes(sizeBytes, alignment);
  const blocks = Math.ceil(sizeBytes / blockBytes);
  const picks: number[] = [];
  const total = Math.ceil((blocks * percent) / 100);
  for (let s = 0; s < 100; s++) {
    const from = Math.floor((s * blocks) / 100);
    const to = Math.floor(((s + 1) * blocks) / 100);
    const length = to - from;
    const share = Math.floor((total * (s + 1)) / 100) - Math.floor((total * s) / 100);
    const count = Math.min(length, Math.max(2, share));
    // Partial Fisher-Yates over the subsection's indices: `count` distinct blocks.
    const pool = Array.from({ length }, (_, i) => from + i);
    for (let i = 0; i < count; i++) {
      const j = i + pick(length - i);
      [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
    }
    picks.push(...pool.slice(0, count).sort((a, b) => a - b));
  }
  return { blockBytes, blocks, picks, percent };
}

/** What a read-back found. */
export interface SampleReadStats {
  readonly blocksRead: number;
  readonly bytesRead: number;
  /** Blocks the check refused. */
  readonly bad: number;
  readonly firstBadOffset?: number;
  /** SHA-256 over the bytes read, in offset order. */
  readonly sha256: string;
  readonly ms: number;
}

/** Options of a read-back. */
export interface SampleReadOptions {
  readonly tuning?: Partial<IoTuning>;
  readonly onProgress?: ProgressSink;
  readonly signal?: AbortSignal;
}

/**
 * Reads the plan's blocks with O_DIRECT after fdatasync + BLKFLSBUF (the medium answers, not the
 * page cache), `inFlight` at a time, and hands each to `check` in offset order.
 */
export async function readSample(medium: Medium, plan: SamplePlan, check: (block: Buffer, offset: number) => boolean, options: SampleReadOptions = {}): Promise<SampleReadStats> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  // Scattered reads are short and independent: a deeper queue keeps the device busy (on a disk
  // it lets the elevator order them; on flash and loop devices it overlaps their latency).
  const inFlight = Math.max(1, tuning.inFlight * 4);
  const align = Math.max(medium.alignment, 4096);
  // Several picked blocks in a row are read as one request of up to a chunk: a 100 % read-back
  // (and a dense sample) streams instead of issuing one small read per block.
  const runs: Array<{ offset: number; length: number }> = [];
  const most = Math.max(plan.blockBytes, tuning.chunkBytes - (tuning.chunkBytes % plan.blockBytes));
  for (const index of plan.picks) {
    const offset = index * plan.blockBytes;
    const length = Math.min(plan.blockBytes, medium.sizeBytes - offset);
    if (length <= 0) continue;
    const last = runs.at(-1);
    if (last && last.offset + last.length === offset && last.length + length <= most) last.length += length;
    else runs.push({ offset, length });
  }
  const buffers = Array.from({ length: inFlight }, () => blockdev().alignedBuffer(most, align));
  await settle(medium);
  const report = throttle(options.onProgress, tuning.progressEveryMs);
  const total = runs.reduce((n, r) => n + r.length, 0);
  const hash = createHash('sha256');
  const started = performance.now();
  const pending: Array<{ run: { offset: number; length: number }; buffer: Buffer; read: Promise<number> }> = [];
  let bad = 0;
  let blocksRead = 0;
  let bytesRead = 0;
  let firstBadOffset: number | undefined;
  const consume = async () => {
    const head = pending.shift();
    if (!head) return;
    const got = await head.read;
    if (got !== head.run.length) throw new Error(`short read at byte ${head.run.offset}: ${got} of ${head.run.length} bytes`);
    hash.update(head.buffer.subarray(0, got));
    for (let at = 0; at < got; at += plan.blockBytes) {
      const block = head.buffer.subarray(at, Math.min(got, at + plan.blockBytes));
      blocksRead += 1;
      if (!check(block, head.run.offset + at)) {
        bad += 1;
        firstBadOffset ??= head.run.offset + at;
      }
    }
    bytesRead += got;
    report({ device: medium.path, stage: 'verify', pass: 0, bytesDone: bytesRead, bytesTotal: total });
  };
  try {
    for (const [i, run] of runs.entries()) {
      options.signal?.throwIfAborted();
      if (pending.length >= inFlight) await consume();
      const buffer = buffers[i % inFlight] as Buffer;
      const read = medium.handle.read(buffer, 0, run.length, run.offset).then((r) => r.bytesRead);
      read.catch(() => undefined); // surfaced by consume(), in order
      pending.push({ run, buffer, read });
    }
    while (pending.length > 0) await consume();
  } finally {
    await Promise.allSettled(pending.map((p) => p.read));
  }
  const ms = performance.now() - started;
  report({ device: medium.path, stage: 'verify', pass: 0, bytesDone: bytesRead, bytesTotal: total, percent: 100, bytesPerSecond: bytesRead / (ms / 1000) }, true);
  return { blocksRead, bytesRead, bad, ...(firstBadOffset !== undefined ? { firstBadOffset } : {}), sha256: hash.digest('hex'), ms };
}
