import type { FloorReportBody } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';
import type { ProgressMarks } from '../../domain/floor/stalls.js';

/** The floor view (issue 32): each machine's latest report, as stored. */
export interface FloorMachineRow {
  machine_id: string;
  report: FloorReportBody;
  received_at: string;
  boot_seen_at: string;
  token_id: number;
  site: string | null;
  /** Each drive's last progress and since when it stands still (stalls). */
  progress: ProgressMarks;
}

/** A wipe result that may end a reported drive on the board. */
export interface FloorResultRow {
  token_id: number;
  drive_serial: string;
  status: 'completed' | 'failed' | 'cancelled';
  created_at: string;
  certificate_number: string | null;
}

/** PostgreSQL channel of stored reports; the payload is the account's id. */
export const FLOOR_CHANNEL = 'erasure_floor_reports';

/**
 * Stores a report as the machine's row, in one statement: a first report inserts it; a report of
 * a new boot replaces it whatever its sequence; a report of the same boot replaces it only when its
 * sequence is higher (a late or repeated one is ignored). True when the report was stored.
 */
export async function storeFloorReport(
  db: SqlRunner,
  row: { accountId: number; tokenId: number; report: FloorReportBody; receivedAt: string; progress: ProgressMarks },
): Promise<boolean> {
  const stored = await db.one<{ machine_id: string }>(
    `INSERT INTO floor_machines (account_id, machine_id, boot_id, sequence, token_id, report, received_at, boot_seen_at, progress)
     VALUES (@account, @machine, @boot, @sequence, @token, @report, @now, @now, @progress)
     ON CONFLICT (account_id, machine_id) DO UPDATE SET
       boot_id = excluded.boot_id, sequence = excluded.sequence, token_id = excluded.token_id, report = excluded.report,
       progress = excluded.progress,
       received_at = excluded.received_at,
       boot_seen_at = CASE WHEN floor_machines.boot_id = excluded.boot_id THEN floor_machines.boot_seen_at ELSE excluded.boot_seen_at END
     WHERE floor_machines.boot_id <> excluded.boot_id OR floor_machines.sequence < excluded.sequence
     RETURNING machine_id`,
    {
      account: row.accountId,
      machine: row.report.machine_id,
      boot: row.report.boot_id,
      sequence: row.report.sequence,
      token: row.tokenId,
      report: JSON.stringify(row.report),
      now: row.receivedAt,
      progress: JSON.stringify(row.progress),
    },
  );
  // Inside the transaction: delivered to every listening instance when it commits, never before.
  if (stored && db.dialect === 'postgres') await db.one(`SELECT pg_notify('${FLOOR_CHANNEL}', CAST(@account AS TEXT)) AS notified`, { account: row.accountId });
  return stored !== undefined;
}

/** Rows of every account last heard before `cutoff` (a day ago) are removed; the board already shows none of them. */
export async function pruneFloorMachines(db: SqlRunner, cutoff: string): Promise<number> {
  return db.run('DELETE FROM floor_machines WHERE received_at < @cutoff', { cutoff });
}

/** The account's machines heard since `cutoff`, with their token's site. */
export async function readFloorMachines(db: SqlRunner, accountId: number, cutoff: string): Promise<FloorMachineRow[]> {
  const rows = await db.many<{ machine_id: string; report: string; received_at: string; boot_seen_at: string; token_id: number; site: string | null; progress: string }>(
    `SELECT f.machine_id, f.report, f.received_at, f.boot_seen_at, f.token_id, t.site, f.progress
       FROM floor_machines f JOIN license_tokens t ON t.id = f.token_id
      WHERE f.account_id = @account AND f.received_at >= @cutoff
      ORDER BY f.machine_id`,
    { account: accountId, cutoff },
  );
  return rows.map((r) => ({ ...r, token_id: Number(r.token_id), report: JSON.parse(r.report) as FloorReportBody, progress: JSON.parse(r.progress) as ProgressMarks }));
}

/** The account's wipe results stored since `since`, of the given tokens: what ends drives on the board. */
export async function readFloorResults(db: SqlRunner, accountId: number, tokenIds: readonly number[], since: string): Promise<FloorResultRow[]> {
  if (tokenIds.length === 0) return [];
  const rows = await db.many<Omit<FloorResultRow, 'status'> & { status: FloorResultRow['status'] | null }>(
    `SELECT w.token_id, w.drive_serial, w.wipe_status AS status, w.created_at, c.certificate_number
       FROM wipe_results w LEFT JOIN certificates c ON c.wipe_result_id = w.id
      WHERE w.account_id = @account AND w.created_at >= @since AND w.drive_serial IS NOT NULL
        AND w.token_id IN (${tokenIds.map((_, i) => `@t${i}`).join(', ')})`,
    { account: accountId, since, ...Object.fromEntries(tokenIds.map((id, i) => [`t${i}`, id])) },
  );
  // A result that names no status is a completed one (spec 2).
  return rows.map((r) => ({ ...r, token_id: Number(r.token_id), status: r.status ?? 'completed' }));
}

/** The boot and progress marks held for a machine, to carry its stall clock into the next report. */
export async function readFloorProgress(db: SqlRunner, accountId: number, machineId: string): Promise<{ boot_id: string; progress: ProgressMarks } | undefined> {
  const row = await db.one<{ boot_id: string; progress: string }>('SELECT boot_id, progress FROM floor_machines WHERE account_id = @account AND machine_id = @machine', {
    account: accountId,
    machine: machineId,
  });
  return row && { boot_id: row.boot_id, progress: JSON.parse(row.progress) as ProgressMarks };
}

/** The account's stall time in seconds (10 minutes unless it set its own), and the reporting token's site. */
export async function readFloorContext(db: SqlRunner, accountId: number, tokenId: number): Promise<{ stallSeconds: number; site: string | null }> {
  const row = await db.one<{ seconds: number; site: string | null }>(
    'SELECT a.floor_stall_seconds AS seconds, t.site FROM accounts a JOIN license_tokens t ON t.account_id = a.id WHERE a.id = @account AND t.id = @token',
    { account: accountId, token: tokenId },
  );
  return { stallSeconds: Number(row?.seconds ?? 600), site: row?.site ?? null };
}

/** Sets the account's stall time in seconds. */
export async function setFloorStallSeconds(db: SqlRunner, accountId: number, seconds: number): Promise<void> {
  await db.run('UPDATE accounts SET floor_stall_seconds = @seconds WHERE id = @account', { seconds, account: accountId });
}

/** The account's stall time in seconds, as the board shows it. */
export async function readAccountStallSeconds(db: SqlRunner, accountId: number): Promise<number> {
  const row = await db.one<{ seconds: number }>('SELECT floor_stall_seconds AS seconds FROM accounts WHERE id = @account', { account: accountId });
  return Number(row?.seconds ?? 600);
}
