/** Progress of one drive's erase, streamed to the kiosk and the session log. */
export interface EraseProgress {
  readonly device: string;
  /** `write` while a pass writes, `verify` while reading back, `firmware` while a drive command runs. */
  readonly stage: 'prepare' | 'write' | 'verify' | 'firmware';
  /** 1-based pass number of an overwrite; 0 for firmware stages. */
  readonly pass: number;
  /** Passes the overwrite writes in all (the N of "pass n of N"), when known. */
  readonly passes?: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  /** 0-100 when known. */
  readonly percent?: number;
  readonly bytesPerSecond?: number;
}

/** Receiver of progress; must not throw. */
export type ProgressSink = (p: EraseProgress) => void;

/** Tuning of the direct-I/O pipelines. */
export interface IoTuning {
  /** Bytes per request: 4 MiB keeps per-request overhead small without starving the pipeline. */
  readonly chunkBytes: number;
  /** Requests in flight (2-4): hides the submit-to-complete gap; more only adds memory. */
  readonly inFlight: number;
  /** Minimum milliseconds between progress reports. */
  readonly progressEveryMs: number;
  /** Worker threads generating the PRNG keystream; default 2 (1 on a single core). */
  readonly keystreamWorkers?: number;
  /** A simulated machine's drive speed (ERASURE_SIMULATE_MBPS): requests wait to keep to it. Never set for a real drive. */
  readonly maxBytesPerSecond?: number;
  /**
   * A simulated machine's paused drive (`sim pause`): awaited before each write, answering how
   * long it held the write back. Never set for a real drive.
   */
  readonly hold?: (device: string, signal?: AbortSignal) => Promise<number>;
}

/** Waits until `bytes` at `bytesPerSecond` since `started` (performance.now()) would have taken: a simulated drive's speed. */
export async function paceTo(started: number, bytes: number, bytesPerSecond: number | undefined): Promise<void> {
  if (!bytesPerSecond || bytesPerSecond <= 0) return;
  const ahead = (bytes / bytesPerSecond) * 1000 - (performance.now() - started);
  if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
}

/** Defaults of the brief: 4 MiB writes, 3 in flight. */
export const DEFAULT_TUNING: IoTuning = { chunkBytes: 4 * 1024 * 1024, inFlight: 3, progressEveryMs: 250 };

/** Rate limiter for progress callbacks. */
export function throttle(sink: ProgressSink | undefined, everyMs: number): (p: EraseProgress, force?: boolean) => void {
  let last = 0;
  return (p, force = false) => {
    const now = performance.now();
    if (!sink || (!force && now - last < everyMs)) return;
    last = now;
    sink(p);
  };
}
