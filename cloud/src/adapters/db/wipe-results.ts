import { newId, type CertificateStatus, type InternalWipeResultRequest } from '@erasure/shared';
import { createCertificate } from './certificates.js';
import type { WritableDb } from './open.js';

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
}

/**
 * Issues the certificate of a certifiable first receipt inside the transaction that stores it,
 * and returns the wipe result's resulting `certificate_status`.
 */
export type CertificateIssuer = (db: WritableDb, subject: { accountId: number; wipeResultId: number; now: string }) => CertificateStatus;

/** The cloud's policy: the certificate (and its number) exists from the first receipt, beside its durable job. */
export const queueCertificate: CertificateIssuer = (db, subject) => {
  createCertificate(db, subject);
  enqueueJob(db, CERTIFICATE_JOB, subject.wipeResultId, subject.now);
  return 'pending';
};

/**
 * Stores a wipe result idempotently on (account, job_id). The INSERT … ON CONFLICT DO NOTHING is
 * the single statement that decides "first receipt": of N concurrent duplicates exactly one
 * inserts. A certifiable first receipt enqueues its certificate job in the same transaction, so
 * a committed result always has its durable job.
 */
export function storeWipeResult(
  db: WritableDb,
  input: {
    accountId: number;
    tokenId: number;
    record: InternalWipeResultRequest;
    certifiable: boolean;
    now: string;
    issueCertificate?: CertificateIssuer | undefined;
  },
): { created: boolean; result: StoredWipeResult } {
  const params: Record<string, unknown> = {
    public_id: newId('wr'),
    account_id: input.accountId,
    token_id: input.tokenId,
    job_id: input.record.job_id,
    certifiable: input.certifiable ? 1 : 0,
    certificate_status: input.certifiable ? 'pending' : null,
    now: input.now,
  };
  for (const field of FIELDS) {
    const value = input.record[field];
    params[field] = typeof value === 'boolean' ? Number(value) : (value ?? null);
  }
  return db.transaction(() => {
    const inserted = db
      .prepare(
        `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, ${FIELDS.join(', ')},
                                   certifiable, certificate_status, created_at, updated_at)
         VALUES (@public_id, @account_id, @token_id, @job_id, ${FIELDS.map((f) => `@${f}`).join(', ')},
                 @certifiable, @certificate_status, @now, @now)
         ON CONFLICT (account_id, job_id) DO NOTHING
         RETURNING id, public_id, certificate_status`,
      )
      .get(params) as StoredWipeResult | undefined;
    if (inserted) {
      if (input.certifiable) {
        const subject = { accountId: input.accountId, wipeResultId: inserted.id, now: input.now };
        inserted.certificate_status = (input.issueCertificate ?? queueCertificate)(db, subject);
      }
      return { created: true, result: inserted };
    }
    const existing = db
      .prepare('SELECT id, public_id, certificate_status FROM wipe_results WHERE account_id = ? AND job_id = ?')
      .get(input.accountId, input.record.job_id) as StoredWipeResult;
    return { created: false, result: existing };
  }).immediate();
}

/** Adds a durable job row; a second enqueue of the same subject is a no-op. */
export function enqueueJob(db: WritableDb, kind: string, subjectId: number, now: string): void {
  db.prepare(
    `INSERT INTO jobs (kind, subject_id, status, run_at, created_at, updated_at)
     VALUES (?, ?, 'pending', ?, ?, ?) ON CONFLICT (kind, subject_id) DO NOTHING`,
  ).run(kind, subjectId, now, now, now);
}
