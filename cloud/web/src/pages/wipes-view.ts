import { formatCapacityGb } from '../format.js';
import type { WipeView } from '../types.js';

/** The grid's view state, all of it in the URL query (spec 4.5: search, filter, sort client-side). */
export interface WipesViewState {
  q: string;
  status: string;
  media: string;
  source: string;
  /** Completed on or after this day (`YYYY-MM-DD`, the viewer's time zone), or ''. */
  from: string;
  /** Completed on or before this day (`YYYY-MM-DD`, the viewer's time zone), or ''. */
  to: string;
  /** Exact customer / lot reference (issue 23); empty: any. */
  customer: string;
  lot: string;
  sort: SortKey;
}

/** `phrase` is how the grid's header names the order ("4 of 8 drive wipes · sorted by duration"). */
export const SORTS = [
  { key: 'completed_desc', label: 'Completed (newest first)', phrase: 'newest first' },
  { key: 'completed_asc', label: 'Completed (oldest first)', phrase: 'oldest first' },
  { key: 'model_asc', label: 'Model A–Z', phrase: 'sorted by model A–Z' },
  { key: 'model_desc', label: 'Model Z–A', phrase: 'sorted by model Z–A' },
  { key: 'capacity_desc', label: 'Capacity (high to low)', phrase: 'sorted by capacity' },
  { key: 'duration_desc', label: 'Duration (long to short)', phrase: 'sorted by duration' },
  { key: 'status_asc', label: 'Status A–Z', phrase: 'sorted by status' },
] as const;
export type SortKey = (typeof SORTS)[number]['key'];

export const DEFAULT_SORT: SortKey = 'completed_desc';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A `YYYY-MM-DD` from the URL, or '' for anything else (a mistyped link filters nothing). */
const dayOf = (value: string | null) => (value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '');

export function readViewState(params: URLSearchParams): WipesViewState {
  const sort = params.get('sort') ?? DEFAULT_SORT;
  return {
    q: params.get('q') ?? '',
    status: params.get('status') ?? '',
    media: params.get('media') ?? '',
    source: params.get('source') ?? '',
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
    customer: params.get('customer') ?? '',
    lot: params.get('lot') ?? '',
    sort: SORTS.some((s) => s.key === sort) ? (sort as SortKey) : DEFAULT_SORT,
  };
}

/** Whether any filter (not the sort) narrows the rows. */
export const filtersActive = (state: WipesViewState) =>
  state.q !== '' || state.status !== '' || state.media !== '' || state.source !== '' || state.from !== '' || state.to !== '' || state.customer !== '' || state.lot !== '';

/**
 * The grid's header line, following the filters: "8 drive wipes · newest first", filtered
 * "4 of 8 drive wipes · sorted by duration". Filters work on the page in view, so with more
 * than one page the counts say so.
 */
export function headerText(state: WipesViewState, shown: number, data: { count: number; page: number; pages: number; onPage: number }): string {
  const wipes = (n: number) => `${n} drive wipe${n === 1 ? '' : 's'}`;
  const order = SORTS.find((s) => s.key === state.sort)!.phrase;
  const filtered = filtersActive(state);
  if (data.pages <= 1) return `${filtered ? `${shown} of ${wipes(data.count)}` : wipes(data.count)} · ${order}`;
  const onPage = filtered ? `${shown} of ${data.onPage}` : `${data.onPage}`;
  return `${onPage} on page ${data.page} of ${data.pages} (${wipes(data.count)} in all) · ${order}`;
}

/** The local calendar day of an instant, `YYYY-MM-DD`: the grid shows times in the viewer's zone. */
function localDay(iso: string | null): string | null {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A completed date within from..to, both days included; a wipe without one is outside any range. */
function inRange(row: WipeView, from: string, to: string): boolean {
  if (from === '' && to === '') return true;
  const day = localDay(row.completed_at);
  return day !== null && (from === '' || day >= from) && (to === '' || day <= to);
}

/**
 * Where the certificates of these rows download as one file, in this order: a ZIP of PDFs or
 * one signed lot certificate with each certificate attached (`GET /app/api/wipes/certificates`).
 */
export function lotUrl(rows: readonly WipeView[], format: 'zip' | 'pdf'): string {
  return `/app/api/wipes/certificates?format=${format}&ids=${rows.map((r) => encodeURIComponent(r.id)).join(',')}`;
}

export const sourceKind = (row: WipeView) => row.source.kind;

/** The distinct non-empty values of one field across rows, sorted: the options of a filter. */
export function distinctValues(rows: readonly WipeView[], field: 'customer' | 'lot_reference'): string[] {
  return [...new Set(rows.map((r) => r[field]).filter((v): v is string => v !== null && v !== ''))].sort((a, b) => text(a, b));
}

export function certificateText(row: WipeView): string {
  const cell = row.certificate;
  return cell.kind === 'issued' ? cell.number : cell.kind === 'badge' ? cell.label : 'Not issued';
}

/** The Source cell as text (search, CSV): a hotswap wipe with its bay, e.g. `Hotswap · Bay 3`. */
export function sourceText(row: WipeView): string {
  if (row.source.kind === 'hotswap') return ['Hotswap', row.source.bay].filter(Boolean).join(' · ');
  return row.source.kind === 'asset' ? row.source.label : '';
}

function haystack(row: WipeView): string {
  return [row.vendor, row.model, row.serial, row.method, row.technician, row.customer, row.lot_reference, row.status_label, sourceText(row), certificateText(row), row.job_id, row.id]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

// Missing values sort last whatever the direction: an unknown duration is not "the shortest".
function compareNullable<T>(a: T | null, b: T | null, compare: (x: T, y: T) => number): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compare(a, b);
}

const text = (x: string, y: string) => x.localeCompare(y, undefined, { sensitivity: 'base', numeric: true });
const number = (x: number, y: number) => x - y;
const time = (iso: string | null) => {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? null : ms;
};

const COMPARATORS: Record<SortKey, (a: WipeView, b: WipeView) => number> = {
  completed_desc: (a, b) => compareNullable(time(a.completed_at), time(b.completed_at), (x, y) => y - x),
  completed_asc: (a, b) => compareNullable(time(a.completed_at), time(b.completed_at), number),
  model_asc: (a, b) => compareNullable(a.model, b.model, text),
  model_desc: (a, b) => compareNullable(a.model, b.model, (x, y) => text(y, x)),
  capacity_desc: (a, b) => compareNullable(a.capacity_gb, b.capacity_gb, (x, y) => y - x),
  duration_desc: (a, b) => compareNullable(a.duration_seconds, b.duration_seconds, (x, y) => y - x),
  status_asc: (a, b) => text(a.status_label, b.status_label),
};

/** The rows the grid shows: searched, filtered and sorted (stable: ties keep newest first). */
export function visibleRows(rows: readonly WipeView[], state: WipesViewState): WipeView[] {
  const needle = state.q.trim().toLowerCase();
  const filtered = rows.filter(
    (row) =>
      (needle === '' || haystack(row).includes(needle)) &&
      (state.status === '' || row.status_label === state.status) &&
      (state.media === '' || (state.media === 'unknown' ? row.media_type === null : row.media_type === state.media)) &&
      (state.source === '' || sourceKind(row) === state.source) &&
      inRange(row, state.from, state.to) &&
      (state.customer === '' || row.customer === state.customer) &&
      (state.lot === '' || row.lot_reference === state.lot),
  );
  const compare = COMPARATORS[state.sort];
  return filtered
    .map((row, index) => ({ row, index }))
    .sort((a, b) => compare(a.row, b.row) || a.index - b.index)
    .map(({ row }) => row);
}

const CSV_COLUMNS: readonly [string, (row: WipeView) => string | number | null][] = [
  ['Wipe ID', (r) => r.id],
  ['Vendor', (r) => r.vendor],
  ['Model', (r) => r.model],
  ['Serial', (r) => r.serial],
  ['Capacity (GB)', (r) => r.capacity_gb],
  ['Media Type', (r) => r.media_type],
  ['Method', (r) => r.method],
  // As the grid shows it: the machine's model · serial, or the hotswap bay. Its id is last, for systems.
  ['Source', (r) => sourceText(r) || null],
  ['Duration (s)', (r) => r.duration_seconds],
  ['Status', (r) => r.status_label],
  ['Technician', (r) => r.technician],
  ['Customer', (r) => r.customer],
  ['Lot / Job Reference', (r) => r.lot_reference],
  ['Started', (r) => r.started_at],
  ['Completed', (r) => r.completed_at],
  ['Certificate', (r) => certificateText(r)],
  ['Asset ID', (r) => (r.source.kind === 'asset' ? r.source.asset_id : null)],
  // Issue 30 item 6, appended so existing imports keep their columns: the resale grade and its reasons.
  ['health_grade', (r) => r.health_grade],
  ['health_reasons', (r) => (r.health_reasons.length ? r.health_reasons.join('; ') : null)],
  // Issue 31 item 4, appended likewise: why no certificate (plain words, then the stored wording),
  // the exact size in bytes when the machine reported it, and the capacity as the grid shows it.
  ['Not Issued Reason', (r) => (r.certificate.kind === 'not_issued' ? r.certificate.reason : null)],
  ['uncertified_reason', (r) => (r.certificate.kind === 'not_issued' ? r.certificate.detail : null)],
  ['capacity_bytes', (r) => capacityBytes(r)],
  ['Capacity', (r) => (r.capacity_gb === null && r.capacity_bytes === null ? null : formatCapacityGb(r.capacity_gb ?? Math.floor(r.capacity_bytes! / 1e9)))],
];

/**
 * The exact size when the machine reported it; else the wire's whole gigabytes in bytes, except
 * for the 0 a drive under 1 GB arrives as, which is no size at all.
 */
function capacityBytes(row: WipeView): number | null {
  if (row.capacity_bytes !== null) return row.capacity_bytes;
  return row.capacity_gb !== null && row.capacity_gb >= 1 ? row.capacity_gb * 1_000_000_000 : null;
}

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let cell = String(value);
  // A leading = + - @ would run as a formula in a spreadsheet: a drive model is not code.
  if (/^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** CSV of exactly these rows, in this order, with a header line. */
export function toCsv(rows: readonly WipeView[]): string {
  const lines = [CSV_COLUMNS.map(([name]) => csvCell(name)).join(',')];
  for (const row of rows) lines.push(CSV_COLUMNS.map(([, get]) => csvCell(get(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
