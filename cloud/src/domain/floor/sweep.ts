/**
 * How often rows of machines last heard over a day ago are removed: at most once per `everyMs`
 * of the clock, on the report that comes due, for every account at once. Reports are the hot path
 * (1,000 drives every 5 s), so most of them pay no DELETE; the board never shows such rows anyway
 * (it reads only rows heard within the day), so the sweep is housekeeping, not correctness.
 */
export interface SweepPacer {
  /** True once per period: the caller sweeps now. */
  due(nowMs: number): boolean;
}

export const FLOOR_SWEEP_EVERY_MS = 10 * 60 * 1000;

export function sweepPacer(everyMs = FLOOR_SWEEP_EVERY_MS): SweepPacer {
  let last = -Infinity;
  return {
    due(nowMs) {
      if (nowMs - last < everyMs) return false;
      last = nowMs;
      return true;
    },
  };
}
