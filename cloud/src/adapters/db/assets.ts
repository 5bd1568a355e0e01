import { newId, type Fingerprint, type TestSnapshot } from '@erasure/shared';
import type { PromotedColumns } from '../../domain/assets/promote.js';
import { prepared, type ReadonlyDb, type WritableDb } from './open.js';

export interface AssetBoot {
  accountId: number;
  hardwareUid: string;
  recordId: string;
  engineVersion: string | null;
  fingerprint: Fingerprint;
  promoted: PromotedColumns;
  /** First-reporter fields: kept from the first sighting only. */
  tokenId: number;
  technician: string | null;
  now: string;
}

const PROMOTED: readonly (keyof PromotedColumns)[] = [
  'manufacturer', 'model', 'serial_number', 'board_model', 'board_serial', 'asset_tag', 'bios_version',
  'tpm_version', 'firmware_mode', 'secure_boot', 'cpu_model', 'cpu_cores', 'cpu_threads', 'memory_total_bytes',
  'gpu', 'storage_summary', 'storage_serials', 'battery_health_pct',
];

/**
 * Creates or refreshes the machine's row in one statement keyed on (account, hardware_uid).
 * A later boot refreshes the report and promoted columns but never the first-reporter fields;
 * `boot_count` tells the caller whether this was the first boot (for `asset_reported`).
 */
export function upsertAsset(db: WritableDb, boot: AssetBoot): { id: number; public_id: string; firstBoot: boolean } {
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
  const row = prepared(
      db,
      `INSERT INTO assets (public_id, account_id, hardware_uid, record_id, engine_version, fingerprint,
                           ${PROMOTED.join(', ')}, first_token_id, technician,
                           first_seen_at, last_booted_at, audited_at, updated_at)
       VALUES (@public_id, @account_id, @hardware_uid, @record_id, @engine_version, @fingerprint,
               ${PROMOTED.map((c) => `@${c}`).join(', ')}, @first_token_id, @technician,
               @now, @now, @now, @now)
       ON CONFLICT (account_id, hardware_uid) DO UPDATE SET
         record_id = excluded.record_id,
         engine_version = excluded.engine_version,
         fingerprint = excluded.fingerprint,
         ${PROMOTED.map((c) => `${c} = excluded.${c}`).join(',\n         ')},
         boot_count = assets.boot_count + 1,
         last_booted_at = excluded.last_booted_at,
         audited_at = excluded.audited_at,
         updated_at = excluded.updated_at
       RETURNING id, public_id, boot_count`,
    )
    .get(params) as { id: number; public_id: string; boot_count: number };
  return { id: row.id, public_id: row.public_id, firstBoot: row.boot_count === 1 };
}

/** The asset a boot reported, by its `record_id`; notes and tests attach to it. */
export function findAssetByRecord(
  db: ReadonlyDb,
  accountId: number,
  recordId: string,
): { id: number; public_id: string } | undefined {
  return prepared(
      db,
      `SELECT id, public_id FROM assets WHERE account_id = ? AND record_id = ?
        ORDER BY last_booted_at DESC, id DESC LIMIT 1`,
    )
    .get(accountId, recordId) as { id: number; public_id: string } | undefined;
}

export function setAssetNotes(db: WritableDb, assetId: number, notes: string, now: string): void {
  prepared(db, 'UPDATE assets SET notes = ?, updated_at = ? WHERE id = ?').run(notes, now, assetId);
}

/** Replaces the whole test snapshot: each submission is full, never a delta (spec 2). */
export function setAssetTests(db: WritableDb, assetId: number, tests: TestSnapshot, now: string): void {
  prepared(db, 'UPDATE assets SET test_results = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(tests), now, assetId);
}
