import { stationBayOf, stationComponentText, type CertificateStatus, type Product } from '@erasure/shared';
import type { WipeFilter, WipeOrder } from '../../domain/wipes/filter.js';
import type { SqlDatabase, SqlRunner } from '../sql/database.js';
import { containing, filterSql, hasTrigram, orderSql, searchTokensSql, stationOf, type FilterSql } from './wipes-filter-sql.js';

/** A wipe result with what the grid needs around it: token, matched machine, certificate. */
export interface WipeGridRow {
  id: number;
  public_id: string;
  job_id: string;
  drive_serial: string | null;
  drive_model: string | null;
  drive_capacity_gb: number | null;
  wipe_method: string | null;
  passes_completed: number | null;
  started_at: string | null;
  completed_at: string | null;
  wipe_status: string | null;
  validation: string | null;
  certifiable: number;
  certificate_status: CertificateStatus | null;
  /** Carries the station bay of a hotswap wipe (`…; bay=Bay 3; chassis=…`, shared station-components). */
  tool_components: string | null;
  created_at: string;
  product: Product;
  user_email: string | null;
  /** The reporting token's customer and lot / job reference (issue 23), null when none was set. */
  customer: string | null;
  lot_reference: string | null;
  /** The asset tag typed or scanned at the kiosk (issue 31 item 6), null when none was. */
  asset_tag: string | null;
  asset_public_id: string | null;
  asset_model: string | null;
  asset_serial: string | null;
  media_type: string | null;
  cert_public_id: string | null;
  cert_number: string | null;
  cert_status: string | null;
  /** The resale grade and the wire's health object (issue 30 item 6); null for older agents' results. */
  health_grade: string | null;
  health_json: string | null;
  /** Why the result is not certifiable (migration 006), null when it is (issue 31 item 4). */
  uncertified_reason: string | null;
  /** The drive's `size_bytes` in the matched machine's fingerprint, null when unknown (issue 31 item 4). */
  drive_size_bytes: number | null;
  /** 1 when the SQL filters count this wipe as a station's (wipes-filter-sql.ts), so the grid's Source agrees with them. */
  station?: number;
  /** Last change of the row (certificate status, validation): what the public API's `since` compares (issue 31 item 5). */
  updated_at?: string;
}

/** The distinct values the grid's filters offer, over the account's whole history. */
export interface WipeFacets {
  customers: string[];
  lots: string[];
  methods: string[];
}

export interface WipeGridReader {
  /** Whether the `certificates` table (migration 003) exists in this database. */
  readonly hasCertificates: boolean;
  page(accountId: number, limit: number, offset: number): Promise<{ rows: WipeGridRow[]; count: number }>;
  /** The account's wipes with these `wr_…` ids (others, or another account's, are left out). */
  byPublicIds(accountId: number, publicIds: readonly string[]): Promise<WipeGridRow[]>;
  /** The wipes of the drives of one machine (by its `asset_…` id), newest first: the rows whose grid source is that machine. */
  byAsset(accountId: number, assetPublicId: string): Promise<WipeGridRow[]>;
  /**
   * The wipes done in the bays of a station's chassis, newest first: the rows whose
   * `tool_components` names this chassis map (`…; bay=Bay 3; chassis=<name>`), the one link a
   * station wipe has to its chassis (spec 2 has no field for it).
   */
  byChassisMap(accountId: number, mapName: string): Promise<WipeGridRow[]>;
  /** One page of the wipes that match, in this order, and how many match in all (issue 31 item 1). */
  search(accountId: number, filter: WipeFilter, order: WipeOrder, limit: number, offset: number): Promise<{ rows: WipeGridRow[]; count: number }>;
  /** How many wipes match. */
  count(accountId: number, filter: WipeFilter): Promise<number>;
  /** Every wipe that matches (up to `limit`), in this order, a batch at a time, never all at once (the CSV export). */
  each(accountId: number, filter: WipeFilter, order: WipeOrder, limit?: number): AsyncIterable<WipeGridRow[]>;
  /** The customers, lots and methods the account's wipes have, sorted. */
  facets(accountId: number): Promise<WipeFacets>;
}

/** Whether the `certificates` table exists, asked of each store's catalogue. */
const HAS_CERTIFICATES = {
  sqlite: "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'certificates'",
  postgres: "SELECT 1 AS found FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'certificates'",
} as const;

/**
 * The wiped drive's exact size, from the storage list of the machine it was matched to (`a`):
 * the wire's `drive_capacity_gb` is whole gigabytes, 0 for a drive under 1 GB.
 */
const DRIVE_SIZE_BYTES = {
  sqlite: `(SELECT json_extract(s.value, '$.size_bytes') FROM json_each(a.fingerprint, '$.storage') s
             WHERE json_type(s.value, '$.serial') = 'text' AND trim(json_extract(s.value, '$.serial')) = trim(w.drive_serial)
               AND json_type(s.value, '$.size_bytes') IN ('integer', 'real') LIMIT 1)`,
  // float8, not numeric: node-postgres returns numeric as a string.
  postgres: `(SELECT (s.value ->> 'size_bytes')::float8 FROM jsonb_array_elements(
               CASE WHEN jsonb_typeof(a.fingerprint::jsonb -> 'storage') = 'array' THEN a.fingerprint::jsonb -> 'storage' ELSE '[]'::jsonb END) AS s(value)
             WHERE jsonb_typeof(s.value -> 'serial') = 'string' AND trim(s.value ->> 'serial') = trim(w.drive_serial)
               AND jsonb_typeof(s.value -> 'size_bytes') = 'number' LIMIT 1)`,
} as const;

/** Whether tokens carry a customer and lot (SQLite migration 012, PostgreSQL 005). */
const HAS_CUSTOMER_LOT = {
  sqlite: "SELECT 1 AS found FROM pragma_table_info('license_tokens') WHERE name = 'customer'",
  postgres:
    "SELECT 1 AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'license_tokens' AND column_name = 'customer'",
} as const;

/** Whether wipe results carry the kiosk's job details (issue 31 item 6: SQLite migration 024, PostgreSQL 017). */
const HAS_JOB_DETAILS = {
  sqlite: "SELECT 1 AS found FROM pragma_table_info('wipe_results') WHERE name = 'asset_tag'",
  postgres:
    "SELECT 1 AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'wipe_results' AND column_name = 'asset_tag'",
} as const;

/** Whether the wipes search has its trigram index (SQLite migration 029, PostgreSQL 022). */
const HAS_SEARCH = {
  sqlite: "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'wipe_search'",
  postgres: "SELECT 1 AS found FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'wipe_results_search'",
} as const;

/** Whether wipe results carry a health grade (SQLite migration 018, PostgreSQL 011). */
const HAS_HEALTH = {
  sqlite: "SELECT 1 AS found FROM pragma_table_info('wipe_results') WHERE name = 'health_grade'",
  postgres:
    "SELECT 1 AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'wipe_results' AND column_name = 'health_grade'",
} as const;

/** Whether wipe results say why they were not certified (SQLite migration 006; PostgreSQL always). */
const HAS_UNCERTIFIED_REASON = {
  sqlite: "SELECT 1 AS found FROM pragma_table_info('wipe_results') WHERE name = 'uncertified_reason'",
  postgres:
    "SELECT 1 AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'wipe_results' AND column_name = 'uncertified_reason'",
} as const;

/**
 * Reads for the wipes grid (spec 4.5). The certificates table arrives with a later SQLite
 * migration, so whether to join it is decided once, here, from the catalogue: the same code
 * serves a database before and after that migration (PostgreSQL's schema always has it).
 * Source matching goes through `asset_drives` (migration 002), newest machine first when a
 * drive serial was seen in several.
 */
export async function createWipeGridReader(db: SqlRunner & Partial<Pick<SqlDatabase, 'batches'>>): Promise<WipeGridReader> {
  const hasCertificates = (await db.one(HAS_CERTIFICATES[db.dialect])) !== undefined;
  // Like the certificates table, decided once: a database before migration 012 shows no customer or lot.
  const hasCustomerLot = (await db.one(HAS_CUSTOMER_LOT[db.dialect])) !== undefined;
  const hasJobDetails = (await db.one(HAS_JOB_DETAILS[db.dialect])) !== undefined;
  // The kiosk's job details on the wipe first; none given: the token's customer and lot, the default.
  const customerColumns = hasJobDetails
    ? 'COALESCE(w.customer, t.customer) AS customer, COALESCE(w.lot_reference, t.lot_reference) AS lot_reference, w.asset_tag'
    : hasCustomerLot
      ? 't.customer, t.lot_reference, NULL AS asset_tag'
      : 'NULL AS customer, NULL AS lot_reference, NULL AS asset_tag';
  const healthColumns =
    (await db.one(HAS_HEALTH[db.dialect])) !== undefined ? 'w.health_grade, w.health_json' : 'NULL AS health_grade, NULL AS health_json';
  const reasonColumn = (await db.one(HAS_UNCERTIFIED_REASON[db.dialect])) !== undefined ? 'w.uncertified_reason' : 'NULL AS uncertified_reason';
  const certColumns = hasCertificates
    ? 'c.public_id AS cert_public_id, c.certificate_number AS cert_number, c.status AS cert_status'
    : 'NULL AS cert_public_id, NULL AS cert_number, NULL AS cert_status';
  // A wipe has at most one certificate (certificates.wipe_result_id is unique).
  const certJoin = hasCertificates ? 'LEFT JOIN certificates c ON c.wipe_result_id = w.id' : '';
  const select = (source: string) => `
    SELECT w.id, w.public_id, w.job_id, w.drive_serial, w.drive_model, w.drive_capacity_gb, w.wipe_method,
           w.passes_completed, w.started_at, w.completed_at, w.wipe_status, w.validation, w.certifiable,
           w.certificate_status, ${reasonColumn}, ${DRIVE_SIZE_BYTES[db.dialect]} AS drive_size_bytes,
           w.tool_components, w.created_at, ${healthColumns}, t.product, t.user_email, ${customerColumns},
           a.public_id AS asset_public_id, a.model AS asset_model,
           a.serial_number AS asset_serial, d.media_type, ${certColumns},
           CASE WHEN ${stationOf(db.dialect, "t.product = 'hotswap'")} THEN 1 ELSE 0 END AS station, w.updated_at
      FROM ${source} w
      JOIN license_tokens t ON t.id = w.token_id
      LEFT JOIN assets a ON a.id = (
        SELECT d2.asset_id FROM asset_drives d2 JOIN assets a2 ON a2.id = d2.asset_id
         WHERE d2.account_id = w.account_id AND d2.serial = trim(w.drive_serial)
         ORDER BY a2.updated_at DESC, a2.id DESC LIMIT 1)
      LEFT JOIN asset_drives d ON d.account_id = w.account_id AND d.serial = trim(w.drive_serial) AND d.asset_id = a.id
      ${certJoin}`;
  const pageSql = `
    WITH page AS (SELECT * FROM wipe_results WHERE account_id = @account
                   ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset)
    ${select('page')}
    ORDER BY w.created_at DESC, w.id DESC`;
  const hasSearch = (await db.one(HAS_SEARCH[db.dialect])) !== undefined;
  const columns = { certificates: hasCertificates, customerLot: hasCustomerLot, jobDetails: hasJobDetails, search: hasSearch };
  /** The filter's SQL; a search by index first asks which of the account's tokens match the term. */
  const filterFor = async (accountId: number, filter: WipeFilter): Promise<FilterSql> => {
    if (!hasSearch || filter.q === undefined || !hasTrigram(filter.q)) return filterSql(db.dialect, filter, columns);
    const tokens = await db.many<{ id: number }>(searchTokensSql(db.dialect), { account: accountId, q: containing(filter.q) });
    return filterSql(db.dialect, filter, columns, tokens.map((t) => Number(t.id)));
  };
  // The filters and orders name only the wipe (wipes-filter-sql.ts); the rest is joined for the rows shown.
  const matching = (where: string) => `FROM wipe_results w WHERE w.account_id = @account${where}`;
  return {
    hasCertificates,
    async search(accountId, filter, order, limit, offset) {
      const { where, params } = await filterFor(accountId, filter);
      const orderBy = orderSql(db.dialect, order);
      const count = (await db.one<{ n: number }>(`SELECT count(*) AS n ${matching(where)}`, { ...params, account: accountId }))!.n;
      if (count === 0 || offset >= count) return { rows: [], count };
      const rows = await db.many<WipeGridRow>(
        `WITH shown AS (SELECT w.id ${matching(where)} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset)
         ${select('wipe_results')} WHERE w.id IN (SELECT id FROM shown) ORDER BY ${orderBy}`,
        { ...params, account: accountId, limit, offset },
      );
      return { rows, count };
    },
    async count(accountId, filter) {
      const { where, params } = await filterFor(accountId, filter);
      return (await db.one<{ n: number }>(`SELECT count(*) AS n ${matching(where)}`, { ...params, account: accountId }))!.n;
    },
    async *each(accountId, filter, order, limit) {
      const { where, params } = await filterFor(accountId, filter);
      const sql = `${select('wipe_results')} WHERE w.account_id = @account${where} ORDER BY ${orderSql(db.dialect, order)}${limit === undefined ? '' : ' LIMIT @limit'}`;
      const bound = { ...params, account: accountId, ...(limit === undefined ? {} : { limit }) };
      // A transaction's runner has no row stream; it reads the rows in one go (the export never runs in one).
      if (db.batches) yield* db.batches<WipeGridRow>(sql, bound, EXPORT_BATCH);
      else yield await db.many<WipeGridRow>(sql, bound);
    },
    async facets(accountId) {
      const values = async (sql: string) => (await db.many<{ v: string }>(sql, { account: accountId })).map((row) => row.v);
      // The kiosk's job details name customers and lots of their own (issue 31 item 6).
      const wipeValues = (column: string) =>
        hasJobDetails ? ` UNION SELECT ${column} FROM wipe_results WHERE account_id = @account AND ${column} IS NOT NULL AND ${column} <> ''` : '';
      const tokenValues = (column: string) =>
        hasCustomerLot
          ? values(`SELECT v FROM (SELECT ${column} AS v FROM license_tokens WHERE account_id = @account AND ${column} IS NOT NULL AND ${column} <> ''${wipeValues(column)}) AS named ORDER BY v`)
          : Promise.resolve([]);
      return {
        customers: await tokenValues('customer'),
        lots: await tokenValues('lot_reference'),
        methods: await values(`SELECT DISTINCT wipe_method AS v FROM wipe_results WHERE account_id = @account AND wipe_method IS NOT NULL ORDER BY v`),
      };
    },
    async page(accountId, limit, offset) {
      const count = (await db.one<{ n: number }>('SELECT count(*) AS n FROM wipe_results WHERE account_id = @account', { account: accountId }))!.n;
      const rows = await db.many<WipeGridRow>(pageSql, { account: accountId, limit, offset });
      return { rows, count };
    },
    async byAsset(accountId, assetPublicId) {
      // Narrowed first to the serials this machine's drives have, then to rows whose source (the
      // newest machine holding that serial) is this machine, exactly as the grid attributes them.
      return db.many<WipeGridRow>(
        `${select('wipe_results')} WHERE w.account_id = @account
            AND trim(w.drive_serial) IN (SELECT d3.serial FROM asset_drives d3 JOIN assets a3 ON a3.id = d3.asset_id
                                          WHERE a3.public_id = @asset AND d3.account_id = @account)
            AND a.public_id = @asset
          ORDER BY w.created_at DESC, w.id DESC LIMIT 500`,
        { account: accountId, asset: assetPublicId },
      );
    },
    async byChassisMap(accountId, mapName) {
      const name = stationComponentText(mapName);
      if (name === '') return [];
      // LIKE narrows in the database; the exact chassis is then read back as the Erasure Report reads it.
      const like = `%chassis=${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db.many<WipeGridRow>(
        `${select('wipe_results')} WHERE w.account_id = @account AND w.tool_components LIKE @like ESCAPE '\\'
          ORDER BY w.created_at DESC, w.id DESC LIMIT 500`,
        { account: accountId, like },
      );
      return rows.filter((r) => stationBayOf(r.tool_components)?.chassis === name);
    },
    async byPublicIds(accountId, publicIds) {
      if (publicIds.length === 0) return [];
      const params: Record<string, unknown> = { account: accountId };
      publicIds.forEach((id, i) => (params[`id${i}`] = id));
      return db.many<WipeGridRow>(
        `${select('wipe_results')} WHERE w.account_id = @account AND w.public_id IN (${publicIds.map((_, i) => `@id${i}`).join(', ')})
          ORDER BY w.created_at DESC, w.id DESC`,
        params,
      );
    },
  };
}

/** Rows read from the store per step of a streamed export: enough to keep the store busy, few enough to stay small. */
const EXPORT_BATCH = 500;

/**
 * The one grid reader of an app, for every route that reads the grid: made at the first call (it
 * asks the database which tables exist) and kept; one whose making failed is made again at the next call.
 */
export function wipeGridReaderOnce(db: SqlRunner): () => Promise<WipeGridReader> {
  let reader: Promise<WipeGridReader> | undefined;
  return () =>
    (reader ??= createWipeGridReader(db).catch((error: unknown) => {
      reader = undefined;
      throw error;
    }));
}
