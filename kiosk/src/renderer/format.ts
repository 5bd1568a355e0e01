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

/** "about 40 s", "about 3 min", "about 1.5 h" from minutes (fractions from a seconds-based estimate). */
export function formatMinutes(minutes: number | undefined): string {
  if (minutes === undefined || !Number.isFinite(minutes) || minutes < 0) return 'unknown';
  if (minutes < 1) return `about ${Math.max(1, Math.round(minutes * 60))} s`;
  if (minutes < 90) return `about ${Math.round(minutes)} min`;
  return `about ${(minutes / 60).toFixed(1)} h`;
}

/**
 * Memory in binary units, as firmware and operating systems report it and as the web
 * application shows it: 16 GiB. (Drive sizes stay decimal, as drive labels are printed.)
 */
export function formatMemory(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'unknown';
  const gib = bytes / 1024 ** 3;
  return gib >= 1 ? `${Math.round(gib * 10) / 10} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

/**
 * The boot record id as the kiosk labels it. The wire value (`CW-YYYYMMDD-HHMMSS`, spec 2) looks
 * like a certificate number (`CW-000001`), so the screens show when this session started instead:
 * "Session of 26 Nov 2026, 06:12 UTC". An id in another form is shown as it is.
 */
export function sessionLabel(recordId: string): string {
  const m = /^CW-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})\d{2}$/.exec(recordId);
  if (!m) return `Session ${recordId}`;
  const [, y, mo, d, h, mi] = m;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(mo) - 1] ?? mo;
  return `Session of ${Number(d)} ${month} ${y}, ${h}:${mi} UTC`;
}

/** "10:42" in the kiosk's local time, from an ISO 8601 instant. */
export function formatClock(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? undefined : `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
}
