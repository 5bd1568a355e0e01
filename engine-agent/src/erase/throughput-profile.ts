import type { ThroughputProfile } from '@erasure/shared';

/** Regions the drive is cut into for its speed profile: enough to show a slow zone, small enough for a chart. */
export const PROFILE_REGIONS = 100;

/** Receives a pass's profile once the pass ends, written through or failed. */
export type ProfileSink = (profile: ThroughputProfile) => void;

/**
 * Records an overwrite pass's rate region by region as its writes complete. A region is a whole
 * number of write requests, so each completion adds to one region; the region's time runs from
 * the previous region's last completion to its own (writes go out in LBA order, FIFO). The cost
 * per 4 MiB request is one clock read and a few additions (see bench/health-profile.js).
 */
export class ProfileRecorder {
  readonly regionBytes: number;
  private readonly bytes: Float64Array;
  private readonly ends: Float64Array;
  private errors = 0;

  constructor(
    readonly sizeBytes: number,
    chunkBytes: number,
    private readonly startedMs: number,
    regions = PROFILE_REGIONS,
  ) {
    const chunks = Math.max(1, Math.ceil(sizeBytes / chunkBytes));
    this.regionBytes = Math.ceil(chunks / regions) * chunkBytes;
    const count = Math.max(1, Math.ceil(sizeBytes / this.regionBytes));
    this.bytes = new Float64Array(count);
    this.ends = new Float64Array(count);
  }

  /** A request at `offset` completed with `length` bytes at `nowMs` (performance.now()). */
  wrote(offset: number, length: number, nowMs: number): void {
    const region = Math.floor(offset / this.regionBytes);
    this.bytes[region] = (this.bytes[region] ?? 0) + length;
    if (nowMs > (this.ends[region] ?? 0)) this.ends[region] = nowMs;
  }

  /** A request failed (an error or a short write). */
  failed(): void {
    this.errors += 1;
  }

  result(): ThroughputProfile {
    const mbps: (number | null)[] = [];
    let from = this.startedMs;
    for (let i = 0; i < this.bytes.length; i++) {
      const bytes = this.bytes[i] ?? 0;
      const end = this.ends[i] ?? 0;
      if (bytes === 0 || end === 0) {
        mbps.push(null);
        continue;
      }
      // Two regions finishing in the same clock tick: the second had no time of its own to measure.
      const ms = Math.max(end - from, 0.001);
      mbps.push(Math.round((bytes / 1e6 / (ms / 1000)) * 10) / 10);
      from = end;
    }
    return { regionBytes: this.regionBytes, mbps, ioErrors: this.errors, retries: 0 };
  }
}
