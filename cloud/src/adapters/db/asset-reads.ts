import type { SqlRunner } from '../sql/database.js';

/** The asset columns behind a public summary (spec 2 "Asset summary"), as stored. */
export interface AssetSummaryRow {
  id: number;
  public_id: string;
  record_id: string;
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  asset_tag: string | null;
  cpu_model: string | null;
  memory_total_bytes: number | null;
  storage_summary: string | null;
  storage_serials: string | null;
  battery_health_pct: number | null;
  tpm_version: string | null;
  firmware_mode: string | null;
  secure_boot: number | null;
  bios_version: string | null;
  engine_version: string | null;
  technician: string | null;
  notes: string | null;
  test_results: string;
  first_seen_at: string;
  audited_at: string;
  updated_at: string;
}

export type AssetDetailRow = AssetSummaryRow & { fingerprint: string };

const SUMMARY_COLUMNS = `id, public_id, record_id, manufacturer, model, serial_number, asset_tag, cpu_model,
  memory_total_bytes, storage_summary, storage_serials, battery_health_pct, tpm_version, firmware_mode,
  secure_boot, bios_version, engine_version, technician, notes, test_results, first_seen_at, audited_at,
  updated_at`;

/** Filters of an asset listing; every one narrows, none widens past the account. */
export interface AssetFilter {
  accountId: number;
  /** ISO timestamp: `updated_at` at or after it. */
  since?: string;
  /** Exact `serial_number`. */
  serial?: string;
  /** Web app search: substring of serial, model, manufacturer, asset tag, CPU or id. */
  search?: string;
}

function where(filter: AssetFilter): { sql: string; params: Record<string, unknown> } {
  const clauses = ['account_id = @account'];
  const params: Record<string, unknown> = { account: filter.accountId };
  if (filter.since !== undefined) {
    clauses.push('updated_at >= @since');
    params.since = filter.since;
  }
  if (filter.serial !== undefined) {
    clauses.push('serial_number = @serial');
    params.serial = filter.serial;
  }
  if (filter.search !== undefined && filter.search !== '') {
    // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    const like = (column: string) => `lower(${column}) LIKE lower(@search) ESCAPE '\\'`;
    clauses.push(`(${like('serial_number')} OR ${like('model')} OR ${like('manufacturer')} OR ${like('asset_tag')}
      OR ${like('cpu_model')} OR public_id = @exact OR ${like('storage_serials')})`);
    params.search = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.exact = filter.search;
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * One page of assets, newest change first. The order `updated_at DESC, id DESC` is total, so
 * consecutive pages never repeat or skip a row of an unchanged set. The page's ids come from
 * the covering index `assets_account_updated` first (cheap to skip through, even deep), and
 * only those rows are read in full.
 */
export async function listAssetSummaries(
  db: SqlRunner,
  filter: AssetFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AssetSummaryRow[]; count: number }> {
  const { sql, params } = where(filter);
  const count = (await db.one<{ n: number }>(`SELECT count(*) AS n FROM assets WHERE ${sql}`, params))!.n;
  if (count <= page.offset) return { rows: [], count };
  const rows = await db.many<AssetSummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM assets
      WHERE id IN (SELECT id FROM assets WHERE ${sql}
                    ORDER BY updated_at DESC, id DESC LIMIT @limit OFFSET @offset)
      ORDER BY updated_at DESC, id DESC`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  return { rows, count };
}

/** The account's asset with this public id, fingerprint included; another account's reads as absent. */
export async function findAssetDetail(db: SqlRunner, accountId: number, publicId: string): Promise<AssetDetailRow | undefined> {
  return db.one<AssetDetailRow>(`SELECT ${SUMMARY_COLUMNS}, fingerprint FROM assets WHERE public_id = @publicId AND account_id = @accountId`, {
    publicId,
    accountId,
  });
}
