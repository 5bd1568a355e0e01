import { DEFAULT_WIPE_SORT, WIPE_SORTS, WIPE_STATUSES, type WipeSortKey } from '@erasure/shared/contracts';
import type { WipeView } from '../types.js';

/**
 * The grid's view state, all of it in the URL query, so a link reproduces the view. The cloud
 * searches, filters, sorts and counts the whole history (issue 31 item 1); the page only asks.
 */
export interface WipesViewState {
  q: string;
  /** A wire status (`completed`, `failed`, `cancelled`), or ''. */
  status: string;
  media: string;
  source: string;
  method: string;
  /** Completed on or after this day (`YYYY-MM-DD`, the viewer's time zone), or ''. */
  from: string;
  /** Completed on or before this day (`YYYY-MM-DD`, the viewer's time zone), or ''. */
  to: string;
  /** Exact customer / lot reference (issue 23); empty: any. */
  customer: string;
  lot: string;
  sort: SortKey;
  page: number;
}

/** `phrase` is how the grid's header names the order ("236 drive wipes · sorted by duration"). */
export const SORTS = WIPE_SORTS;
export type SortKey = WipeSortKey;
export const DEFAULT_SORT: SortKey = DEFAULT_WIPE_SORT;

/** The view state's names in the URL, each also a filter of `/app/api/wipes` (but the days). */
export const FILTER_KEYS = ['q', 'status', 'media', 'source', 'method', 'from', 'to', 'customer', 'lot'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A `YYYY-MM-DD` from the URL, or '' for anything else (a mistyped link filters nothing). */
const dayOf = (value: string | null) => (value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '');

/** Links made when the grid filtered by label (`status=Fail`) still open the same view. */
const STATUS_OF_LABEL: Record<string, string> = { pass: 'completed', fail: 'failed' };
function statusOf(value: string | null): string {
  const text = (value ?? '').trim().toLowerCase();
  const status = STATUS_OF_LABEL[text] ?? text;
  return (WIPE_STATUSES as readonly string[]).includes(status) ? status : '';
}
const oneOf = (value: string | null, allowed: readonly string[]) => (value !== null && allowed.includes(value) ? value : '');

export function readViewState(params: URLSearchParams): WipesViewState {
  const sort = params.get('sort') ?? DEFAULT_SORT;
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    status: statusOf(params.get('status')),
    media: oneOf(params.get('media'), ['SSD', 'HDD', 'unknown']),
    source: oneOf(params.get('source'), ['asset', 'hotswap', 'none']),
    method: params.get('method') ?? '',
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
    customer: params.get('customer') ?? '',
    lot: params.get('lot') ?? '',
    sort: SORTS.some((s) => s.key === sort) ? (sort as SortKey) : DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Whether any filter (not the sort) narrows the rows. */
export const filtersActive = (state: WipesViewState) => FILTER_KEYS.some((key) => state[key] !== '');

/** The start of a local calendar day, `YYYY-MM-DD`, as an instant in the viewer's zone (ISO with offset). */
function localDayStart(day: string, offsetDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + offsetDays);
}

/**
 * The filters, sort and page as the query of `/app/api/wipes` (and its CSV): the days become
 * instants of the viewer's own days (the grid shows times in the viewer's zone), `to` through
 * the last millisecond of its day.
 */
export function apiQuery(state: WipesViewState, options: { page?: boolean } = { page: true }): string {
  const query = new URLSearchParams();
  for (const key of ['q', 'status', 'media', 'source', 'method', 'customer', 'lot'] as const) {
    const value = key === 'q' ? state.q.trim() : state[key];
    if (value !== '') query.set(key, value);
  }
  if (state.from !== '') query.set('from', localDayStart(state.from).toISOString());
  if (state.to !== '') query.set('to', new Date(localDayStart(state.to, 1).getTime() - 1).toISOString());
  if (state.sort !== DEFAULT_SORT) query.set('sort', state.sort);
  if (options.page !== false && state.page > 1) query.set('page', String(state.page));
  return query.toString();
}

/**
 * The grid's header line, for the whole history: "236 drive wipes · newest first", filtered
 * "12 wipes match · sorted by duration".
 */
export function headerText(state: WipesViewState, count: number): string {
  const order = SORTS.find((s) => s.key === state.sort)!.phrase;
  if (filtersActive(state)) return `${count} wipe${count === 1 ? '' : 's'} match${count === 1 ? 'es' : ''} · ${order}`;
  return `${count} drive wipe${count === 1 ? '' : 's'} · ${order}`;
}

/** The footer's line: which of the matching rows this page shows. */
export function rangeText(data: { page: number; page_size: number; count: number; rows: readonly unknown[] }): string {
  if (data.rows.length === 0) return `Showing 0 of ${data.count}`;
  const first = (data.page - 1) * data.page_size + 1;
  return `Showing ${first}–${first + data.rows.length - 1} of ${data.count}`;
}

/**
 * Where the certificates of these rows download as one file, in this order: a ZIP of PDFs or
 * one signed lot certificate with each certificate attached (`GET /app/api/wipes/certificates`).
 */
export function lotUrl(rows: readonly WipeView[], format: 'zip' | 'pdf'): string {
  return `/app/api/wipes/certificates?format=${format}&ids=${rows.map((r) => encodeURIComponent(r.id)).join(',')}`;
}
