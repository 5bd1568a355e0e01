import { blockdev } from '../adapters/blockdev.js';
import { settle, type Medium } from './medium.js';
import { defaultKeystreamWorkers, KeystreamPool, sharedSlots } from './keystream-pool.js';
import { fixedBuffers, type Pattern } from './pattern.js';
import { DEFAULT_TUNING, paceTo, throttle, type IoTuning, type ProgressSink } from './progress.js';
import { ProfileRecorder, type ProfileSink } from './throughput-profile.js';

/** A write returned fewer bytes than asked: the medium ended early or failed. */
export class ShortWriteError extends Error {
  constructor(
    readonly offset: number,
    readonly expected: number,
    readonly written: number,
  ) {
    super(`short write at byte ${offset}: ${written} of ${expected} bytes`);
    this.name = 'ShortWriteError';
  }
}

/** Outcome of one pass. */
export interface PassStats {
  readonly bytes: number;
  readonly ms: number;
}

/** Options of one pass. */
export interface PassOptions {
  readonly pass?: number;
  readonly tuning?: Partial<IoTuning>;
  readonly onProgress?: ProgressSink;
  readonly signal?: AbortSignal;
  /** Receives the pass's speed profile and write errors when the pass ends (the health grade's evidence); absent: not recorded. */
  readonly onProfile?: ProfileSink;
}

/**
 * Writes `pattern` over every byte of the medium with O_DIRECT writes from sector-aligned
 * buffers, `inFlight` requests at a time, then fdatasync. A fixed-pattern pass shares one buffer
 * (one per phase of a multi-byte run) among all requests (it is only read). A PRNG pass has worker threads generate the keystream into
 * shared slots ahead of the writes, so generation runs on other cores while the main thread
 * keeps the device busy.
 */
export async function writePass(medium: Medium, pattern: Pattern, options: PassOptions = {}): Promise<PassStats> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const chunk = Math.max(medium.alignment, tuning.chunkBytes - (tuning.chunkBytes % medium.alignment));
  const inFlight = Math.max(1, tuning.inFlight);
  const align = Math.max(medium.alignment, 4096);
  const workers = pattern.kind === 'prng' ? (tuning.keystreamWorkers ?? defaultKeystreamWorkers()) : 0;
  // PRNG: one slot per write in flight plus one per worker, so every worker can fill ahead.
  const slots = pattern.kind === 'prng' ? sharedSlots(inFlight + workers, chunk, align) : undefined;
  const pool = pattern.kind === 'prng' && slots ? new KeystreamPool(pattern.seed, slots, workers) : undefined;
  // Fixed patterns share one read-only buffer per phase of their run among all requests.
  const fixed = pattern.kind === 'prng' ? undefined : fixedBuffers(pattern, chunk, (size) => blockdev().alignedBuffer(size, align));
  const depth = slots ? slots.buffers.length : inFlight;
  const report = throttle(options.onProgress, tuning.progressEveryMs);
  const pass = options.pass ?? 1;
  const started = performance.now();
  const profile = options.onProfile ? new ProfileRecorder(medium.sizeBytes, chunk, started) : undefined;
  const pending: Array<Promise<void>> = [];
  let done = 0;
  let slot = 0;
  // A simulated drive's pace counts from here, less the time it was held paused.
  let pacedFrom = started;
  try {
    for (let offset = 0; offset < medium.sizeBytes; offset += chunk) {
      options.signal?.throwIfAborted();
      if (tuning.hold) pacedFrom += await tuning.hold(medium.path, options.signal);
      await paceTo(pacedFrom, Math.min(offset + chunk, medium.sizeBytes), tuning.maxBytesPerSecond);
      options.signal?.throwIfAborted();
      // FIFO: wait for the oldest chunk before reusing its buffer slot.
      if (pending.length >= depth) await pending.shift();
      const length = Math.min(chunk, medium.sizeBytes - offset);
      const index = slot;
      slot = (slot + 1) % depth;
      const buffer = (slots ? slots.buffers[index] : fixed?.(offset)) as Buffer;
      const at = offset;
      const ready = pool ? pool.fill(index, at, length) : Promise.resolve();
      pending.push(
        ready
          .then(() => medium.handle.write(buffer, 0, length, at))
          .then(({ bytesWritten }) => {
            if (bytesWritten !== length) throw new ShortWriteError(at, length, bytesWritten);
            profile?.wrote(at, length, performance.now());
            done += length;
            report({ device: medium.path, stage: 'write', pass, bytesDone: done, bytesTotal: medium.sizeBytes });
          }),
      );
      // An early failure must not wait for the whole device: surface it on the next turn.
      pending.at(-1)?.catch(() => profile?.failed());
    }
    await Promise.all(pending);
  } finally {
    // Settle every request before the slots go away, even when one failed.
    await Promise.allSettled(pending);
    await pool?.close();
    if (profile) options.onProfile?.(profile.result());
  }
  await settle(medium);
  const ms = performance.now() - started;
  report({ device: medium.path, stage: 'write', pass, bytesDone: done, bytesTotal: medium.sizeBytes, percent: 100, bytesPerSecond: done / (ms / 1000) }, true);
  return { bytes: done, ms };
}
