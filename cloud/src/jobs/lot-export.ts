import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Clock } from '../adapters/clock.js';
import { claimJob, finishJob, handBackJob, hasDueJob, releaseJob, stillHeld, type ClaimedJob } from '../adapters/db/jobs.js';
import { findAccountCertificateLanguage } from '../adapters/db/certificate-language.js';
import { insertLotDocument } from '../adapters/db/lot-documents.js';
import { completeLotExport, LOT_EXPORT_JOB, lotExportById, renewLotExportLease, setLotExportProgress, type LotExportRow } from '../adapters/db/lot-exports.js';
import type { WipeGridReader } from '../adapters/db/wipes-grid.js';
import { putChunks, type ObjectStore } from '../adapters/objects/local-store.js';
import type { SqlDatabase, SqlRunner } from '../adapters/sql/database.js';
import type { FontSource } from '../domain/certificates/fonts.js';
import { lotFileName, renderLotPdf } from '../domain/certificates/lot.js';
import { buildLotDocument, storedLotSummary, type LotDocumentDrive } from '../domain/certificates/lot-document.js';
import { lotDocumentFileKey } from '../domain/certificates/lot-document-file.js';
import type { PdfSigner } from '../domain/certificates/pdf-signing-certificate.js';
import { documentsOf, driveOf, isoAt, rowsOfIds, validationOf } from './lot-parts.js';

/*
 * The background lot export (issue 31 item 2): a lot ZIP or lot certificate too big for one
 * request, made by a job of the durable `jobs` table (claim, lease, attempts, backoff), as the
 * certificates are. The ZIP is streamed into the object store entry by entry, one certificate
 * read at a time; the lot certificate holds the certificate PDFs it attaches (pdf-lib builds a
 * document in memory), never their reports.
 */

/** Ports of the lot export job. */
export interface LotExportDeps {
  db: SqlDatabase;
  clock: Clock;
  store: ObjectStore;
  wipeGrid: () => Promise<WipeGridReader>;
  fonts: () => FontSource;
  /** The deployment's PDF signer; a PDF export without one fails (fail closed; the route refuses it first). */
  pdfSigning?: (() => Promise<PdfSigner>) | undefined;
  /** `PUBLIC_BASE_URL`: the lot certificate's verify URL. */
  publicBaseUrl: string;
  /** How long a claim is held without a progress write (each one renews it). */
  leaseMs: number;
  maxAttempts: number;
  retryDelayMs(attempt: number): number;
  /** How long the file can be downloaded once made. */
  ttlMs: number;
}

/** Progress is written every this many drives (and at the end): a line that moves, few writes. */
const PROGRESS_STEP = 20;

/** The object key of an export's file. */
export const lotExportKey = (accountPublicId: string, row: Pick<LotExportRow, 'public_id' | 'format'>) => `lot-exports/${accountPublicId}/${row.public_id}.${row.format}`;

class LeaseLost extends Error {}

/**
 * Claims one due lot export and makes it. Returns false when none was due. As a certificate job:
 * the claim and `running` commit together; the file is put under a key fixed by the export, so a
 * retry replaces it; only then one transaction fenced on this claim records the lot document,
 * `done` and the job done. A crash anywhere leaves a running job whose lease runs out, and the
 * next claim starts the file again.
 */
export async function runNextLotExportJob(deps: LotExportDeps, signal?: AbortSignal): Promise<boolean> {
  if (!(await hasDueJob(deps.db, LOT_EXPORT_JOB, isoAt(deps.clock)))) return false;
  const claimed = await deps.db.transaction((tx) => claim(deps, tx), { signal });
  if (claimed === 'none') return false;
  if (claimed === 'given_up') return true;
  const { job, row } = claimed;
  try {
    await make(deps, job, row, signal);
  } catch (error) {
    if (error instanceof LeaseLost) return true; // another claim holds it now
    const now = isoAt(deps.clock);
    if (signal?.aborted) {
      await deps.db.transaction(async (tx) => {
        if (await handBackJob(tx, job, now)) await setLotExportProgress(tx, row.id, { status: 'pending', done: 0, now });
      });
      return true;
    }
    const message = error instanceof Error ? error.message : String(error);
    const exhausted = job.attempts >= deps.maxAttempts;
    const runAt = exhausted ? null : isoAt(deps.clock, deps.retryDelayMs(job.attempts));
    await deps.db.transaction(async (tx) => {
      if (await releaseJob(tx, job, { runAt, error: message, now })) {
        await setLotExportProgress(tx, row.id, { status: exhausted ? 'failed' : 'pending', done: 0, now, error: message });
      }
    });
  }
  return true;
}

async function claim(deps: LotExportDeps, tx: SqlRunner): Promise<{ job: ClaimedJob; row: LotExportRow } | 'none' | 'given_up'> {
  const now = isoAt(deps.clock);
  const job = await claimJob(tx, LOT_EXPORT_JOB, now, isoAt(deps.clock, deps.leaseMs));
  if (!job) return 'none';
  const row = await lotExportById(tx, job.subject_id);
  if (!row) {
    await releaseJob(tx, job, { runAt: null, error: 'lot export is gone', now });
    return 'given_up';
  }
  if (job.attempts > deps.maxAttempts) {
    // Every allowed attempt was claimed and none finished (crashes count): give up.
    await releaseJob(tx, job, { runAt: null, error: 'attempts exhausted', now });
    await setLotExportProgress(tx, row.id, { status: 'failed', done: 0, now, error: 'attempts exhausted' });
    return 'given_up';
  }
  await setLotExportProgress(tx, row.id, { status: 'running', done: 0, now });
  return { job, row };
}

async function make(deps: LotExportDeps, job: ClaimedJob, row: LotExportRow, signal?: AbortSignal): Promise<void> {
  const account = (await deps.db.one<{ name: string; public_id: string }>('SELECT name, public_id FROM accounts WHERE id = @id', { id: row.account_id }))!;
  const rows = await rowsOfIds(await deps.wipeGrid(), row.account_id, JSON.parse(row.wipe_ids) as string[]);
  const now = deps.clock.now();
  const generatedAt = now.toISOString();
  const validation = await validationOf(deps.db, row.account_id, rows);
  const key = lotExportKey(account.public_id, row);
  let written = 0;
  /** `done` drives of the lot are read: said on the progress line, fenced on this claim. */
  const progress = async (done: number) => {
    signal?.throwIfAborted();
    if (done !== rows.length && done - written < PROGRESS_STEP) return;
    // Renewed with each progress write: a long lot keeps its claim while it moves.
    if (!(await renewLotExportLease(deps.db, job, isoAt(deps.clock, deps.leaseMs), isoAt(deps.clock)))) throw new LeaseLost('lease lost');
    written = done;
    await setLotExportProgress(deps.db, row.id, { status: 'running', done, now: isoAt(deps.clock) });
  };

  let lotDocument: Parameters<typeof insertLotDocument>[1] | undefined;
  if (row.format === 'pdf') {
    if (!deps.pdfSigning) throw new Error('no PDF signer is configured');
    const drives: LotDocumentDrive[] = [];
    for (const [index, gridRow] of rows.entries()) {
      const docs = await documentsOf(deps.db, gridRow);
      const bytes = docs ? await deps.store.get(docs.certificate) : undefined;
      drives.push({ ...driveOf(gridRow, bytes), certificateId: bytes ? gridRow.cert_public_id : null, customer: gridRow.customer, lotReference: gridRow.lot_reference });
      await progress(index + 1);
    }
    const lotDocumentId = `lotdoc_${randomBytes(10).toString('hex')}`;
    const verifyUrl = `${deps.publicBaseUrl.replace(/\/+$/, '')}/lots/${lotDocumentId}/verify`;
    // Drawn in the account's certificate language when the job makes it (a retry reads it again).
    const language = await findAccountCertificateLanguage(deps.db, row.account_id);
    const pdf = await buildLotDocument(
      { lotDocumentId, verifyUrl, accountName: account.name, generatedAt, drives, validation, language },
      { fonts: deps.fonts(), pdfSigner: await deps.pdfSigning() },
    );
    if (!(await stillHeld(deps.db, job))) throw new LeaseLost('lease lost');
    await deps.store.put(key, pdf);
    // The export's object expires; the lot document's copy is kept for the public API.
    await deps.store.put(lotDocumentFileKey(account.public_id, lotDocumentId), pdf);
    lotDocument = {
      public_id: lotDocumentId,
      account_id: row.account_id,
      summary: JSON.stringify(storedLotSummary(drives, validation, language)),
      drives: JSON.stringify(drives.map((d) => ({
        certificate_id: d.certificateId ?? null,
        certificate_number: d.certificateId ? d.certificateNumber : null,
        serial: d.serial,
        model: d.model,
        status: d.status,
      }))),
      document_sha256: createHash('sha256').update(pdf).digest('hex'),
      created_at: generatedAt,
    };
  } else {
    await putChunks(deps.store, key, lotZip(deps, rows, { accountName: account.name, generatedAt, validation, now }, progress));
  }

  const finishedAt = isoAt(deps.clock);
  await deps.db.transaction(async (tx) => {
    if (!(await finishJob(tx, job, finishedAt))) return; // lease lost after the put: the holder completes
    if (lotDocument) await insertLotDocument(tx, lotDocument);
    await completeLotExport(tx, row.id, { objectKey: key, lotDocumentId: lotDocument?.public_id ?? null, expiresAt: isoAt(deps.clock, deps.ttlMs), now: finishedAt });
  }, { signal });
}

/**
 * The lot ZIP as chunks: the summary, then each certificate and report, read from the store only
 * when the ZIP reaches that entry (yazl's lazy streams), so one object is in memory at a time.
 */
function lotZip(
  deps: LotExportDeps,
  rows: Awaited<ReturnType<typeof rowsOfIds>>,
  facts: { accountName: string; generatedAt: string; validation: Awaited<ReturnType<typeof validationOf>>; now: Date },
  progress: (done: number) => Promise<void>,
): AsyncIterable<Uint8Array> {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as unknown as Readable;
  // An entry that fails (a missing object, a lost lease) ends the stream with its error.
  zip.on('error', (error: Error) => output.destroy(error));
  const entry = (name: string, open: () => Promise<Readable>) =>
    zip.addReadStreamLazy(name, { compress: false, mtime: facts.now }, (cb) => {
      open().then((stream) => cb(null, stream), (error: Error) => cb(error, undefined as unknown as Readable));
    });
  const readObject = async (key: string): Promise<Readable> => {
    const stream = deps.store.readStream ? await deps.store.readStream(key) : undefined;
    if (stream) return stream as unknown as Readable;
    const bytes = await deps.store.get(key);
    if (!bytes) throw new Error(`object missing: ${key}`);
    return Readable.from([Buffer.from(bytes)]);
  };
  void (async () => {
    try {
      const summary = await renderLotPdf(deps.fonts(), rows.map((row) => driveOf(row)), {
        accountName: facts.accountName,
        generatedAt: facts.generatedAt,
        verifyHint: deps.publicBaseUrl,
        validation: facts.validation,
      });
      zip.addBuffer(Buffer.from(summary), '000 summary.pdf', { compress: false, mtime: facts.now });
      for (const [index, row] of rows.entries()) {
        const docs = await documentsOf(deps.db, row);
        if (!docs) continue;
        // PDFs are compressed already: stored, not deflated, costs nothing and loses nothing.
        entry(lotFileName(index, docs.number, 'certificate'), async () => {
          await progress(index + 1);
          return readObject(docs.certificate);
        });
        entry(lotFileName(index, docs.number, 'erasure report'), () => readObject(docs.report));
      }
      zip.end();
    } catch (error) {
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return output;
}
