import { createHash } from 'node:crypto';
import type { Clock } from '../adapters/clock.js';
import { readCertificateSources, type CertificateSources } from '../adapters/db/certificate-sources.js';
import {
  createCertificate,
  findCertificateByWipeResult,
  markCertificateComplete,
  saveSignedContent,
  setCertificateStatus,
  type CertificateRow,
} from '../adapters/db/certificates.js';
import { claimJob, finishJob, hasDueJob, releaseJob, stillHeld, type ClaimedJob } from '../adapters/db/jobs.js';
import type { WritableDb } from '../adapters/db/open.js';
import { CERTIFICATE_JOB } from '../adapters/db/wipe-results.js';
import type { ObjectStore } from '../adapters/objects/local-store.js';
import { buildCertificateContent, buildReportData } from '../domain/certificates/build-content.js';
import { canonicalJson, keyedSignature, signContent, type CertificateContent } from '../domain/certificates/certificate-content.js';
import type { SigningKey } from '../adapters/certificate-keyring.js';
import type { CertificateRenderer } from './renderer.js';

/** What `certificate_generated` subscribers are told (spec 6): the PDFs are stored. */
export interface GeneratedCertificate {
  id: string;
  certificate_number: string;
  account_id: number;
  wipe_result_id: string;
  signed_at: string;
  generated_at: string;
}

/** Ports of the certificate job. */
export interface CertificateJobDeps {
  db: WritableDb;
  clock: Clock;
  store: ObjectStore;
  /** Renders both PDFs: on this thread in tests, on worker threads in the CLI. */
  renderer: CertificateRenderer;
  /** The key to sign with now (follows rotations); its id goes into the signature. */
  signing: () => SigningKey;
  /** `PUBLIC_BASE_URL`: the verify link printed on the certificate. */
  publicBaseUrl: string;
  /**
   * Hook for the `certificate_generated` webhook. Called synchronously inside the transaction
   * that marks the certificate complete, so a delivery row it inserts commits atomically with
   * the status (no lost or phantom event on a crash). It must not do network I/O; if it throws,
   * the completion rolls back and the job is retried.
   */
  onCertificateGenerated?: (certificate: GeneratedCertificate) => void;
  /** How long a claim is held before another worker may take the job over. */
  leaseMs: number;
  /** Claims allowed per job, crashes included; past it the certificate is `failed`. */
  maxAttempts: number;
  /** Backoff before retry n (1-based): see {@link retryDelayMs}. */
  retryDelayMs(attempt: number): number;
}

/** Both documents' object keys; the file name is the last segment, as downloads name it. */
export function objectKeys(accountPublicId: string, cert: { public_id: string; certificate_number: string }) {
  const dir = `certificates/${accountPublicId}/${cert.public_id}`;
  return { certificate: `${dir}/${cert.certificate_number}.pdf`, report: `${dir}/${cert.certificate_number}-report.pdf` };
}

/**
 * `min(cap, base·2^(n-1)) + jitter`: 2 s, 4 s, 8 s … capped at 5 minutes, plus up to one base
 * of random jitter so jobs that failed together do not retry together.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random, baseMs = 2000, capMs = 300_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1)) + Math.floor(random() * baseMs);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const iso = (clock: Clock, plusMs = 0) => new Date(clock.now().getTime() + plusMs).toISOString();

/**
 * Claims one due certificate job and carries it to the end. Returns false when none was due.
 *
 * Crash safety, step by step: (1) the claim, `generating` and, on the first attempt, the signed
 * content commit together, so every later attempt renders the same bytes; (2) both PDFs are put
 * under keys fixed by the certificate (atomic, fsynced), so a re-put replaces rather than
 * duplicates; (3) only then one transaction records hashes, `complete` and job done, fenced on
 * this claim. A crash between any two steps leaves a running job whose lease runs out; the next
 * claim resumes from the stored state.
 */
export async function runNextCertificateJob(deps: CertificateJobDeps): Promise<boolean> {
  if (!hasDueJob(deps.db, CERTIFICATE_JOB, iso(deps.clock))) return false;
  const claimed = deps.db.transaction(() => claimAndSign(deps)).immediate();
  if (claimed === 'none') return false;
  if (claimed === 'given_up') return true; // work was done; a drain loop goes on
  try {
    await renderAndStore(deps, claimed);
  } catch (error) {
    const { job, cert } = claimed;
    const message = error instanceof Error ? error.message : String(error);
    const exhausted = job.attempts >= deps.maxAttempts;
    const runAt = exhausted ? null : iso(deps.clock, deps.retryDelayMs(job.attempts));
    deps.db.transaction(() => {
      if (releaseJob(deps.db, job, { runAt, error: message, now: iso(deps.clock) })) {
        setCertificateStatus(deps.db, cert.id, exhausted ? 'failed' : 'pending', iso(deps.clock), message);
      }
    }).immediate();
  }
  return true;
}

interface Claimed {
  job: ClaimedJob;
  cert: CertificateRow;
  sources: CertificateSources;
  accountPublicId: string;
}

/** Runs inside the claim transaction: claim, `generating`, and the signature on first attempt. */
function claimAndSign(deps: CertificateJobDeps): Claimed | 'none' | 'given_up' {
  const now = iso(deps.clock);
  const job = claimJob(deps.db, CERTIFICATE_JOB, now, iso(deps.clock, deps.leaseMs));
  if (!job) return 'none';
  const sources = readCertificateSources(deps.db, job.subject_id);
  if (!sources) {
    releaseJob(deps.db, job, { runAt: null, error: 'wipe result is gone', now });
    return 'given_up';
  }
  let cert = ensureCertificate(deps, sources.wipe);
  if (job.attempts > deps.maxAttempts) {
    // Every allowed attempt was claimed and none finished (crashes count): give up.
    releaseJob(deps.db, job, { runAt: null, error: 'attempts exhausted', now });
    setCertificateStatus(deps.db, cert.id, 'failed', now, 'attempts exhausted');
    return 'given_up';
  }
  setCertificateStatus(deps.db, cert.id, 'generating', now);
  if (cert.content === null || cert.signature === null) {
    const content = buildCertificateContent({ ...inputsOf(cert, sources), signedAt: now, publicBaseUrl: deps.publicBaseUrl });
    const key = deps.signing();
    const signature = keyedSignature(key.keyId, signContent(key.privateKey, content));
    cert = saveSignedContent(deps.db, cert.id, { content: canonicalJson(content), signature, signedAt: content.signed_at, now });
  }
  const account = deps.db.prepare('SELECT public_id FROM accounts WHERE id = ?').get(cert.account_id) as { public_id: string };
  return { job, cert, sources, accountPublicId: account.public_id };
}

const inputsOf = (cert: CertificateRow, sources: CertificateSources) => ({
  certificate: cert,
  wipe: sources.wipe,
  accountName: sources.accountName,
  operator: sources.operator,
  machine: sources.machine,
});

/** The job's certificate; created here for wipe results stored before certificates existed. */
function ensureCertificate(deps: CertificateJobDeps, wipe: { id: number; account_id: number }): CertificateRow {
  const existing = findCertificateByWipeResult(deps.db, wipe.id);
  if (existing) return existing;
  createCertificate(deps.db, { accountId: wipe.account_id, wipeResultId: wipe.id, now: iso(deps.clock) });
  return findCertificateByWipeResult(deps.db, wipe.id)!;
}

async function renderAndStore(deps: CertificateJobDeps, { job, cert, sources, accountPublicId }: Claimed): Promise<void> {
  const content = JSON.parse(cert.content!) as CertificateContent;
  const signature = cert.signature!;
  const rendered = await deps.renderer.render({ content, signature, report: buildReportData(content, signature, inputsOf(cert, sources)) });
  const { certificate: certificatePdf, report: reportPdf } = rendered;
  const keys = objectKeys(accountPublicId, cert);
  // A worker that outlived its lease stops before writing: the new holder owns the objects.
  if (!stillHeld(deps.db, job)) return;
  // Both fsyncs run at once; completion below waits for both.
  await Promise.all([deps.store.put(keys.certificate, certificatePdf), deps.store.put(keys.report, reportPdf)]);

  const now = iso(deps.clock);
  deps.db.transaction(() => {
    if (!finishJob(deps.db, job, now)) return; // lease lost after the puts: the holder completes
    markCertificateComplete(deps.db, cert.id, {
      certificateKey: keys.certificate,
      certificateSha256: sha256(certificatePdf),
      reportKey: keys.report,
      reportSha256: sha256(reportPdf),
      now,
    });
    deps.onCertificateGenerated?.({
      id: cert.public_id,
      certificate_number: cert.certificate_number,
      account_id: cert.account_id,
      wipe_result_id: sources.wipe.public_id,
      signed_at: content.signed_at,
      generated_at: now,
    });
  }).immediate();
}
