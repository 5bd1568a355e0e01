import { newId, type CertificateStatus, type InternalWipeResultRequest } from '@erasure/shared';
import { createCertificate } from './certificates.js';
import { WIPE_JOB_DETAIL_SQL } from './job-details.js';
import type { SqlRunner } from '../sql/database.js';

export const CERTIFICATE_JOB = 'certificate';

const FIELDS = [
  'drive_serial', 'drive_model', 'drive_capacity_gb', 'wipe_method', 'passes_completed', 'started_at',
  'completed_at', 'verification_hash', 'wipe_status', 'technique', 'validation', 'disposition',
  'markings_removed', 'tool_components', 'verification_result',
] as const satisfies readonly (keyof InternalWipeResultRequest)[];

export interface StoredWipeResult {
  id: number;
  public_id: string;
  certificate_status: CertificateStatus | null;
  /** 1 when this result is certified (it asked to be, and a check-in of its token issued its job_id). */
  certifiable: number;
}

/**
 * Issues the certificate of a certifiable first receipt inside the transaction that stores it
 * (`db` is that transaction), and returns the wipe result's resulting `certificate_status`.
 */
export type CertificateIssuer = (
  db: SqlRunner,
  subject: { accountId: number; wipeResultId: number; now: string },
) => Promise<CertificateStatus>;

/** The cloud's policy: the certificate (and its number) exists from the first receipt, beside its durable job. */
export const queueCertificate: CertificateIssuer = async (db, subject) => {
  await createCertificate(db, subject);
  await enqueueJob(db, CERTIFICATE_JOB, subject.wipeResultId, subject.now);
  return 'pending';
};

/**
 * True when the job_id, or its unsuffixed form, was handed out by a check-in of another token of
 * the account (check-in job_ids are unique across all accounts).
 */
const ISSUED_TO_ANOTHER_TOKEN = `EXISTS (SELECT 1 FROM checkins o
                WHERE o.job_id IN (@job_id, @unsuffixed_job_id) AND o.account_id = @account_id AND o.token_id <> @token_id)`;

/**
 * Stores a wipe result idempotently on (account, job_id). The INSERT … ON CONFLICT DO NOTHING is
 * the single statement that decides "first receipt": of N concurrent duplicates exactly one
 * inserts. The same statement decides whether the result is certified: it must ask to be
 * (`ownReason` null) and name a job_id that a check-in of the same token issued (`issuedJobId`,
 * see domain/device/issued-job.ts): a check-in of another token of the account, even one of the
 * other product, spends nothing here. Otherwise it is stored with the reason, unless its job_id
 * (or the check-in it would stand for, `unsuffixedJobId`) was issued to another token of the
 * account: stored, it would occupy the job_id the genuine result needs (issue 28 item 3), so the
 * same statement inserts nothing and the caller refuses it. A
 * certified first receipt enqueues its certificate job in the same transaction, so a committed
 * result always has its durable job: `db` is the caller's transaction (the device write's), in
 * which the insert, the certificate's number and the job commit or roll back together.
 */
export async function storeWipeResult(
  db: SqlRunner,
  input: {
    accountId: number;
    tokenId: number;
    record: InternalWipeResultRequest;
    /** Why the result itself is not certifiable (failed, cancelled, rejected), or null. */
    ownReason: string | null;
    /** The check-in job_id this result's job_id stands for; undefined when it cannot name one. */
    issuedJobId: string | undefined;
    notIssuedReason: string;
    /** The job_id without its engine suffix `-N`, when it has one: a check-in job_id it may name. */
    unsuffixedJobId?: string | null | undefined;
    now: string;
    issueCertificate?: CertificateIssuer | undefined;
  },
): Promise<{ created: boolean; result: StoredWipeResult } | { issuedToAnotherToken: true }> {
  const params: Record<string, unknown> = {
    public_id: newId('wr'),
    account_id: input.accountId,
    token_id: input.tokenId,
    job_id: input.record.job_id,
    own_reason: input.ownReason,
    issued_job_id: input.issuedJobId ?? null,
    not_issued: input.notIssuedReason,
    unsuffixed_job_id: input.unsuffixedJobId ?? null,
    now: input.now,
  };
  for (const field of FIELDS) {
    const value = input.record[field];
    params[field] = typeof value === 'boolean' ? Number(value) : (value ?? null);
  }
  // Issue 30 item 6: the grade beside the spec fields, its own column for sorting; the rest as sent.
  params.health_grade = input.record.health?.grade ?? null;
  params.health_json = input.record.health ? JSON.stringify(input.record.health) : null;
  // Issue 31 item 6: the job details typed at the kiosk for the record it names, copied in this statement.
  params.record_id = input.record.record_id ?? null;
  const inserted = await db.one<StoredWipeResult>(
    `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, ${FIELDS.join(', ')}, health_grade, health_json,
                               customer, lot_reference, asset_tag, certifiable, certificate_status, uncertified_reason, created_at, updated_at)
     SELECT @public_id, @account_id, @token_id, @job_id, ${FIELDS.map((f) => `@${f}`).join(', ')}, @health_grade, @health_json,
            ${WIPE_JOB_DETAIL_SQL('customer')}, ${WIPE_JOB_DETAIL_SQL('lot_reference')}, ${WIPE_JOB_DETAIL_SQL('job_asset_tag')},
            CASE WHEN CAST(@own_reason AS TEXT) IS NULL AND issued THEN 1 ELSE 0 END,
            CASE WHEN CAST(@own_reason AS TEXT) IS NULL AND issued THEN 'pending' END,
            CASE WHEN CAST(@own_reason AS TEXT) IS NOT NULL THEN @own_reason WHEN issued THEN NULL ELSE @not_issued END,
            @now, @now
       FROM (SELECT EXISTS (SELECT 1 FROM checkins c WHERE c.job_id = @issued_job_id AND c.token_id = @token_id AND c.account_id = @account_id) AS issued,
                    ${ISSUED_TO_ANOTHER_TOKEN} AS squatting) AS checkin
      WHERE NOT squatting
     ON CONFLICT (account_id, job_id) DO NOTHING
     RETURNING id, public_id, certificate_status, certifiable`,
    params,
  );
  if (inserted) {
    if (inserted.certifiable === 1) {
      const subject = { accountId: input.accountId, wipeResultId: inserted.id, now: input.now };
      inserted.certificate_status = await (input.issueCertificate ?? queueCertificate)(db, subject);
    }
    return { created: true, result: inserted };
  }
  // Nothing inserted: a duplicate, or a job_id of another token's check-in. The check-in rows
  // are never changed, so asking again here gives the answer the insert's statement had.
  const existing = await db.one<StoredWipeResult & { squatting: number | boolean }>(
    `SELECT w.id, w.public_id, w.certificate_status, w.certifiable, ${ISSUED_TO_ANOTHER_TOKEN} AS squatting
       FROM (SELECT 1 AS one) AS probe
       LEFT JOIN wipe_results w ON w.account_id = @account_id AND w.job_id = @job_id`,
    { account_id: input.accountId, token_id: input.tokenId, job_id: input.record.job_id, unsuffixed_job_id: input.unsuffixedJobId ?? null },
  );
  if (!existing || existing.squatting || existing.id === null) return { issuedToAnotherToken: true };
  const { squatting: _squatting, ...result } = existing;
  return { created: false, result };
}

/** Adds a durable job row; a second enqueue of the same subject is a no-op. */
export async function enqueueJob(db: SqlRunner, kind: string, subjectId: number, now: string): Promise<void> {
  await db.run(
    `INSERT INTO jobs (kind, subject_id, status, run_at, created_at, updated_at)
     VALUES (@kind, @subject_id, 'pending', @now, @now, @now) ON CONFLICT (kind, subject_id) DO NOTHING`,
    { kind, subject_id: subjectId, now },
  );
}
