import { newId, type Fingerprint, type TestSnapshot } from '@erasure/shared';
import type { PromotedColumns } from '../../domain/assets/promote.js';
import type { TestRun } from '../../domain/assets/test-history.js';
import type { SqlRunner } from '../sql/database.js';

export interface AssetBoot {
  accountId: number;
  hardwareUid: string;
  recordId: string;
  engineVersion: string | null;
  fingerprint: Fingerprint;
  promoted: PromotedColumns;
  /**
   * The reporting token. Its id and `technician` are first-reporter fields, kept from the first
   * sighting only; its customer and lot (issue 23) follow every boot.
   */
  tokenId: number;
  technician: string | null;
  now: string;
}

const PROMOTED: readonly (keyof PromotedColumns)[] = [
  'manufacturer', 'model', 'serial_number', 'board_model', 'board_serial', 'asset_tag', 'bios_version',
  'tpm_version', 'firmware_mode', 'secure_boot', 'cpu_model', 'cpu_cores', 'cpu_threads', 'memory_total_bytes',
  'gpu', 'storage_summary', 'storage_serials', 'battery_health_pct',
];

/** The upsert of {@link upsertAsset}; built once, so every boot runs the same statement text. */
const UPSERT_ASSET = `INSERT INTO assets (public_id, account_id, hardware_uid, record_id, engine_version, fingerprint,
                       ${PROMOTED.join(', ')}, first_token_id, technician, customer, lot_reference,
                       first_seen_at, last_booted_at, audited_at, updated_at)
   VALUES (@public_id, @account_id, @hardware_uid, @record_id, @engine_version, @fingerprint,
           ${PROMOTED.map((c) => `@${c}`).join(', ')}, @first_token_id, @technician,
           (SELECT customer FROM license_tokens WHERE id = @first_token_id),
           (SELECT lot_reference FROM license_tokens WHERE id = @first_token_id),
           @now, @now, @now, @now)
   ON CONFLICT (account_id, hardware_uid) DO UPDATE SET
     record_id = excluded.record_id,
     engine_version = excluded.engine_version,
     fingerprint = excluded.fingerprint,
     ${PROMOTED.map((c) => `${c} = excluded.${c}`).join(',\n     ')},
     -- The reporting token's customer and lot: a machine processed again in a later lot moves with it.
     customer = excluded.customer,
     lot_reference = excluded.lot_reference,
     boot_count = assets.boot_count + 1,
     last_booted_at = excluded.last_booted_at,
     audited_at = excluded.audited_at,
     updated_at = excluded.updated_at
   RETURNING id, public_id, boot_count`;

/**
 * Creates or refreshes the machine's row in one statement keyed on (account, hardware_uid).
 * A later boot refreshes the report and promoted columns but never the first-reporter fields;
 * `boot_count` tells the caller whether this was the first boot (for `asset_reported`).
 */
export async function upsertAsset(db: SqlRunner, boot: AssetBoot): Promise<{ id: number; public_id: string; firstBoot: boolean }> {
  const params: Record<string, unknown> = {
    public_id: newId('asset'),
    account_id: boot.accountId,
    hardware_uid: boot.hardwareUid,
    record_id: boot.recordId,
    engine_version: boot.engineVersion,
    fingerprint: JSON.stringify(boot.fingerprint),
    first_token_id: boot.tokenId,
    technician: boot.technician,
    now: boot.now,
  };
  for (const column of PROMOTED) {
    const value = boot.promoted[column];
    params[column] = typeof value === 'boolean' ? Number(value) : value;
  }
  const row = (await db.one<{ id: number; public_id: string; boot_count: number }>(UPSERT_ASSET, params))!;
  return { id: row.id, public_id: row.public_id, firstBoot: row.boot_count === 1 };
}

/** The asset a boot reported, by its `record_id`; notes and tests attach to it. */
export async function findAssetByRecord(
  db: SqlRunner,
  accountId: number,
  recordId: string,
): Promise<{ id: number; public_id: string } | undefined> {
  return db.one<{ id: number; public_id: string }>(
    `SELECT id, public_id FROM assets WHERE account_id = @account_id AND record_id = @record_id
      ORDER BY last_booted_at DESC, id DESC LIMIT 1`,
    { account_id: accountId, record_id: recordId },
  );
}

export async function setAssetNotes(db: SqlRunner, assetId: number, notes: string, now: string): Promise<void> {
  await db.run('UPDATE assets SET notes = @notes, updated_at = @now WHERE id = @id', { notes, now, id: assetId });
}

/**
 * Stores a boot's full test snapshot: it replaces that boot's earlier snapshot (spec 2) and the
 * asset's `test_results`, and is kept beside the other boots' runs (issue 28, item 14).
 */
export async function setAssetTests(db: SqlRunner, assetId: number, recordId: string, tests: TestSnapshot, now: string): Promise<void> {
  const json = JSON.stringify(tests);
  await db.run('UPDATE assets SET test_results = @tests, updated_at = @now WHERE id = @id', { tests: json, now, id: assetId });
  await db.run(
    `INSERT INTO asset_test_runs (asset_id, record_id, tests, submitted_at) VALUES (@id, @record_id, @tests, @now)
     ON CONFLICT (asset_id, record_id) DO UPDATE SET tests = excluded.tests, submitted_at = excluded.submitted_at`,
    { id: assetId, record_id: recordId, tests: json, now },
  );
}

/** Every boot's test snapshot of an asset, newest first. */
export async function listAssetTestRuns(db: SqlRunner, assetId: number): Promise<TestRun[]> {
  const rows = await db.many<{ record_id: string; tests: string; submitted_at: string }>(
    'SELECT record_id, tests, submitted_at FROM asset_test_runs WHERE asset_id = @id ORDER BY submitted_at DESC, record_id DESC',
    { id: assetId },
  );
  return rows.map((r) => ({ record_id: r.record_id, submitted_at: r.submitted_at, tests: JSON.parse(r.tests) as TestSnapshot }));
}
