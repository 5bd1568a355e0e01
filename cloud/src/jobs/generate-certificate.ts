import { createHash } from 'node:crypto';
import type { Clock } from '../adapters/clock.js';
import { readCertificateSources, type CertificateSources } from '../adapters/db/certificate-sources.js';
import {
  createCertificate,
  findCertificateByWipeResult,
  markCertificateComplete,
  replaceSignedContent,
  saveSignedContent,
  setCertificateStatus,
  type CertificateRow,
} from '../adapters/db/certificates.js';
import { findBranding, loadBranding, type BrandingRow } from '../adapters/db/account-branding.js';
import { fixCertificateLanguage } from '../adapters/db/certificate-language.js';
import { isCertificateLanguage, type CertificateLanguage } from '@erasure/shared';
import { claimJob, finishJob, handBackJob, hasDueJob, releaseJob, stillHeld, type ClaimedJob } from '../adapters/db/jobs.js';
import { CERTIFICATE_JOB } from '../adapters/db/wipe-results.js';
import type { ObjectStore } from '../adapters/objects/local-store.js';
import { ObjectStoreWriteError } from '../adapters/objects/store-write-error.js';
import type { SqlDatabase, SqlRunner } from '../adapters/sql/database.js';
import { buildCertificateContent, buildReportData } from '../domain/certificates/build-content.js';
import { canonicalJson, keyedSignature, signContent, type CertificateContent } from '../domain/certificates/certificate-content.js';
import type { SigningKey } from '../adapters/certificate-keyring.js';
import { certificateFingerprint, type PdfSigner } from '../domain/certificates/pdf-signing-certificate.js';
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
  db: SqlDatabase;
  clock: Clock;
  store: ObjectStore;
  /** Renders both PDFs: on this thread in tests, on worker threads in the CLI. */
  renderer: CertificateRenderer;
  /**
   * The key to sign with now, read through the claim transaction `tx` (so a rotation committed
   * by any process is followed); its id goes into the signature.
   */
  signing: (tx: SqlRunner) => Promise<SigningKey>;
  /** The PDF signer (PAdES) to sign both documents with now, read through the claim transaction too. */
  pdfSigning: (tx: SqlRunner) => Promise<PdfSigner>;
  /** `PUBLIC_BASE_URL`: the verify link printed on the certificate. */
  publicBaseUrl: string;
  /**
   * Hook for the `certificate_generated` webhook. Called inside the transaction that marks the
   * certificate complete and given it (`tx`), so a delivery row it inserts there commits
   * atomically with the status (no lost or phantom event on a crash). It must not do network
   * I/O; if it throws, the completion rolls back and the job is retried.
   */
  onCertificateGenerated?: (tx: SqlRunner, certificate: GeneratedCertificate) => Promise<void>;
  /** Where a failed attempt is reported, with why and when it runs again (the process's pino logger). */
  log?: { warn(details: object, message: string): void };
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
 *
 * `signal` is the stopping worker's: once aborted, the render and any lock wait are cut short
 * and the claimed job is handed back (pending, due now, the attempt returned), so the next
 * worker takes it at once instead of after the lease.
 */
export async function runNextCertificateJob(deps: CertificateJobDeps, signal?: AbortSignal): Promise<boolean> {
  if (!(await hasDueJob(deps.db, CERTIFICATE_JOB, iso(deps.clock)))) return false;
  const claimed = await deps.db.transaction((tx) => claimAndSign(deps, tx), { signal });
  if (claimed === 'none') return false;
  if (claimed === 'given_up') return true; // work was done; a drain loop goes on
  try {
    await renderAndStore(deps, claimed, signal);
  } catch (error) {
    const { job, cert } = claimed;
    if (signal?.aborted) {
      await deps.db.transaction(async (tx) => {
        if (await handBackJob(tx, job, iso(deps.clock))) await setCertificateStatus(tx, cert.id, 'pending', iso(deps.clock));
      });
      return true;
    }
    const message = error instanceof Error ? error.message : String(error);
    const exhausted = job.attempts >= deps.maxAttempts;
    const runAt = exhausted ? null : iso(deps.clock, deps.retryDelayMs(job.attempts));
    // With attempts left the certificate stays `generating`: it is on its way (a store outage
    // delays it), and the customer sees neither a failure nor a certificate not yet started.
    const released = await deps.db.transaction(async (tx) => {
      if (!(await releaseJob(tx, job, { runAt, error: message, now: iso(deps.clock) }))) return false;
      await setCertificateStatus(tx, cert.id, exhausted ? 'failed' : 'generating', iso(deps.clock), message);
      return true;
    });
    // A claim that lost its lease meanwhile is another worker's to report.
    if (!released) return true;
    const what = { err: error, certificate: cert.certificate_number, attempt: job.attempts, retry_at: runAt };
    deps.log?.warn(
      what,
      exhausted
        ? `certificate ${cert.certificate_number} failed after ${job.attempts} attempts: ${message}`
        : `certificate ${cert.certificate_number} attempt ${job.attempts} failed, retried at ${runAt}: ${message}`,
    );
  }
  return true;
}

interface Claimed {
  job: ClaimedJob;
  cert: CertificateRow;
  sources: CertificateSources;
  accountPublicId: string;
  pdfSigner: PdfSigner;
  /** The account's branding as the claim read it (issue 31 item 7); drawn on both PDFs. */
  branding: BrandingRow | undefined;
  /** The language fixed on the certificate row by its first claim (issue 31 item 7 part B). */
  language: CertificateLanguage;
}

/** Runs inside the claim transaction `tx`: claim, `generating`, and the signature on first attempt. */
async function claimAndSign(deps: CertificateJobDeps, tx: SqlRunner): Promise<Claimed | 'none' | 'given_up'> {
  const now = iso(deps.clock);
  const job = await claimJob(tx, CERTIFICATE_JOB, now, iso(deps.clock, deps.leaseMs));
  if (!job) return 'none';
  const sources = await readCertificateSources(tx, job.subject_id);
  if (!sources) {
    await releaseJob(tx, job, { runAt: null, error: 'wipe result is gone', now });
    return 'given_up';
  }
  let cert = await ensureCertificate(tx, sources.wipe, now);
  if (job.attempts > deps.maxAttempts) {
    // Every allowed attempt was claimed and none finished (crashes count): give up.
    await releaseJob(tx, job, { runAt: null, error: 'attempts exhausted', now });
    await setCertificateStatus(tx, cert.id, 'failed', now, 'attempts exhausted');
    return 'given_up';
  }
  await setCertificateStatus(tx, cert.id, 'generating', now);
  // The record names the PDF signer (v3), so the signer is chosen before the record is signed.
  const pdfSigner = await deps.pdfSigning(tx);
  const pdfSignerSha256 = certificateFingerprint(pdfSigner.certificates[0]!);
  const sign = async () => {
    const content = buildCertificateContent({ ...inputsOf(cert, sources), signedAt: now, publicBaseUrl: deps.publicBaseUrl, pdfSignerSha256 });
    const key = await deps.signing(tx);
    const signature = keyedSignature(key.keyId, signContent(key.privateKey, content));
    return { content: canonicalJson(content), signature, signedAt: content.signed_at, now };
  };
  if (cert.content === null || cert.signature === null) {
    cert = await saveSignedContent(tx, cert.id, await sign());
  } else if (namedPdfSigner(cert.content) !== undefined && namedPdfSigner(cert.content) !== pdfSignerSha256) {
    // Signed on an earlier attempt, then the PDF signer changed: a PDF signed by the new one would
    // contradict the record, so the record is signed again for it.
    cert = await replaceSignedContent(tx, cert.id, await sign());
  }
  const account = (await tx.one<{ public_id: string }>('SELECT public_id FROM accounts WHERE id = @id', { id: cert.account_id }))!;
  // Fixed on the first claim and kept: a retry or re-render after the setting changed draws the same page.
  if (!isCertificateLanguage(sources.language)) throw new Error(`the token or account of certificate ${cert.certificate_number} names an unknown language`);
  const language = await fixCertificateLanguage(tx, cert.id, sources.language);
  return { job, cert, sources, accountPublicId: account.public_id, pdfSigner, branding: await findBranding(tx, cert.account_id), language };
}

/** The PDF signer a stored record names; undefined for records from before v3, which name none. */
function namedPdfSigner(content: string): string | null | undefined {
  return (JSON.parse(content) as Partial<CertificateContent>).pdf_signer_sha256;
}

const inputsOf = (cert: CertificateRow, sources: CertificateSources) => ({
  certificate: cert,
  wipe: sources.wipe,
  accountName: sources.accountName,
  operator: sources.operator,
  customer: sources.customer,
  lotReference: sources.lotReference,
  assetTag: sources.assetTag,
  machine: sources.machine,
});

/** The job's certificate; created here (in the claim transaction) for wipe results stored before certificates existed. */
async function ensureCertificate(tx: SqlRunner, wipe: { id: number; account_id: number }, now: string): Promise<CertificateRow> {
  const existing = await findCertificateByWipeResult(tx, wipe.id);
  if (existing) return existing;
  await createCertificate(tx, { accountId: wipe.account_id, wipeResultId: wipe.id, now });
  return (await findCertificateByWipeResult(tx, wipe.id))!;
}

async function renderAndStore(deps: CertificateJobDeps, { job, cert, sources, accountPublicId, pdfSigner, branding, language }: Claimed, signal?: AbortSignal): Promise<void> {
  const content = JSON.parse(cert.content!) as CertificateContent;
  const signature = cert.signature!;
  const report = buildReportData(content, signature, inputsOf(cert, sources));
  const rendered = await deps.renderer.render({ content, signature, report, pdfSigner, branding: await loadBranding(branding, deps.store), language }, signal);
  const { certificate: certificatePdf, report: reportPdf } = rendered;
  const keys = objectKeys(accountPublicId, cert);
  // A worker that outlived its lease stops before writing: the new holder owns the objects.
  if (!(await stillHeld(deps.db, job))) return;
  // Both fsyncs run at once; completion below waits for both.
  await Promise.all([deps.store.put(keys.certificate, certificatePdf), deps.store.put(keys.report, reportPdf)]).catch((error: unknown) => {
    throw new ObjectStoreWriteError(deps.store, error);
  });

  const now = iso(deps.clock);
  const finish = async (tx: SqlRunner) => {
    if (!(await finishJob(tx, job, now))) return; // lease lost after the puts: the holder completes
    await markCertificateComplete(tx, cert.id, {
      certificateKey: keys.certificate,
      certificateSha256: sha256(certificatePdf),
      reportKey: keys.report,
      reportSha256: sha256(reportPdf),
      now,
    });
    await deps.onCertificateGenerated?.(tx, {
      id: cert.public_id,
      certificate_number: cert.certificate_number,
      account_id: cert.account_id,
      wipe_result_id: sources.wipe.public_id,
      signed_at: content.signed_at,
      generated_at: now,
    });
  };
  await deps.db.transaction(finish, { signal });
}
