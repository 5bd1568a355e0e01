import type { CertificateNumberEntry } from '@erasure/shared';
import type { ReadonlyDb } from './open.js';

/**
 * The wipe results of `jobIds` in one account, each with its certificate's number when one was
 * issued. The account filter is in the query itself, so another account's job ids read as
 * unknown. The status is the wipe result's own column (kept equal to the certificate's).
 */
export function findCertificateNumbers(db: ReadonlyDb, accountId: number, jobIds: readonly string[]): CertificateNumberEntry[] {
  if (jobIds.length === 0) return [];
  return db
    .prepare(
      `SELECT w.job_id, w.public_id AS wipe_result_id, c.certificate_number, w.certificate_status
         FROM wipe_results w
         LEFT JOIN certificates c ON c.wipe_result_id = w.id
        WHERE w.account_id = ? AND w.job_id IN (SELECT value FROM json_each(?))
        ORDER BY w.id`,
    )
    .all(accountId, JSON.stringify(jobIds)) as CertificateNumberEntry[];
}
