import { certificateNumber, newId, type CertificateStatus } from '@erasure/shared';
import type { StoredCertificate } from '../../domain/certificates/tamper-check.js';
import type { ReadonlyDb, WritableDb } from './open.js';

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
}

/**
 * Creates the pending certificate of a certifiable wipe result, numbering it from the
 * account's counter. Must run inside the caller's write transaction (the one that inserts the
 * wipe result): the upsert … RETURNING and the INSERT then commit or roll back together, which
 * is what makes the sequence gap-free. A second call for the same wipe result is a no-op.
 */
export function createCertificate(
  db: WritableDb,
  input: { accountId: number; wipeResultId: number; now: string },
): { id: number; public_id: string; certificate_number: string } {
  const existing = db
    .prepare('SELECT id, public_id, certificate_number FROM certificates WHERE wipe_result_id = ?')
    .get(input.wipeResultId) as { id: number; public_id: string; certificate_number: string } | undefined;
  if (existing) return existing;
  const { last_value: sequence } = db
    .prepare(
      `INSERT INTO certificate_sequences (account_id, last_value) VALUES (?, 1)
       ON CONFLICT (account_id) DO UPDATE SET last_value = certificate_sequences.last_value + 1
       RETURNING last_value`,
    )
    .get(input.accountId) as { last_value: number };
  const row = {
    public_id: newId('cert'),
    account_id: input.accountId,
    wipe_result_id: input.wipeResultId,
    sequence,
    certificate_number: certificateNumber(sequence),
    now: input.now,
  };
  const { id } = db
    .prepare(
      `INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number,
                                 status, created_at, updated_at)
       VALUES (@public_id, @account_id, @wipe_result_id, @sequence, @certificate_number, 'pending', @now, @now)
       RETURNING id`,
    )
    .get(row) as { id: number };
  return { id, public_id: row.public_id, certificate_number: row.certificate_number };
}

/** Moves a certificate and its wipe result's `certificate_status` together (spec 2 keeps them equal). */
export function setCertificateStatus(
  db: WritableDb,
  certificateId: number,
  status: CertificateStatus,
  now: string,
  lastError: string | null = null,
): void {
  const row = db
    .prepare(
      `UPDATE certificates SET status = ?, last_error = ?, updated_at = ? WHERE id = ?
       RETURNING wipe_result_id`,
    )
    .get(status, lastError, now, certificateId) as { wipe_result_id: number } | undefined;
  if (row) {
    db.prepare('UPDATE wipe_results SET certificate_status = ?, updated_at = ? WHERE id = ?').run(status, now, row.wipe_result_id);
  }
}

/**
 * Records the signed content once. `WHERE content IS NULL` makes the first signature win: a
 * retry, or a second worker that raced the first, reads back and renders the stored one, so
 * every attempt produces the same PDF bytes.
 */
export function saveSignedContent(
  db: WritableDb,
  certificateId: number,
  input: { content: string; signature: string; signedAt: string; now: string },
): CertificateRow {
  db.prepare(
    `UPDATE certificates SET content = ?, signature = ?, signed_at = ?, updated_at = ?
      WHERE id = ? AND content IS NULL`,
  ).run(input.content, input.signature, input.signedAt, input.now, certificateId);
  return findCertificateById(db, certificateId)!;
}

/** Marks the certificate complete with the durable objects' keys and hashes. */
export function markCertificateComplete(
  db: WritableDb,
  certificateId: number,
  input: { certificateKey: string; certificateSha256: string; reportKey: string; reportSha256: string; now: string },
): void {
  db.prepare(
    `UPDATE certificates SET certificate_key = ?, certificate_sha256 = ?, report_key = ?, report_sha256 = ?,
                             generated_at = ?, updated_at = ?
      WHERE id = ?`,
  ).run(input.certificateKey, input.certificateSha256, input.reportKey, input.reportSha256, input.now, input.now, certificateId);
  setCertificateStatus(db, certificateId, 'complete', input.now);
}

/** A certificate by row id. */
export function findCertificateById(db: ReadonlyDb, id: number): CertificateRow | undefined {
  return db.prepare('SELECT * FROM certificates WHERE id = ?').get(id) as CertificateRow | undefined;
}

/** The certificate of a wipe result (row id); at most one, by the UNIQUE constraint. */
export function findCertificateByWipeResult(db: ReadonlyDb, wipeResultId: number): CertificateRow | undefined {
  return db.prepare('SELECT * FROM certificates WHERE wipe_result_id = ?').get(wipeResultId) as CertificateRow | undefined;
}

/** A certificate by its public `cert_…` id. */
export function findCertificateByPublicId(db: ReadonlyDb, publicId: string): CertificateRow | undefined {
  return db.prepare('SELECT * FROM certificates WHERE public_id = ?').get(publicId) as CertificateRow | undefined;
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
export function listCertificates(db: ReadonlyDb, accountId: number): CertificateListing[] {
  return db
    .prepare(
      `SELECT c.public_id AS id, c.certificate_number, w.public_id AS wipe_result_id, c.status, w.drive_serial
         FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id
        WHERE c.account_id = ? ORDER BY c.sequence DESC`,
    )
    .all(accountId) as CertificateListing[];
}
