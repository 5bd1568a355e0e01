import { existsSync } from 'node:fs';

/**
 * A simulated drive that stops moving, for a QA engineer or a test to bring about what a real
 * drive does when it hangs (the floor view's stall, issue 32): while a marker file sits beside
 * the drive's backing file (`erasure-agent sim pause BAY` writes it, `sim resume BAY` removes it),
 * the simulated machine's writes to that drive wait. Only a simulated machine's erase asks this
 * (its tuning's `hold`); a real drive never has one.
 */
export const pauseMarker = (device: string) => `${device}.paused`;

/**
 * Waits while `device` is paused, checking every `pollMs`; answers how long it waited, so the
 * simulated drive's pacing does not count the pause as time it could have written in. A cancel
 * or a pull-out (`signal`) ends the wait at once.
 */
export async function holdWhilePaused(device: string, signal?: AbortSignal, pollMs = 100): Promise<number> {
  const started = performance.now();
  while (existsSync(pauseMarker(device))) {
    signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return performance.now() - started;
}
