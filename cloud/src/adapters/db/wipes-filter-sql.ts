import type { WipeFilter, WipeOrder } from '../../domain/wipes/filter.js';
import type { Dialect } from '../sql/database.js';

/**
 * The wipes grid's filters and orders as SQL (issue 31 item 1), over the wipe result `w` of the
 * grid's select. Each rule here is the SQL twin
 * of what the grid shows (domain/wipes/grid.ts), so a filter selects exactly the rows whose cells
 * say so.
 */

/**
 * A stored timestamp as UTC ISO text with milliseconds (`2026-03-01T09:00:00.000Z`), the form
 * `toISOString` gives, so instants compare as text; null when it names no real time. The wire
 * allows `+0100` as well as `+01:00`, which SQLite's date functions read only with the colon.
 * The same expression is indexed (migrations SQLite 023, PostgreSQL 016): keep them in step.
 */
export function utcOf(dialect: Dialect, column: string): string {
  if (dialect === 'postgres') return `erasure_utc(${column})`;
  return `strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN ${column} GLOB '*[+-][0-9][0-9][0-9][0-9]' THEN substr(${column}, 1, length(${column}) - 2) || ':' || substr(${column}, -2) ELSE ${column} END)`;
}

/** Seconds from start to completion, null when either is missing or they are out of order (grid.ts durationSeconds). */
function durationOf(dialect: Dialect): string {
  const span =
    dialect === 'postgres'
      ? `extract(epoch from (${utcOf(dialect, 'w.completed_at')}::timestamptz - ${utcOf(dialect, 'w.started_at')}::timestamptz))`
      : `(julianday(${utcOf(dialect, 'w.completed_at')}) - julianday(${utcOf(dialect, 'w.started_at')})) * 86400.0`;
  // Whole seconds, as the grid shows them: two wipes of the same shown duration tie.
  return `CASE WHEN ${span} >= 0 THEN round(${span}) END`;
}

/** The stored status as the grid reads it: absent or blank is `completed` (spec 4.5 rule 1). */
const STATUS = "coalesce(nullif(lower(trim(w.wipe_status)), ''), 'completed')";

/**
 * The account's tokens that match `condition`: a filter on a token's fields, decided once per
 * query rather than per wipe (uncorrelated: every query of the grid binds `@account`).
 */
const tokensWhere = (condition: string) => `w.token_id IN (SELECT id FROM license_tokens WHERE account_id = @account AND ${condition})`;

/**
 * A customer or lot as the grid shows it (issue 31 item 6): the wipe's own, typed at the kiosk,
 * else its token's, the default.
 */
const ownOrToken = (column: string, own: string, token: string) => `(${own} OR (w.${column} IS NULL AND ${tokensWhere(token)}))`;

/**
 * A station wipe (grid.ts sourceCell): reported by a hotswap token, or its tool_components names a
 * bay (`…; bay=Bay 3; …`, shared station-components) with a label. `hotswapToken` says how this
 * query knows the token's product: `t.product` where the token is joined, else a subquery.
 */
export function stationOf(dialect: Dialect, hotswapToken = tokensWhere("product = 'hotswap'")): string {
  const bay =
    dialect === 'postgres'
      ? String.raw`coalesce(w.tool_components ~ '(^|;)\s*bay=\s*[^;\s]', false)`
      : `coalesce((';' || replace(replace(w.tool_components, ' ', ''), char(9), '')) GLOB '*;bay=[^;]*', 0)`;
  return `(${hotswapToken} OR ${bay})`;
}

/** The machine a drive is attributed to (the newest one whose storage lists its serial), as in the grid's join. */
const MATCHED_DRIVE = `FROM asset_drives d2 JOIN assets a2 ON a2.id = d2.asset_id
   WHERE d2.account_id = w.account_id AND d2.serial = trim(w.drive_serial)`;

/** Media type as vendor.ts mediaKind reads the matched drive's: SSD, HDD, or null. */
const MEDIA = `(SELECT CASE
      WHEN m LIKE '%ssd%' OR m LIKE '%nvme%' OR m LIKE '%flash%' OR m LIKE '%solid%' THEN 'SSD'
      WHEN m LIKE '%hdd%' OR m LIKE '%rotational%' OR m LIKE '%hard%' OR m LIKE '%spinning%' THEN 'HDD' END
    FROM (SELECT lower(d2.media_type) AS m ${MATCHED_DRIVE} ORDER BY a2.updated_at DESC, a2.id DESC LIMIT 1) matched)`;

/** `%term%` for LIKE, with the term's own wildcards taken literally. */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Whether a search term has a trigram to look up: three characters or more. A shorter one
 * cannot use the trigram index (SQLite's FTS5 finds nothing for it, PostgreSQL's pg_trgm every
 * row), so it is matched by the scan.
 */
export function hasTrigram(term: string): boolean {
  return [...term].length >= 3;
}

/**
 * The wipe's own fields as one text, the expression PostgreSQL's trigram index is on
 * (migration 022_wipes_search's wipe_search_text): keep them in step.
 */
const SEARCH_TEXT = 'wipe_search_text(drive_model, drive_serial, asset_tag, customer, lot_reference)';

/** `field` contains the term of `@q` (a {@link containing} pattern), in the store's case rule. */
function matcher(dialect: Dialect): (field: string) => string {
  // SQLite's LIKE ignores ASCII case; PostgreSQL's ILIKE ignores case.
  const like = dialect === 'postgres' ? 'ILIKE' : 'LIKE';
  return (field) => `${field} ${like} @q ESCAPE '\\'`;
}

/**
 * The account's tokens whose technician, customer or lot contains the term (binds `@account` and
 * `@q`): asked before a search by index, so the query names their wipes by token id. An account
 * has a handful of tokens; left as a subquery, the planner could not know how many match and
 * would scan every wipe rather than look the few candidates up.
 */
export function searchTokensSql(dialect: Dialect): string {
  const matches = matcher(dialect);
  return `SELECT id FROM license_tokens WHERE account_id = @account AND (${['user_email', 'customer', 'lot_reference'].map(matches).join(' OR ')})`;
}

/**
 * The ids of the wipes that may match the term, found by index (SQLite migration 029, PostgreSQL
 * 022): its own fields' and its certificate number's trigrams, and every wipe of the tokens
 * `tokenIds` ({@link searchTokensSql}).
 */
function searchCandidates(dialect: Dialect, tokenIds: readonly number[]): string {
  const matches = matcher(dialect);
  const branches =
    dialect === 'sqlite'
      ? ['SELECT rowid FROM wipe_search WHERE wipe_search MATCH @q_phrase']
      : [
          `SELECT id FROM wipe_results WHERE account_id = @account AND ${matches(SEARCH_TEXT)}`,
          `SELECT wipe_result_id FROM certificates WHERE account_id = @account AND ${matches('certificate_number')}`,
        ];
  const ids = tokenIds.filter((id) => Number.isSafeInteger(id));
  if (ids.length > 0) branches.push(`SELECT id FROM wipe_results WHERE account_id = @account AND token_id IN (${ids.join(', ')})`);
  return branches.join(' UNION ALL ');
}

export interface FilterSql {
  /**
   * Conditions to AND after `w.account_id = @account`, each starting with ` AND`. They name only
   * the wipe (`w`): the token's and certificate's fields are matched in subqueries, so a count
   * scans the account's wipes alone instead of joining two tables row by row.
   */
  where: string;
  params: Record<string, unknown>;
}

/**
 * The filter as SQL conditions with their parameters. `columns` says what this database has:
 * before its migrations a database has no certificates or customer and lot to search, nor the
 * trigram index of `search` (SQLite 029, PostgreSQL 022), without which `q` is a scan. A search
 * by index also needs `searchTokens`, the ids {@link searchTokensSql} answers for this term.
 */
export function filterSql(
  dialect: Dialect,
  filter: WipeFilter,
  columns: { certificates: boolean; customerLot: boolean; jobDetails?: boolean; search?: boolean },
  searchTokens?: readonly number[],
): FilterSql {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.q !== undefined) {
    params.q = containing(filter.q);
    const matches = matcher(dialect);
    const anyOf = [matches('w.drive_model'), matches('w.drive_serial'), tokensWhere(matches('user_email'))];
    if (columns.customerLot) {
      for (const column of ['customer', 'lot_reference']) {
        anyOf.push(columns.jobDetails ? ownOrToken(column, matches(`w.${column}`), matches(column)) : tokensWhere(matches(column)));
      }
    }
    if (columns.jobDetails) anyOf.push(matches('w.asset_tag'));
    if (columns.certificates) {
      anyOf.push(`w.id IN (SELECT wipe_result_id FROM certificates WHERE account_id = @account AND ${matches('certificate_number')})`);
    }
    const exact = `(${anyOf.join(' OR ')})`;
    if (columns.search && searchTokens !== undefined && hasTrigram(filter.q)) {
      // The trigram index narrows the wipes to a superset of the matches; the LIKEs above, run on
      // those alone, keep the answer exactly the scan's.
      if (dialect === 'sqlite') params.q_phrase = `"${filter.q.replace(/"/g, '""')}"`;
      where.push(`w.id IN (${searchCandidates(dialect, searchTokens)}) AND ${exact}`);
    } else where.push(exact);
  }
  if (filter.status !== undefined) {
    where.push(`${STATUS} = @status`);
    params.status = filter.status;
  }
  if (filter.media !== undefined) {
    if (filter.media === 'unknown') where.push(`${MEDIA} IS NULL`);
    else {
      where.push(`${MEDIA} = @media`);
      params.media = filter.media;
    }
  }
  if (filter.source === 'hotswap') where.push(stationOf(dialect));
  if (filter.source === 'asset') where.push(`NOT ${stationOf(dialect)} AND EXISTS (SELECT 1 ${MATCHED_DRIVE})`);
  if (filter.source === 'none') where.push(`NOT ${stationOf(dialect)} AND NOT EXISTS (SELECT 1 ${MATCHED_DRIVE})`);
  if (filter.method !== undefined) {
    where.push('w.wipe_method = @method');
    params.method = filter.method;
  }
  if (filter.completedFrom !== undefined) {
    where.push(`${utcOf(dialect, 'w.completed_at')} >= @completed_from`);
    params.completed_from = filter.completedFrom;
  }
  if (filter.completedBefore !== undefined) {
    where.push(`${utcOf(dialect, 'w.completed_at')} < @completed_before`);
    params.completed_before = filter.completedBefore;
  }
  for (const [key, column] of [['customer', 'customer'], ['lot', 'lot_reference']] as const) {
    const value = filter[key];
    if (value === undefined) continue;
    // A database before the customer and lot migration has none to match.
    const condition = columns.jobDetails ? ownOrToken(column, `w.${column} = @${key}`, `${column} = @${key}`) : tokensWhere(`${column} = @${key}`);
    where.push(columns.customerLot ? condition : '1 = 0');
    params[key] = value;
  }
  if (filter.since !== undefined) {
    where.push('w.updated_at >= @since');
    params.since = filter.since;
  }
  return { where: where.map((condition) => ` AND ${condition}`).join(''), params };
}

/** Newest first among equals, as the grid always listed them; the id makes the order total. */
const TIES = 'w.created_at DESC, w.id DESC';

/** ORDER BY of each sort; missing values last whatever the direction (an unknown duration is not "the shortest"). */
export function orderSql(dialect: Dialect, order: WipeOrder): string {
  const completed = utcOf(dialect, 'w.completed_at');
  switch (order) {
    case 'completed_desc':
      return `${completed} DESC NULLS LAST, ${TIES}`;
    case 'completed_asc':
      return `${completed} ASC NULLS LAST, ${TIES}`;
    case 'model_asc':
      return `lower(w.drive_model) ASC NULLS LAST, ${TIES}`;
    case 'model_desc':
      return `lower(w.drive_model) DESC NULLS LAST, ${TIES}`;
    case 'capacity_desc':
      return `w.drive_capacity_gb DESC NULLS LAST, ${TIES}`;
    case 'duration_desc':
      return `${durationOf(dialect)} DESC NULLS LAST, ${TIES}`;
    case 'status_asc':
      // By the label the grid shows: Cancelled, Fail, Pass.
      return `CASE ${STATUS} WHEN 'completed' THEN 'pass' WHEN 'failed' THEN 'fail' ELSE ${STATUS} END ASC, ${TIES}`;
    case 'updated_desc':
      return 'w.updated_at DESC, w.id DESC';
  }
}
