import { PUBLIC_API_ERRORS, PUBLIC_API_PAGE_SIZE } from '@erasure/shared';

export type QueryParse<T> = { ok: true; value: T } | { ok: false; status: 404 | 422; error: string };

// Calendar date, optionally a time (minutes, seconds, fraction), optionally a zone.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * `since` as the ISO text `updated_at` is stored in (UTC, milliseconds), so the comparison is a
 * plain index range. A time without a zone, or a bare date, is read as UTC. Impossible dates
 * (2026-02-30, 25:00) are refused rather than rolled over.
 */
export function parseSince(value: string | undefined): QueryParse<string | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const m = ISO_8601.exec(value.trim());
  if (!m) return { ok: false, status: 422, error: PUBLIC_API_ERRORS.invalidSince };
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const month = Number(mo);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return { ok: false, status: 422, error: PUBLIC_API_ERRORS.invalidSince };
  }
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const millis = frac.padEnd(3, '0').slice(0, 3);
  const parsed = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${millis}${offset}`);
  if (Number.isNaN(parsed.getTime())) return { ok: false, status: 422, error: PUBLIC_API_ERRORS.invalidSince };
  // Sub-millisecond digits cannot matter against millisecond timestamps except to round up:
  // "at or after 12:00:00.0005" must not include a row stamped 12:00:00.000.
  if (/[1-9]/.test(frac.slice(3))) parsed.setTime(parsed.getTime() + 1);
  return { ok: true, value: parsed.toISOString() };
}

/** `page`: 1-based, default 1. */
export function parsePage(value: string | undefined): QueryParse<number> {
  if (value === undefined || value === '') return { ok: true, value: 1 };
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) return { ok: false, status: 422, error: PUBLIC_API_ERRORS.invalidPage };
  return { ok: true, value: Number(value) };
}

/**
 * The optional `account_id` cross-check: `acct_…` or the numeric id of the key's own account
 * passes; anything else is 404 Account not found, never a wider or different scope.
 */
export function checkAccountFilter(
  value: string | undefined,
  account: { publicId: string; numericId: number },
): QueryParse<true> {
  if (value === undefined || value === account.publicId || value === String(account.numericId)) return { ok: true, value: true };
  return { ok: false, status: 404, error: PUBLIC_API_ERRORS.accountNotFound };
}

/** The pagination envelope of spec 2: at least one page, even when nothing matches. */
export function pageEnvelope(page: number, count: number, pageSize = PUBLIC_API_PAGE_SIZE) {
  return { page, pages: Math.max(1, Math.ceil(count / pageSize)), count };
}
