/** Display formatting shared by the screens; pure, so the tests pin the words a technician reads. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Decimal units, as drive labels are printed (a "512 GB" SSD). */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n) || n < 0) return 'unknown size';
  let v = n;
  let i = 0;
  while (v >= 1000 && i < UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${UNITS[i]}`;
}

export function formatRate(bytesPerSecond: number | undefined): string {
  return bytesPerSecond === undefined || bytesPerSecond <= 0 ? '–' : `${formatBytes(bytesPerSecond)}/s`;
}

/** "45 s", "3 min 05 s", "2 h 07 min". */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** "about 3 min" from whole minutes. */
export function formatMinutes(minutes: number | undefined): string {
  if (minutes === undefined) return 'unknown';
  if (minutes < 1) return 'under a minute';
  if (minutes < 90) return `about ${Math.round(minutes)} min`;
  return `about ${(minutes / 60).toFixed(1)} h`;
}
