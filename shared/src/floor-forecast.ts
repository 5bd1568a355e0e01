/**
 * The floor view's lot forecast (issue 32), as plain arithmetic both the web page and the bench
 * use: when the last drive of a lot will be done, from what the machines measure now.
 *
 * Running drives finish at their own time left. Each waiting drive needs its bytes written and
 * read back (twice its size) at the rate measured for drives like it, and starts on the first slot
 * a running drive frees, in the order the drives wait. "Like it" is its media type (HDD or SSD,
 * known before it starts): a lot of disks and SSDs erases at two speeds, and one pooled rate makes
 * every waiting disk too fast and every waiting SSD too slow. The rate of a type is the harmonic
 * mean of every rate measured for it in the lot (running drives, and those done, `done`): a drive's
 * time goes with 1/rate, so one fast drive must not hide three slow ones. A drive whose type is not
 * known, or of a type nothing measured yet, takes the harmonic mean of all. Undefined while no
 * rate is measured.
 */
export type ForecastMedia = 'HDD' | 'SSD';

export interface ForecastDrive {
  readonly bytes_total: number;
  readonly bytes_done: number;
  readonly bytes_per_second?: number | undefined;
  readonly eta_seconds?: number | undefined;
  readonly media_type?: ForecastMedia | undefined;
}

/** A rate measured on a drive of the lot that is done. */
export interface MeasuredRate {
  readonly bytes_per_second: number;
  readonly media_type?: ForecastMedia | undefined;
}

const harmonicMean = (rates: readonly number[]) => rates.length / rates.reduce((sum, r) => sum + 1 / r, 0);

export function forecastSeconds(running: readonly ForecastDrive[], waiting: readonly ForecastDrive[], done: readonly MeasuredRate[] = []): number | undefined {
  if (running.length === 0 && waiting.length === 0) return 0;
  const measured = [...running, ...done].filter((d): d is MeasuredRate => d.bytes_per_second !== undefined && d.bytes_per_second > 0);
  if (measured.length === 0 || running.length === 0) return undefined;
  const pooled = harmonicMean(measured.map((d) => d.bytes_per_second));
  const byMedia = new Map<ForecastMedia, number>();
  for (const media of ['HDD', 'SSD'] as const) {
    const rates = measured.filter((d) => d.media_type === media).map((d) => d.bytes_per_second);
    if (rates.length > 0) byMedia.set(media, harmonicMean(rates));
  }
  const rateOf = (d: ForecastDrive) => (d.media_type && byMedia.get(d.media_type)) || pooled;
  const slots = running.map((d) => d.eta_seconds ?? (2 * d.bytes_total - d.bytes_done) / rateOf(d));
  for (const d of waiting) {
    const first = slots.indexOf(Math.min(...slots));
    slots[first] = slots[first]! + (2 * d.bytes_total) / rateOf(d);
  }
  return Math.max(...slots);
}
