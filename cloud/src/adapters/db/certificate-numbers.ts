import type { CertificateNumberEntry } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

const SELECT_NUMBERS = `SELECT w.job_id, w.public_id AS wipe_result_id, c.certificate_number, w.certificate_status
       FROM wipe_results w
       LEFT JOIN certificates c ON c.wipe_result_id = w.id
      WHERE w.account_id = @account_id AND w.job_id`;

/** The job id list: a JSON array walked by json_each on SQLite, a text[] (node-postgres binds a JS array as one) on PostgreSQL. */
const FIND_NUMBERS = {
  sqlite: `${SELECT_NUMBERS} IN (SELECT value FROM json_each(@job_ids)) ORDER BY w.id`,
  postgres: `${SELECT_NUMBERS} = ANY(CAST(@job_ids AS TEXT[])) ORDER BY w.id`,
} as const;

/**
 * The wipe results of `jobIds` in one account, each with its certificate's number when one was
 * issued. The account filter is in the query itself, so another account's job ids read as
 * unknown. The status is the wipe result's own column (kept equal to the certificate's).
 */
export async function findCertificateNumbers(db: SqlRunner, accountId: number, jobIds: readonly string[]): Promise<CertificateNumberEntry[]> {
  if (jobIds.length === 0) return [];
  return db.many<CertificateNumberEntry>(FIND_NUMBERS[db.dialect], {
    account_id: accountId,
    job_ids: db.dialect === 'sqlite' ? JSON.stringify(jobIds) : [...jobIds],
  });
}
