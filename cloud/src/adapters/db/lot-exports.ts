import type { SqlRunner } from '../sql/database.js';
import { enqueueJob } from './wipe-results.js';
import type { ObjectStore } from '../objects/local-store.js';

/** The durable job kind that makes a lot export (issue 31 item 2); its subject is `lot_exports.id`. */
export const LOT_EXPORT_JOB = 'lot_export';

export type LotExportFormat = 'zip' | 'pdf';
export type LotExportStatus = 'pending' | 'running' | 'done' | 'failed';

/** A lot export as migration 025 keeps it. */
export interface LotExportRow {
  id: number;
  public_id: string;
  account_id: number;
  format: LotExportFormat;
  /** JSON array of wipe public ids, in the grid's order. */
  wipe_ids: string;
  status: LotExportStatus;
  done: number;
  total: number;
  object_key: string | null;
  lot_document_id: string | null;
  error: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, public_id, account_id, format, wipe_ids, status, done, total, object_key, lot_document_id, error, expires_at, created_at, updated_at';

/** Records the export and its job in one go (call inside a transaction): a 202 means both are committed. */
export async function createLotExport(
  db: SqlRunner,
  input: { publicId: string; accountId: number; format: LotExportFormat; wipeIds: readonly string[]; now: string },
): Promise<LotExportRow> {
  await db.run(
    `INSERT INTO lot_exports (public_id, account_id, format, wipe_ids, status, done, total, created_at, updated_at)
     VALUES (@public_id, @account_id, @format, @wipe_ids, 'pending', 0, @total, @now, @now)`,
    { public_id: input.publicId, account_id: input.accountId, format: input.format, wipe_ids: JSON.stringify(input.wipeIds), total: input.wipeIds.length, now: input.now },
  );
  const row = (await findLotExport(db, input.publicId))!;
  await enqueueJob(db, LOT_EXPORT_JOB, row.id, input.now);
  return row;
}

export async function findLotExport(db: SqlRunner, publicId: string): Promise<LotExportRow | undefined> {
  return db.one<LotExportRow>(`SELECT ${COLUMNS} FROM lot_exports WHERE public_id = @public_id`, { public_id: publicId });
}

export async function lotExportById(db: SqlRunner, id: number): Promise<LotExportRow | undefined> {
  return db.one<LotExportRow>(`SELECT ${COLUMNS} FROM lot_exports WHERE id = @id`, { id });
}

/** Status and progress as the worker moves on; `done` never goes past `total`. */
export async function setLotExportProgress(
  db: SqlRunner,
  id: number,
  input: { status: LotExportStatus; done: number; now: string; error?: string | null },
): Promise<void> {
  await db.run(
    `UPDATE lot_exports SET status = @status, done = CASE WHEN @done > total THEN total ELSE @done END,
                            error = @error, updated_at = @now
      WHERE id = @id`,
    { id, status: input.status, done: input.done, error: input.error ?? null, now: input.now },
  );
}

/** The export is made: its object, its lot document (PDF) and when the link stops working. */
export async function completeLotExport(
  db: SqlRunner,
  id: number,
  input: { objectKey: string; lotDocumentId: string | null; expiresAt: string; now: string },
): Promise<void> {
  await db.run(
    `UPDATE lot_exports SET status = 'done', done = total, object_key = @object_key, lot_document_id = @lot_document_id,
                            error = NULL, expires_at = @expires_at, updated_at = @now
      WHERE id = @id`,
    { id, object_key: input.objectKey, lot_document_id: input.lotDocumentId, expires_at: input.expiresAt, now: input.now },
  );
}

/**
 * Removes the files of exports past `expires_at` and forgets their keys (the row stays, so the
 * link answers 410 Gone rather than 404). Returns how many were removed.
 */
export async function removeExpiredLotExports(db: SqlRunner, store: ObjectStore, now: string): Promise<number> {
  if (!store.remove) return 0;
  const expired = await db.many<{ id: number; object_key: string }>(
    `SELECT id, object_key FROM lot_exports WHERE status = 'done' AND object_key IS NOT NULL AND expires_at <= @now`,
    { now },
  );
  for (const row of expired) {
    await store.remove(row.object_key);
    await db.run('UPDATE lot_exports SET object_key = NULL, updated_at = @now WHERE id = @id', { id: row.id, now });
  }
  return expired.length;
}

/**
 * Extends a held lot export job's lease to `leaseUntil`, as its progress is written: a lot of
 * thousands of certificates may outlast one lease, and only a worker that stopped (and so stopped
 * renewing) should lose it. False, and no change, when the claim is no longer this one.
 */
export async function renewLotExportLease(db: SqlRunner, job: { id: number; attempts: number }, leaseUntil: string, now: string): Promise<boolean> {
  const changed = await db.run(
    `UPDATE jobs SET lease_until = @lease, updated_at = @now WHERE id = @id AND status = 'running' AND attempts = @attempts`,
    { lease: leaseUntil, now, id: job.id, attempts: job.attempts },
  );
  return changed === 1;
}
