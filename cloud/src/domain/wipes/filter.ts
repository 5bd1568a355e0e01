import {
  DEFAULT_WIPE_SORT,
  parseUnknown,
  WIPES_QUERY_RULES,
  WipesQuery,
  type WipeSortKey,
  type WipeStatus,
} from '@erasure/shared';
import { parseSince } from '../public-api/query.js';

/**
 * The wipes the grid, its CSV and the public API select (issue 31 item 1), checked and
 * normalised: instants are UTC ISO text with milliseconds, the form the SQL compares against.
 */
export interface WipeFilter {
  /** Case-insensitive part of the model, serial, technician, certificate number, customer or lot. */
  q?: string;
  status?: WipeStatus;
  media?: 'SSD' | 'HDD' | 'unknown';
  source?: 'asset' | 'hotswap' | 'none';
  method?: string;
  /** Completed at or after this instant. */
  completedFrom?: string;
  /** Completed before this instant (exclusive: the end of the `to` day, or just after the `to` instant). */
  completedBefore?: string;
  customer?: string;
  lot?: string;
  /** Changed at or after this instant (`updated_at`): the public API's incremental sync. */
  since?: string;
}

/** The grid's sort orders, and the public API's sync order (last change first, as the assets). */
export type WipeOrder = WipeSortKey | 'updated_desc';

export interface WipesRequest {
  filter: WipeFilter;
  sort: WipeSortKey;
  page: number;
}

export type WipesQueryParse = { ok: true; value: WipesRequest } | { ok: false; error: string };

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A `from` / `to` value as an instant; a day is its UTC start. Undefined when it names no real time. */
function instantOf(value: string): string | undefined {
  const parsed = parseSince(value);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * The query parameters of `/app/api/wipes` (and its CSV, and `GET /api/v1/wipes`) as a filter.
 * A parameter given twice, or out of its rule, is refused with that rule in words; an empty one
 * is no filter, so a form that submits every field unset filters nothing.
 */
export function parseWipesQuery(query: unknown): WipesQueryParse {
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (!(name in WIPES_QUERY_RULES)) continue;
    if (Array.isArray(value)) return { ok: false, error: `${name} must be given once` };
    if (typeof value !== 'string') return { ok: false, error: WIPES_QUERY_RULES[name]! };
    const text = value.trim();
    if (text !== '') given[name] = text;
  }
  const checked = parseUnknown(WipesQuery, given);
  if (!checked.ok) {
    const name = checked.path.split('/')[1] ?? '';
    return { ok: false, error: WIPES_QUERY_RULES[name] ?? `${name} is not valid` };
  }
  const q = checked.value;
  const filter: WipeFilter = {};
  if (q.q !== undefined) filter.q = q.q;
  if (q.status !== undefined) filter.status = q.status;
  if (q.media !== undefined) filter.media = q.media;
  if (q.source !== undefined) filter.source = q.source;
  if (q.method !== undefined) filter.method = q.method;
  if (q.customer !== undefined) filter.customer = q.customer;
  if (q.lot !== undefined) filter.lot = q.lot;
  if (q.from !== undefined) {
    const from = instantOf(q.from);
    if (from === undefined) return { ok: false, error: WIPES_QUERY_RULES.from! };
    filter.completedFrom = from;
  }
  if (q.to !== undefined) {
    const to = instantOf(q.to);
    if (to === undefined) return { ok: false, error: WIPES_QUERY_RULES.to! };
    // A day runs through its end; an instant is included itself.
    filter.completedBefore = new Date(Date.parse(to) + (DAY_ONLY.test(q.to) ? DAY_MS : 1)).toISOString();
  }
  return { ok: true, value: { filter, sort: q.sort ?? DEFAULT_WIPE_SORT, page: q.page === undefined ? 1 : Number(q.page) } };
}
