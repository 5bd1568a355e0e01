import { Type, type Static } from '@sinclair/typebox';
import { WIPE_STATUSES } from './wipe.js';

/**
 * The wipes grid's search, filters and sort (issue 31 item 1), as query parameters of
 * `/app/api/wipes`, its CSV export and `GET /api/v1/wipes`. Every value arrives as a string; an
 * empty one means "no filter" (the cloud drops it before checking). The cloud filters, sorts and
 * counts in SQL over the account's whole history.
 */

/** The grid's sort orders; `phrase` is how the header names one ("· sorted by duration"). */
export const WIPE_SORTS = [
  { key: 'completed_desc', label: 'Completed (newest first)', phrase: 'newest first' },
  { key: 'completed_asc', label: 'Completed (oldest first)', phrase: 'oldest first' },
  { key: 'model_asc', label: 'Model A–Z', phrase: 'sorted by model A–Z' },
  { key: 'model_desc', label: 'Model Z–A', phrase: 'sorted by model Z–A' },
  { key: 'capacity_desc', label: 'Capacity (high to low)', phrase: 'sorted by capacity' },
  { key: 'duration_desc', label: 'Duration (long to short)', phrase: 'sorted by duration' },
  { key: 'status_asc', label: 'Status A–Z', phrase: 'sorted by status' },
] as const;
export type WipeSortKey = (typeof WIPE_SORTS)[number]['key'];
export const DEFAULT_WIPE_SORT: WipeSortKey = 'completed_desc';

/** Media type as the grid shows it (from the matched machine), or `unknown` for none. */
export const WIPE_MEDIA_FILTERS = ['SSD', 'HDD', 'unknown'] as const;
/** Where the drive was erased: a matched machine, a hotswap station, or neither. */
export const WIPE_SOURCE_FILTERS = ['asset', 'hotswap', 'none'] as const;

/** Longest search term or exact value a filter takes (the wire caps model, serial, method at 200). */
export const WIPE_FILTER_MAX_LENGTH = 200;

const Term = Type.String({ maxLength: WIPE_FILTER_MAX_LENGTH });
const oneOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
/** A day (`2026-03-01`) or an instant with a zone (`2026-03-01T00:00:00+01:00`); checked further by the cloud. */
const DayOrInstant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2}))?$',
  maxLength: 40,
});

/** The grid's filters and sort, each optional. */
export const wipeFilterFields = {
  /** Text search: part of the model, serial, technician, certificate number, customer or lot, any case. */
  q: Type.Optional(Term),
  status: Type.Optional(oneOf(WIPE_STATUSES)),
  media: Type.Optional(oneOf(WIPE_MEDIA_FILTERS)),
  source: Type.Optional(oneOf(WIPE_SOURCE_FILTERS)),
  /** Exact erasure method, as the wipe result names it. */
  method: Type.Optional(Term),
  /** Completed at or after: a day (its start, UTC) or an instant. */
  from: Type.Optional(DayOrInstant),
  /** Completed at or before: a day (through its end, UTC) or an instant. */
  to: Type.Optional(DayOrInstant),
  /** Exact customer, and exact lot / job reference, of the reporting token. */
  customer: Type.Optional(Term),
  lot: Type.Optional(Term),
};

/** Query of `/app/api/wipes` and its CSV export; other parameters are ignored. */
export const WipesQuery = Type.Object(
  {
    ...wipeFilterFields,
    sort: Type.Optional(oneOf(WIPE_SORTS.map((s): WipeSortKey => s.key))),
    page: Type.Optional(Type.String({ pattern: '^[1-9]\\d{0,8}$' })),
  },
  { additionalProperties: true },
);
export type WipesQuery = Static<typeof WipesQuery>;

/** What each parameter must be, in the words a 400 / 422 answer uses. */
export const WIPES_QUERY_RULES: Readonly<Record<string, string>> = {
  q: `q must be at most ${WIPE_FILTER_MAX_LENGTH} characters`,
  status: `status must be one of ${WIPE_STATUSES.join(', ')}`,
  media: `media must be one of ${WIPE_MEDIA_FILTERS.join(', ')}`,
  source: `source must be one of ${WIPE_SOURCE_FILTERS.join(', ')}`,
  method: `method must be at most ${WIPE_FILTER_MAX_LENGTH} characters`,
  from: 'from must be a date (2026-03-01) or an ISO 8601 timestamp with a zone (2026-03-01T00:00:00Z)',
  to: 'to must be a date (2026-03-31) or an ISO 8601 timestamp with a zone (2026-03-31T23:59:59Z)',
  customer: `customer must be at most ${WIPE_FILTER_MAX_LENGTH} characters`,
  lot: `lot must be at most ${WIPE_FILTER_MAX_LENGTH} characters`,
  sort: `sort must be one of ${WIPE_SORTS.map((s) => s.key).join(', ')}`,
  page: 'page must be a positive integer',
};
