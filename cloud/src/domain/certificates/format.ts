import { ENGLISH, type Wording } from './i18n/wording.js';

/*
 * Value formatting shared by both documents. Every formatter takes what the record may hold
 * (including null) and returns printable text or null, which the layout prints as a dash. Those
 * that print numbers or words take the page's wording (default English, as pages always were).
 */

/** `2026-11-22T13:07:12Z` → `2026-11-22 13:07:12 UTC`; unparseable input is printed as given. */
export function formatTimestamp(iso: string | null | undefined, zone = true, w: Wording = ENGLISH): string | null {
  // `zone = false` drops the suffix where the label already says "(UTC)" and width is tight.
  return w.timestamp(iso, zone);
}

/** Elapsed time between two timestamps, e.g. `1 h 04 min 09 s`; null when either is missing. */
export function formatDuration(startIso: string | null | undefined, endIso: string | null | undefined): string | null {
  if (!startIso || !endIso) return null;
  const ms = new Date(endIso).getTime() - new Date(startIso).getTime();
  if (!Number.isFinite(ms) || ms < 0) return null;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h} h ${pad(m)} min ${pad(s % 60)} s` : `${m} min ${pad(s % 60)} s`;
}


/** Decimal gigabytes as the drive label states them, switching to TB from 1,000 GB. */
export function formatCapacityGb(gb: number | null | undefined, w: Wording = ENGLISH): string | null {
  if (gb === null || gb === undefined) return null;
  // The wire field is whole gigabytes, so a drive under 1 GB arrives as 0: say what is known.
  if (gb < 1) return '< 1 GB';
  if (gb >= 1000) return `${w.number(gb / 1000)} TB (${w.number(gb)} GB)`;
  return `${w.number(gb)} GB`;
}

/**
 * A drive's exact size the way its label states it (decimal units) with the byte count:
 * `67108864` → `67.1 MB (67,108,864 bytes)`, `512110190592` → `512.1 GB (512,110,190,592 bytes)`.
 */
export function formatDriveBytes(bytes: number | null | undefined, w: Wording = ENGLISH): string | null {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return null;
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const exact = `${w.number(bytes)} ${w.t('unit.bytes')}`;
  return unit === 0 ? exact : `${w.number(value, 1)} ${units[unit]} (${exact})`;
}

/**
 * The capacity the wire reported (whole GB) with the exact byte count when the device reported
 * one, so "< 1 GB" and the storage table's figure never disagree: `< 1 GB · 67,108,864 bytes`.
 */
export function formatCapacityWithBytes(gb: number | null | undefined, bytes: number | null | undefined, w: Wording = ENGLISH): string | null {
  const known = bytes !== null && bytes !== undefined && Number.isFinite(bytes) && bytes >= 0;
  const label = formatCapacityGb(gb ?? (known ? Math.floor(bytes / 1e9) : null), w);
  return known ? `${label} · ${w.number(bytes)} ${w.t('unit.bytes')}` : label;
}

/** Bytes as binary units, the way memory is sold: `17179869184` → `16 GiB`. */
export function formatBytes(bytes: number | null | undefined, w: Wording = ENGLISH): string | null {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return null;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${w.number(value, 1)} ${units[unit]}`;
}

export function formatYesNo(value: boolean | null | undefined, w: Wording = ENGLISH): string | null {
  if (value === null || value === undefined) return null;
  return w.t(value ? 'yes' : 'no');
}

/** `not_applicable` → `Not applicable`. */
export function titleize(value: string | null | undefined): string | null {
  if (!value) return null;
  const spaced = value.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Any scalar from an open-ended fingerprint section as text; objects and arrays as compact JSON. */
export function formatUnknown(value: unknown, w: Wording = ENGLISH): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return w.number(value);
  if (typeof value === 'boolean') return w.t(value ? 'yes' : 'no');
  return JSON.stringify(value);
}
