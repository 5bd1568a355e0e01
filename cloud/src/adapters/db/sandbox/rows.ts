import type { Fingerprint, TestSnapshot } from '@erasure/shared';
import type { AssetFacts } from '../../../domain/webhooks/payloads.js';
import type { SourceMachine } from '../certificate-sources.js';
import type { SqlRunner } from '../../sql/database.js';

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null; // a damaged column lists as null rather than failing the whole listing
  }
};

/** Spec 2 "Sandbox asset rows". */
export interface SandboxAssetRow {
  prefix_id: string;
  account_id: string;
  hardware_uid: string;
  fingerprint: unknown;
  notes: string | null;
  test_results: unknown;
  first_seen_at: string;
  last_booted_at: string;
}

/** Every asset, most recently booted first. */
export async function listSandboxAssets(db: SqlRunner): Promise<SandboxAssetRow[]> {
  const rows = await db.many<SandboxAssetRow & { fingerprint: string; test_results: string }>(
    `SELECT s.public_id AS prefix_id, a.public_id AS account_id, s.hardware_uid, s.fingerprint, s.notes,
            s.test_results, s.first_seen_at, s.last_booted_at
       FROM assets s JOIN accounts a ON a.id = s.account_id ORDER BY s.last_booted_at DESC, s.id DESC`,
  );
  return rows.map((r) => ({ ...r, fingerprint: parse(r.fingerprint), test_results: parse(r.test_results) ?? {} }));
}

const WIPE_FIELDS = [
  'drive_serial', 'drive_model', 'drive_capacity_gb', 'wipe_method', 'passes_completed', 'started_at',
  'completed_at', 'verification_hash', 'wipe_status', 'technique', 'validation', 'disposition',
  'markings_removed', 'tool_components', 'verification_result',
] as const;

/** A wipe result as the harness lists it: its ids, drive and wipe fields, certificate status. */
export type SandboxWipeResultRow = Record<string, unknown> & { wipe_result_id: string; account_id: string; job_id: string };

/** Every wipe result, newest first; `numeric_account_id` lets the caller match drives to machines. */
export async function listSandboxWipeResults(db: SqlRunner): Promise<(SandboxWipeResultRow & { numeric_account_id: number })[]> {
  const rows = await db.many<SandboxWipeResultRow & { numeric_account_id: number; markings_removed: number | null }>(
    `SELECT w.public_id AS wipe_result_id, a.public_id AS account_id, w.account_id AS numeric_account_id,
            t.prefix_id AS license_token_id, w.job_id, ${WIPE_FIELDS.map((f) => `w.${f}`).join(', ')},
            w.certificate_status, w.created_at
       FROM wipe_results w JOIN accounts a ON a.id = w.account_id JOIN license_tokens t ON t.id = w.token_id
      ORDER BY w.created_at DESC, w.id DESC`,
  );
  return rows.map((r) => ({ ...r, markings_removed: r.markings_removed === null ? null : r.markings_removed === 1 }));
}

/** A certificate joined with its wipe result and account, as `GET /sandbox/certificates` lists it. */
export interface SandboxCertificateJoin {
  id: number;
  public_id: string;
  certificate_number: string;
  account_name: string;
  signed_at: string | null;
  wipe_result_row_id: number;
  wipe_result_id: string;
  drive_serial: string | null;
  drive_model: string | null;
}

/** Every certificate, newest first. */
export async function listSandboxCertificates(db: SqlRunner): Promise<SandboxCertificateJoin[]> {
  return db.many<SandboxCertificateJoin>(
    `SELECT c.id, c.public_id, c.certificate_number, a.name AS account_name, c.signed_at,
            w.id AS wipe_result_row_id, w.public_id AS wipe_result_id, w.drive_serial, w.drive_model
       FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id JOIN accounts a ON a.id = c.account_id
      ORDER BY c.created_at DESC, c.id DESC`,
  );
}

/**
 * Spec 1: the sandbox matches a drive to its machine by scanning the account's stored
 * fingerprints for the serial in `storage[]` (the cloud reads an indexed storage-serials
 * column instead). The most recently booted machine wins.
 */
export async function findMachineByDriveScan(
  db: SqlRunner,
  accountId: number,
  driveSerial: string | null | undefined,
): Promise<SourceMachine | null> {
  const serial = driveSerial?.trim();
  if (!serial) return null;
  const rows = await db.many<Omit<SourceMachine, 'fingerprint' | 'test_results'> & { fingerprint: string; test_results: string }>(
    `SELECT public_id, manufacturer, model, serial_number, engine_version, fingerprint, test_results, notes
       FROM assets WHERE account_id = @account_id ORDER BY last_booted_at DESC, id DESC`,
    { account_id: accountId },
  );
  for (const row of rows) {
    const fingerprint = parse(row.fingerprint) as Fingerprint | null;
    const storage: unknown = fingerprint?.storage;
    if (!Array.isArray(storage)) continue;
    const holds = storage.some((d: unknown) => typeof d === 'object' && d !== null && String((d as { serial?: unknown }).serial ?? '').trim() === serial);
    if (holds) return { ...row, fingerprint, test_results: parse(row.test_results) as TestSnapshot | null };
  }
  return null;
}

/** The asset an event names, as the cloud's payload builders take it. */
export async function findAssetForEvent(db: SqlRunner, assetId: number, accountPublicId: string): Promise<AssetFacts | undefined> {
  const row = await db.one<Omit<AssetFacts, 'accountId' | 'testResults'> & { testResults: string }>(
    `SELECT public_id AS id, record_id AS recordId, manufacturer, model, serial_number AS serialNumber, asset_tag AS assetTag,
            cpu_model AS cpuModel, memory_total_bytes AS memoryTotalBytes, storage_summary AS storageSummary,
            storage_serials AS storageSerials, battery_health_pct AS batteryHealthPct, engine_version AS engineVersion,
            technician, first_seen_at AS firstSeenAt, updated_at AS updatedAt, test_results AS testResults
       FROM assets WHERE id = @id`,
    { id: assetId },
  );
  return row && { ...row, accountId: accountPublicId, testResults: (parse(row.testResults) ?? {}) as AssetFacts['testResults'] };
}
