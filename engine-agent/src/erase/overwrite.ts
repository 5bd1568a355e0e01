import { blockdev } from '../adapters/blockdev.js';
import { settle, type Medium } from './medium.js';
import { fillPattern, type Pattern } from './pattern.js';
import { DEFAULT_TUNING, throttle, type IoTuning, type ProgressSink } from './progress.js';

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
}

/**
 * Writes `pattern` over every byte of the medium with O_DIRECT writes from sector-aligned
 * buffers, `inFlight` requests at a time, then fdatasync. A zero pass shares one buffer among
 * all requests (it is only read); a PRNG pass fills one buffer per slot while the others write.
 */
export async function writePass(medium: Medium, pattern: Pattern, options: PassOptions = {}): Promise<PassStats> {
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const chunk = Math.max(medium.alignment, tuning.chunkBytes - (tuning.chunkBytes % medium.alignment));
  const slots = Math.max(1, tuning.inFlight);
  const addon = blockdev();
  const zero = pattern.kind === 'zero';
  const buffers = Array.from({ length: zero ? 1 : slots }, () => addon.alignedBuffer(chunk, Math.max(medium.alignment, 4096)));
  const report = throttle(options.onProgress, tuning.progressEveryMs);
  const pass = options.pass ?? 1;
  const started = performance.now();
  const pending: Array<Promise<void>> = [];
  let done = 0;
  let slot = 0;
  for (let offset = 0; offset < medium.sizeBytes; offset += chunk) {
    options.signal?.throwIfAborted();
    // FIFO: wait for the oldest request before reusing its buffer slot.
    if (pending.length >= slots) await pending.shift();
    const length = Math.min(chunk, medium.sizeBytes - offset);
    const buffer = buffers[zero ? 0 : slot] as Buffer;
    slot = (slot + 1) % slots;
    if (!zero) fillPattern(pattern, offset, buffer.subarray(0, length));
    const at = offset;
    pending.push(
      medium.handle.write(buffer, 0, length, at).then(({ bytesWritten }) => {
        if (bytesWritten !== length) throw new ShortWriteError(at, length, bytesWritten);
        done += length;
        report({ device: medium.path, stage: 'write', pass, bytesDone: done, bytesTotal: medium.sizeBytes });
      }),
    );
    // An early failure must not wait for the whole device: surface it on the next turn.
    pending.at(-1)?.catch(() => undefined);
  }
  await Promise.all(pending);
  await settle(medium);
  const ms = performance.now() - started;
  report({ device: medium.path, stage: 'write', pass, bytesDone: done, bytesTotal: medium.sizeBytes, percent: 100, bytesPerSecond: done / (ms / 1000) }, true);
  return { bytes: done, ms };
}
