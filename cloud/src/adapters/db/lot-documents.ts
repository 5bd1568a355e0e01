import type { SqlRunner } from '../sql/database.js';

/** One drive as the lot document's row keeps it (migration 022): enough for its verify page. */
export interface LotDocumentDriveRow {
  certificate_id: string | null;
  certificate_number: string | null;
  serial: string | null;
  model: string | null;
  status: string;
}

export interface LotDocumentRow {
  public_id: string;
  account_id: number;
  /** JSON of `LotSummary` (domain/certificates/lot-document.ts). */
  summary: string;
  /** JSON array of {@link LotDocumentDriveRow}, in the document's order. */
  drives: string;
  document_sha256: string;
  created_at: string;
}

/** Records a lot document once its PDF is made, so its verify URL answers. */
export async function insertLotDocument(db: SqlRunner, row: LotDocumentRow): Promise<void> {
  await db.run(
    `INSERT INTO lot_documents (public_id, account_id, summary, drives, document_sha256, created_at)
     VALUES (@public_id, @account_id, @summary, @drives, @document_sha256, @created_at)`,
    { ...row },
  );
}

export async function findLotDocument(db: SqlRunner, publicId: string): Promise<LotDocumentRow | undefined> {
  return db.one<LotDocumentRow>(
    'SELECT public_id, account_id, summary, drives, document_sha256, created_at FROM lot_documents WHERE public_id = @public_id',
    { public_id: publicId },
  );
}

/**
 * A page of the account's lot documents for the public API (issue 31 item 5), newest first
 * (created_at, then row id: a total order), those made at or after `since` when given, and
 * how many there are. Lot documents never change, so `created_at` is their last change.
 */
export async function listLotDocuments(
  db: SqlRunner,
  filter: { accountId: number; since?: string | undefined },
  page: { limit: number; offset: number },
): Promise<{ rows: LotDocumentRow[]; count: number }> {
  const where = `account_id = @account_id${filter.since === undefined ? '' : ' AND created_at >= @since'}`;
  const params = { account_id: filter.accountId, ...(filter.since === undefined ? {} : { since: filter.since }) };
  const rows = await db.many<LotDocumentRow>(
    `SELECT public_id, account_id, summary, drives, document_sha256, created_at FROM lot_documents
      WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  const { n } = (await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM lot_documents WHERE ${where}`, params))!;
  return { rows, count: Number(n) };
}
