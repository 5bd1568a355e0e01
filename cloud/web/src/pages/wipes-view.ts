import type { WipeView } from '../types.js';

/** The grid's view state, all of it in the URL query (spec 4.5: search, filter, sort client-side). */
export interface WipesViewState {
  q: string;
  status: string;
  media: string;
  source: string;
  /** Exact customer / lot reference (issue 23); empty: any. */
  customer: string;
  lot: string;
  sort: SortKey;
}

export const SORTS = [
  { key: 'completed_desc', label: 'Completed (newest first)' },
  { key: 'completed_asc', label: 'Completed (oldest first)' },
  { key: 'model_asc', label: 'Model A–Z' },
  { key: 'model_desc', label: 'Model Z–A' },
  { key: 'capacity_desc', label: 'Capacity (high to low)' },
  { key: 'duration_desc', label: 'Duration (long to short)' },
  { key: 'status_asc', label: 'Status A–Z' },
] as const;
export type SortKey = (typeof SORTS)[number]['key'];

export const DEFAULT_SORT: SortKey = 'completed_desc';

export function readViewState(params: URLSearchParams): WipesViewState {
  const sort = params.get('sort') ?? DEFAULT_SORT;
  return {
    q: params.get('q') ?? '',
    status: params.get('status') ?? '',
    media: params.get('media') ?? '',
    source: params.get('source') ?? '',
    customer: params.get('customer') ?? '',
    lot: params.get('lot') ?? '',
    sort: SORTS.some((s) => s.key === sort) ? (sort as SortKey) : DEFAULT_SORT,
  };
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
  ['Source', (r) => (r.source.kind === 'asset' ? r.source.asset_id : r.source.kind === 'hotswap' ? sourceText(r) : null)],
  ['Duration (s)', (r) => r.duration_seconds],
  ['Status', (r) => r.status_label],
  ['Technician', (r) => r.technician],
  ['Customer', (r) => r.customer],
  ['Lot / Job Reference', (r) => r.lot_reference],
  ['Started', (r) => r.started_at],
  ['Completed', (r) => r.completed_at],
  ['Certificate', (r) => certificateText(r)],
];

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
