import { certificateNumber, newId, type CertificateStatus } from '@erasure/shared';
import type { StoredCertificate } from '../../domain/certificates/tamper-check.js';
import type { SqlRunner } from '../sql/database.js';

/** A certificate row as stored (migration 003): the columns the tamper check reads, and the rest. */
export interface CertificateRow extends StoredCertificate {
  id: number;
  account_id: number;
  wipe_result_id: number;
  sequence: number;
  generated_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The language its pages were drawn in, fixed by its job's first run; null before that, and on rows from before languages (English). */
  language: string | null;
}

/**
 * Creates the pending certificate of a certifiable wipe result, numbering it from the
 * account's counter. Must run inside the caller's write transaction (the one that inserts the
 * wipe result): the upsert … RETURNING and the INSERT then commit or roll back together, which
 * is what makes the sequence gap-free. The increment is one statement on the account's counter
 * row, never a read of max()+1: on PostgreSQL (READ COMMITTED) a concurrent issuer of the same
 * account waits on that row's lock (or, for the account's very first number, on the unique key
 * of the row being inserted) until this transaction ends, then increments the committed value;
 * on SQLite the single writer does the same. A second call for the same wipe result is a no-op.
 */
export async function createCertificate(
  db: SqlRunner,
  input: { accountId: number; wipeResultId: number; now: string },
): Promise<{ id: number; public_id: string; certificate_number: string }> {
  const existing = await db.one<{ id: number; public_id: string; certificate_number: string }>(
    'SELECT id, public_id, certificate_number FROM certificates WHERE wipe_result_id = @wipe_result_id',
    { wipe_result_id: input.wipeResultId },
  );
  if (existing) return existing;
  const { last_value: sequence } = (await db.one<{ last_value: number }>(
    `INSERT INTO certificate_sequences (account_id, last_value) VALUES (@account_id, 1)
     ON CONFLICT (account_id) DO UPDATE SET last_value = certificate_sequences.last_value + 1
     RETURNING last_value`,
    { account_id: input.accountId },
  ))!;
  const row = {
    public_id: newId('cert'),
    account_id: input.accountId,
    wipe_result_id: input.wipeResultId,
    sequence,
    certificate_number: certificateNumber(sequence),
    now: input.now,
  };
  const { id } = (await db.one<{ id: number }>(
    `INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number,
                               status, created_at, updated_at)
     VALUES (@public_id, @account_id, @wipe_result_id, @sequence, @certificate_number, 'pending', @now, @now)
     RETURNING id`,
    row,
  ))!;
  return { id, public_id: row.public_id, certificate_number: row.certificate_number };
}

/**
 * Moves a certificate and its wipe result's `certificate_status` together (spec 2 keeps them
 * equal). Two statements: run it inside the caller's transaction.
 */
export async function setCertificateStatus(
  db: SqlRunner,
  certificateId: number,
  status: CertificateStatus,
  now: string,
  lastError: string | null = null,
): Promise<void> {
  const row = await db.one<{ wipe_result_id: number }>(
    `UPDATE certificates SET status = @status, last_error = @last_error, updated_at = @now WHERE id = @id
     RETURNING wipe_result_id`,
    { status, last_error: lastError, now, id: certificateId },
  );
  if (row) {
    await db.run('UPDATE wipe_results SET certificate_status = @status, updated_at = @now WHERE id = @id', {
      status,
      now,
      id: row.wipe_result_id,
    });
  }
}

/**
 * Records the signed content once. `WHERE content IS NULL` makes the first signature win: a
 * retry, or a second worker that raced the first, reads back and renders the stored one, so
 * every attempt produces the same PDF bytes.
 */
export async function saveSignedContent(
  db: SqlRunner,
  certificateId: number,
  input: { content: string; signature: string; signedAt: string; now: string },
): Promise<CertificateRow> {
  await db.run(
    `UPDATE certificates SET content = @content, signature = @signature, signed_at = @signed_at, updated_at = @now
      WHERE id = @id AND content IS NULL`,
    { content: input.content, signature: input.signature, signed_at: input.signedAt, now: input.now, id: certificateId },
  );
  return (await findCertificateById(db, certificateId))!;
}

/**
 * Signs a not yet complete certificate's content anew: its record names a PDF signing certificate
 * that is no longer the one to render with (rotated or reconfigured between attempts). Nothing
 * signed with the old content was ever served, since only complete certificates are.
 */
export async function replaceSignedContent(
  db: SqlRunner,
  certificateId: number,
  input: { content: string; signature: string; signedAt: string; now: string },
): Promise<CertificateRow> {
  await db.run(
    `UPDATE certificates SET content = @content, signature = @signature, signed_at = @signed_at, updated_at = @now
      WHERE id = @id AND status <> 'complete'`,
    { content: input.content, signature: input.signature, signed_at: input.signedAt, now: input.now, id: certificateId },
  );
  return (await findCertificateById(db, certificateId))!;
}

/** Marks the certificate complete with the durable objects' keys and hashes (inside the caller's transaction). */
export async function markCertificateComplete(
  db: SqlRunner,
  certificateId: number,
  input: { certificateKey: string; certificateSha256: string; reportKey: string; reportSha256: string; now: string },
): Promise<void> {
  await db.run(
    `UPDATE certificates SET certificate_key = @certificate_key, certificate_sha256 = @certificate_sha256,
                             report_key = @report_key, report_sha256 = @report_sha256,
                             generated_at = @now, updated_at = @now
      WHERE id = @id`,
    {
      certificate_key: input.certificateKey,
      certificate_sha256: input.certificateSha256,
      report_key: input.reportKey,
      report_sha256: input.reportSha256,
      now: input.now,
      id: certificateId,
    },
  );
  await setCertificateStatus(db, certificateId, 'complete', input.now);
}

/** A certificate by row id. */
export async function findCertificateById(db: SqlRunner, id: number): Promise<CertificateRow | undefined> {
  return db.one<CertificateRow>('SELECT * FROM certificates WHERE id = @id', { id });
}

/** The certificate of a wipe result (row id); at most one, by the UNIQUE constraint. */
export async function findCertificateByWipeResult(db: SqlRunner, wipeResultId: number): Promise<CertificateRow | undefined> {
  return db.one<CertificateRow>('SELECT * FROM certificates WHERE wipe_result_id = @wipe_result_id', { wipe_result_id: wipeResultId });
}

/** A certificate by its public `cert_…` id. */
export async function findCertificateByPublicId(db: SqlRunner, publicId: string): Promise<CertificateRow | undefined> {
  return db.one<CertificateRow>('SELECT * FROM certificates WHERE public_id = @public_id', { public_id: publicId });
}

/** One line of `admin list-certificates` (CONTRACT.md). */
export interface CertificateListing {
  id: string;
  certificate_number: string;
  wipe_result_id: string;
  status: CertificateStatus;
  drive_serial: string | null;
}

/** The account's certificates, newest first (the sequence is the issue order). */
export async function listCertificates(db: SqlRunner, accountId: number): Promise<CertificateListing[]> {
  return db.many<CertificateListing>(
    `SELECT c.public_id AS id, c.certificate_number, w.public_id AS wipe_result_id, c.status, w.drive_serial
       FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id
      WHERE c.account_id = @account_id ORDER BY c.sequence DESC`,
    { account_id: accountId },
  );
}

/** A certificate of the account by its number (UNIQUE per account), with its wipe's public id: the public API's record (issue 31 item 5). */
export async function findCertificateByNumber(
  db: SqlRunner,
  accountId: number,
  number: string,
): Promise<(CertificateRow & { wipe_public_id: string }) | undefined> {
  return db.one<CertificateRow & { wipe_public_id: string }>(
    `SELECT c.*, w.public_id AS wipe_public_id
       FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id
      WHERE c.account_id = @account_id AND c.certificate_number = @number`,
    { account_id: accountId, number },
  );
}
