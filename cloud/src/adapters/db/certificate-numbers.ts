import type { CertificateNumberEntry } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

/**
 * The wipe results of `jobIds` in one account, each with its certificate's number when one was
 * issued. The account filter is in the query itself, so another account's job ids read as
 * unknown. The status is the wipe result's own column (kept equal to the certificate's).
 */
export async function findCertificateNumbers(db: SqlRunner, accountId: number, jobIds: readonly string[]): Promise<CertificateNumberEntry[]> {
  if (jobIds.length === 0) return [];
  return db.many<CertificateNumberEntry>(
    `SELECT w.job_id, w.public_id AS wipe_result_id, c.certificate_number, w.certificate_status
       FROM wipe_results w
       LEFT JOIN certificates c ON c.wipe_result_id = w.id
      WHERE w.account_id = @account_id AND w.job_id IN (SELECT value FROM json_each(@job_ids))
      ORDER BY w.id`,
    { account_id: accountId, job_ids: JSON.stringify(jobIds) },
  );
}
