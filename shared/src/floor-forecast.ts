/**
 * The floor view's lot forecast (issue 32), as plain arithmetic both the web page and the bench
 * use: when the last drive of a lot will be done, from what the machines measure now.
 *
 * Running drives finish at their own time left. Each waiting drive needs its bytes written and
 * read back (twice its size) at the lot's measured rate per drive, and starts on the first slot a
 * running drive frees, in the order the drives wait. The rate is the harmonic mean of every rate
 * measured in the lot (running drives, and those done, `doneRates`): a drive's time goes with
 * 1/rate, so one fast SSD must not hide three slow disks. Undefined while no rate is measured.
 */
export interface ForecastDrive {
  readonly bytes_total: number;
  readonly bytes_done: number;
  readonly bytes_per_second?: number | undefined;
  readonly eta_seconds?: number | undefined;
}

export function forecastSeconds(running: readonly ForecastDrive[], waiting: readonly ForecastDrive[], doneRates: readonly number[] = []): number | undefined {
  if (running.length === 0 && waiting.length === 0) return 0;
  const rates = [...running.map((d) => d.bytes_per_second), ...doneRates].filter((r): r is number => r !== undefined && r > 0);
  if (rates.length === 0 || running.length === 0) return undefined;
  const rate = rates.length / rates.reduce((sum, r) => sum + 1 / r, 0);
  const slots = running.map((d) => d.eta_seconds ?? (2 * d.bytes_total - d.bytes_done) / rate);
  for (const d of waiting) {
    const first = slots.indexOf(Math.min(...slots));
    slots[first] = slots[first]! + (2 * d.bytes_total) / rate;
  }
  return Math.max(...slots);
}
