import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { certificateKeyFlag } from './verify-pdf-args.js';
import { checkLotPdf } from './verify-lot-pdf.js';
import { fontsOnce, type PageFonts } from './page-fonts.js';
import type { Clock } from '../adapters/clock.js';
import { localObjectStore, type LocalObjectStore, type ObjectStore } from '../adapters/objects/local-store.js';
import { s3ObjectStore, S3StoreCheckError, type S3ObjectStore } from '../adapters/objects/s3-store.js';
import type { SqlDatabase, SqlRunner } from '../adapters/sql/database.js';
import { loadCertificateKeys, rotateSigningKey, type CertificateKeys, type ConfiguredPdfSigner } from '../adapters/certificate-keys.js';
import { rawPublicKeyBase64 } from '../adapters/certificate-keyring.js';
import { listSigningKeys } from '../adapters/db/deployment-keys.js';
import type { CloudConfig } from '../config.js';
import {
  isKnownCertificateSchema,
  parseKeyedSignature,
  verifyKeyedBytes,
  type CertificateContent,
  type PublicKeyLookup,
} from '../domain/certificates/certificate-content.js';
import { EmbeddedCertificateError, readEmbeddedCertificate, type EmbeddedCertificate } from '../domain/certificates/embedded-certificate.js';
import { DEBIAN_FONT_FILES, loadFontSource } from '../domain/certificates/fonts.js';
import { certificatePageDifference } from '../domain/certificates/page-check.js';
import { checkPdfSignature } from '../domain/certificates/pdf-signature.js';
import type { PdfSigner } from '../domain/certificates/pdf-signing-certificate.js';
import { certificateFingerprint } from '../domain/certificates/pdf-signing-certificate.js';
import { missingVisibleFacts, type VisibleFacts } from '../domain/certificates/visible-text.js';
import { xrefInconsistency } from '../domain/certificates/xref-consistency.js';
import { extractPdfText } from '../adapters/pdf-text.js';
import { defaultRenderThreads, threadPoolRenderer } from '../jobs/renderer.js';
import { CERTIFICATE_WORKER_DEFAULTS, startCertificateWorker, type CertificateWorker, type WorkerLog } from '../jobs/certificate-worker.js';
import type { GeneratedCertificate } from '../jobs/generate-certificate.js';
import { UsageError, type Flags } from './admin.js';

/**
 * Keys, object store and fonts of one process, loaded once at start. The objects go through the
 * {@link ObjectStore} interface: the local directory, or an S3-compatible bucket (OBJECT_STORE=s3).
 */
export interface CertificateRuntime {
  keys: CertificateKeys;
  store: ObjectStore;
  /** The `certificates` field of CloudAppDeps. */
  routes: { store: ObjectStore; publicKeys: PublicKeyLookup; urlSigningSecret: Buffer; pdfSigning: () => Promise<PdfSigner> };
  /** Starts the render threads (failing if the fonts are missing), then the worker loop. */
  startWorker(input: {
    db: SqlDatabase;
    clock: Clock;
    /** True inside `serve`: one core stays with the HTTP event loop. */
    inServer?: boolean;
    leaseMs?: number;
    log?: WorkerLog;
    onCertificateGenerated?: (tx: SqlRunner, c: GeneratedCertificate) => Promise<void>;
  }): Promise<CertificateWorker>;
}

/** Temporary files older than this are leftovers of a crashed put, never a put in progress. */
const STALE_TEMPORARY_MS = 10 * 60 * 1000;

/** This deployment's certificate keys, from its store (created, or imported from DATA_DIR/keys, on first use). */
export const deploymentKeys = (config: CloudConfig, db: SqlDatabase): Promise<CertificateKeys> =>
  loadCertificateKeys({ db, dataDir: config.DATA_DIR, signingKeyBase64: config.CERTIFICATE_SIGNING_KEY, pdfSigner: configuredPdfSigner(config) });

/** CERTIFICATE_PDF_CERTIFICATE + CERTIFICATE_PDF_KEY, read from their files; both or neither (fail closed). */
function configuredPdfSigner(config: CloudConfig): ConfiguredPdfSigner | undefined {
  const { CERTIFICATE_PDF_CERTIFICATE: certificate, CERTIFICATE_PDF_KEY: key } = config;
  if (!certificate && !key) return undefined;
  if (!certificate || !key) throw new UsageError('set both CERTIFICATE_PDF_CERTIFICATE and CERTIFICATE_PDF_KEY, or neither');
  return { certificatePem: readFileSync(certificate, 'utf8'), privateKeyPem: readFileSync(key, 'utf8') };
}

/**
 * Loads what certificates need from the configuration: keys from the store `db` (or
 * CERTIFICATE_SIGNING_KEY) and objects under `${DATA_DIR}/objects` or in the S3 bucket. The worker renders on a pool
 * of threads that read the Debian fonts when it starts, so a missing font package stops the
 * process at start rather than failing every job.
 */
export async function loadCertificateRuntime(config: CloudConfig, db: SqlDatabase): Promise<CertificateRuntime> {
  const keys = await deploymentKeys(config, db);
  const store = await openObjectStore(config);
  return {
    keys,
    store,
    routes: { store, publicKeys: keys.publicKeys, urlSigningSecret: keys.urlSigningSecret, pdfSigning: () => keys.pdfSigning() },
    async startWorker(input) {
      if ('sweepTemporary' in store) void store.sweepTemporary(STALE_TEMPORARY_MS).catch((err: unknown) => input.log?.error({ err }, 'sweeping temporary objects failed'));
      const threads = defaultRenderThreads(input.inServer ?? false);
      const renderer = threadPoolRenderer({ size: threads, fontFiles: DEBIAN_FONT_FILES });
      await renderer.ready.catch(async (error: unknown) => {
        await renderer.close();
        throw error;
      });
      const worker = startCertificateWorker({
        ...CERTIFICATE_WORKER_DEFAULTS,
        // Two jobs per thread: one renders while the other waits on its fsyncs and commits.
        concurrency: 2 * threads,
        db: input.db,
        clock: input.clock,
        store,
        renderer,
        signing: keys.signing,
        pdfSigning: keys.pdfSigning,
        publicBaseUrl: config.publicBaseUrl,
        ...(input.leaseMs !== undefined ? { leaseMs: input.leaseMs } : {}),
        ...(input.log ? { log: input.log } : {}),
        ...(input.onCertificateGenerated ? { onCertificateGenerated: input.onCertificateGenerated } : {}),
      });
      return {
        wake: () => worker.wake(),
        abort: () => worker.abort(),
        async stop() {
          await worker.stop();
          await renderer.close();
        },
      };
    },
  };
}

/**
 * The store OBJECT_STORE names. A bucket is checked before anything uses it (reachable, takes,
 * returns and deletes a probe object), so a wrong S3_* setting stops the process at start with
 * the setting's name instead of failing every certificate job later.
 */
async function openObjectStore(config: CloudConfig): Promise<LocalObjectStore | S3ObjectStore> {
  if (config.objectStore.kind === 'local') return localObjectStore(join(config.DATA_DIR, 'objects'));
  const store = s3ObjectStore(config.objectStore.s3);
  try {
    await store.check();
  } catch (error) {
    store.close();
    if (error instanceof S3StoreCheckError) throw new UsageError(`object store unusable: ${error.message}`);
    throw error;
  }
  return store;
}

/** `worker --lease-seconds N`: how long a claimed job is held before others may take it over. */
export function leaseMsFromFlags(flags: Flags): number | undefined {
  const value = flags['lease-seconds'];
  if (value === undefined) return undefined;
  const seconds = typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) throw new UsageError('--lease-seconds must be an integer from 1 to 3600');
  return seconds * 1000;
}

/**
 * `certificate-public-key [--all]`: the key anyone needs to check a certificate PDF offline, with
 * its id; `--all` lists every key on record (retired ones verify certificates signed before a
 * rotation).
 */
export async function certificatePublicKey(config: CloudConfig, db: SqlDatabase, flags: Flags = {}) {
  const keys = await deploymentKeys(config, db);
  const current = await keys.signing();
  const currentKey = { algorithm: 'Ed25519' as const, key_id: current.keyId, public_key: rawPublicKeyBase64(current.privateKey) };
  if (flags.all !== true) return currentKey;
  return { ...currentKey, keys: await listSigningKeys(db) };
}

/**
 * `rotate-certificate-key`: a fresh signing key for new certificates; the old public key stays
 * on record, so every certificate signed before still verifies online and with `verify-pdf`.
 * Running servers and workers pick the new key up with their next certificate.
 */
export async function rotateCertificateKey(config: CloudConfig, db: SqlDatabase): Promise<{ key_id: string; retired_key_id: string; public_key: string }> {
  if (config.CERTIFICATE_SIGNING_KEY) {
    throw new UsageError(
      'CERTIFICATE_SIGNING_KEY is set: rotate by configuring a new key; each key that signed stays on record in the database',
    );
  }
  // Creates the first key (or imports the legacy one) when there is none yet.
  await deploymentKeys(config, db);
  return rotateSigningKey(db, new Date().toISOString());
}

/** What `verify-pdf` prints; `valid` decides the exit code. */
export interface PdfVerdict {
  valid: boolean;
  reason?: string;
  certificate_id?: unknown;
  certificate_number?: unknown;
  account?: unknown;
  drive_serial?: unknown;
  signed_at?: unknown;
}

/** What `verify-pdf` checks a PDF against: Ed25519 keys, and which PDF signing certificates count. */
export interface PdfTrust {
  publicKeys: PublicKeyLookup;
  /** Whether the certificate (by SHA-256 fingerprint) that signed the PDF is the deployment's; undefined = any. */
  pdfCertificateOnRecord?: (fingerprint: string) => Promise<boolean>;
}

/**
 * `verify-pdf FILE [--public-key B64]`: checks a certificate or report PDF. (1) Its PDF signature
 * (what readers check) is valid, covers the whole file, and was made with a PDF signing
 * certificate on record in this deployment, and every object it is read with is the one its
 * cross-reference table points at (`xrefInconsistency`: no page defined twice); (2) the embedded
 * record verifies under its Ed25519 key; (3) a v3 record names that PDF signing certificate; (4) a certificate's page is the page
 * the record renders to (`pageCheck`); (5) the visible text carries the record's certificate
 * number, serial, model, method and dates. By default the keys come from this deployment's
 * database (`withDeploymentKeys` opens it only then). No network: with `--public-key`, no
 * database either, and the PDF signer counts only as the record names it (3).
 */
/** How to give verify-pdf the deployment's keys, said wherever it lacks them. */
export const WHERE_KEYS_ARE =
  "run it where the cloud's database is (DATA_DIR, or DATABASE_URL for PostgreSQL), or pass --public-key B64 as printed by " +
  "'erasure-cloud certificate-public-key --all' on the deployment, or open the certificate's verify URL (its QR code)";

export async function verifyPdf(
  file: string | undefined,
  flags: Flags,
  withDeploymentKeys: (check: (trust: PdfTrust) => Promise<PdfVerdict>) => Promise<PdfVerdict>,
): Promise<PdfVerdict> {
  if (!file) throw new UsageError('usage: erasure-cloud verify-pdf FILE [--public-key B64] [--json]');
  const keyFlag = flags['public-key'];
  // One parse of the fonts for the whole run: a lot regenerates the page of every certificate in it.
  const fonts = fontsOnce(() => loadFontSource(DEBIAN_FONT_FILES, { readFile: (path) => new Uint8Array(readFileSync(path)) }));
  if (keyFlag === undefined) return withDeploymentKeys((trust) => checkPdf(file, trust, fonts));
  // A key given by hand is the one to check with, whatever key id the signature names.
  const given = certificateKeyFlag(keyFlag);
  if (!given.ok) throw new UsageError(given.error);
  return checkPdf(file, { publicKeys: async () => [given.key] }, fonts);
}

async function checkPdf(file: string, trust: PdfTrust, fonts: () => PageFonts): Promise<PdfVerdict> {
  const bytes = new Uint8Array(readFileSync(file));
  let embedded;
  try {
    embedded = await readEmbeddedCertificate(bytes);
  } catch (error) {
    const reason = error instanceof EmbeddedCertificateError ? error.message : 'not a readable PDF';
    return { valid: false, reason };
  }
  if (!embedded) {
    // Not a single certificate: a lot certificate (issue 31 item 3) is checked with each attachment.
    const lot = await checkLotPdf(bytes, {
      pdfCertificateOnRecord: trust.pdfCertificateOnRecord,
      checkCertificateFile: async (path) => {
        const verdict = await checkPdf(path, trust, fonts);
        return 'kind' in verdict ? { valid: false, reason: 'a lot certificate attached inside a lot certificate' } : { ...verdict };
      },
      namedPdfSigner: async (attached) => {
        const record = (await readEmbeddedCertificate(attached).catch(() => null))?.content as Record<string, unknown> | undefined;
        return typeof record?.pdf_signer_sha256 === 'string' ? record.pdf_signer_sha256 : undefined;
      },
    });
    return lot ?? { valid: false, reason: 'no embedded certificate' };
  }
  const content = embedded.content as Record<string, unknown> | null;
  const drive = content?.drive as Record<string, unknown> | undefined;
  const facts = {
    certificate_id: content?.certificate_id,
    certificate_number: content?.certificate_number,
    account: content?.account_name,
    drive_serial: drive?.serial,
    signed_at: content?.signed_at,
  };
  if (!isKnownCertificateSchema(content?.schema)) return { valid: false, reason: 'unknown certificate schema', ...facts };
  // The PDF signature first: any byte changed, page added or update appended since signing fails here.
  const pdfSignature = checkPdfSignature(bytes);
  if (!pdfSignature.ok) return { valid: false, reason: pdfSignature.reason, ...facts };
  // Before anything is compared: the objects read here (pdf-lib, file order) must be those a PDF
  // reader shows (the cross-reference table), or a page defined twice passes the page check.
  const objects = await xrefInconsistency(bytes);
  if (objects) return { valid: false, reason: objects, ...facts };
  const signer = certificateFingerprint(pdfSignature.signerCertificate);
  if (trust.pdfCertificateOnRecord && !(await trust.pdfCertificateOnRecord(signer))) {
    return { valid: false, reason: `the PDF was signed with a certificate (SHA-256 ${signer}) this verifier does not have on record: ${WHERE_KEYS_ARE}`, ...facts };
  }
  if (!(await verifyKeyedBytes(trust.publicKeys, embedded.json, embedded.signature))) {
    // Name the key it lacks: a verifier pointed at the wrong deployment must be told so, not that
    // a genuine certificate is forged.
    const { keyId } = parseKeyedSignature(embedded.signature);
    if (keyId && (await trust.publicKeys(keyId)).length === 0) {
      return { valid: false, reason: `signed with key ${keyId}, which this verifier does not have: ${WHERE_KEYS_ARE}`, ...facts };
    }
    return { valid: false, reason: 'signature does not match', ...facts };
  }
  // v3 records name the PDF signer: a PDF anyone else signed is refused with the public key alone.
  const named = content?.pdf_signer_sha256;
  const namesSigner = content?.schema !== 'erasure-certificate/v1' && content?.schema !== 'erasure-certificate/v2';
  if (namesSigner && named !== signer) {
    return {
      valid: false,
      reason: typeof named === 'string'
        ? `the PDF was signed with a certificate (SHA-256 ${signer}) other than the one its signed record names (SHA-256 ${named})`
        : 'the signed record names no PDF signing certificate',
      ...facts,
    };
  }
  const pages = await pageCheck(bytes, embedded, { offline: !trust.pdfCertificateOnRecord, signerNamed: namesSigner, fonts });
  if (pages) return { valid: false, reason: pages, ...facts };
  const missing = missingVisibleFacts(await extractPdfText(file), content as VisibleFacts);
  if (missing.length > 0) return { valid: false, reason: `the visible pages do not show the signed ${missing.join(', ')}`, ...facts };
  return { valid: true, ...facts };
}

/**
 * What a person sees, checked against the signed record (issue 28). A Certificate of
 * Sanitization is regenerated from the record and must draw exactly that page. An Erasure Report
 * also prints what the record does not hold (the machine, tests, notes), so it cannot be
 * regenerated: its pages are vouched for by the PDF signature alone, which counts only when the
 * signer is known to be the deployment's (named by a v3 record, or on record in its database).
 * An older report checked with only the public key has neither, so it is refused.
 */
async function pageCheck(
  bytes: Uint8Array,
  embedded: EmbeddedCertificate,
  input: { offline: boolean; signerNamed: boolean; fonts: () => PageFonts },
): Promise<string | null> {
  const title = (await PDFDocument.load(bytes, { updateMetadata: false })).getTitle() ?? '';
  if (title.startsWith('Erasure Report ')) {
    if (input.offline && !input.signerNamed) {
      return 'an Erasure Report issued before its record named the PDF signer cannot be checked with the public key alone: ' +
        "check its Certificate of Sanitization PDF, open the verify URL, or run verify-pdf where the cloud's database is";
    }
    return null;
  }
  const fonts = input.fonts();
  if (!fonts.ok) return `cannot regenerate the certificate's page to compare it: ${fonts.error}`;
  let difference;
  try {
    difference = await certificatePageDifference(bytes, embedded.content as CertificateContent, embedded.signature, fonts.fonts);
  } catch (error) {
    // Fail closed: a page that cannot be compared is not shown to be the genuine one.
    difference = `the page could not be compared (${error instanceof Error ? error.message : String(error)})`;
  }
  return difference && `${difference}: the visible page is not the certificate its signed record renders to`;
}
