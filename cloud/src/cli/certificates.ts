import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devicePublicKey } from '@erasure/shared';
import type { Clock } from '../adapters/clock.js';
import { localObjectStore, type ObjectStore } from '../adapters/objects/local-store.js';
import type { SqlDatabase, SqlRunner } from '../adapters/sql/database.js';
import { loadCertificateKeys, rotateSigningKey, type CertificateKeys } from '../adapters/certificate-keys.js';
import { rawPublicKeyBase64 } from '../adapters/certificate-keyring.js';
import { listSigningKeys } from '../adapters/db/deployment-keys.js';
import type { CloudConfig } from '../config.js';
import { isKnownCertificateSchema, verifyKeyedBytes, type PublicKeyLookup } from '../domain/certificates/certificate-content.js';
import { EmbeddedCertificateError, readEmbeddedCertificate } from '../domain/certificates/embedded-certificate.js';
import { DEBIAN_FONT_FILES } from '../domain/certificates/fonts.js';
import { defaultRenderThreads, threadPoolRenderer } from '../jobs/renderer.js';
import { CERTIFICATE_WORKER_DEFAULTS, startCertificateWorker, type CertificateWorker, type WorkerLog } from '../jobs/certificate-worker.js';
import type { GeneratedCertificate } from '../jobs/generate-certificate.js';
import { UsageError, type Flags } from './admin.js';

/**
 * Keys, object store and fonts of one process, loaded once at start. The objects go through the
 * {@link ObjectStore} interface: the local directory today, an S3-compatible bucket next.
 */
export interface CertificateRuntime {
  keys: CertificateKeys;
  store: ObjectStore;
  /** The `certificates` field of CloudAppDeps. */
  routes: { store: ObjectStore; publicKeys: PublicKeyLookup; urlSigningSecret: Buffer };
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
  loadCertificateKeys({ db, dataDir: config.DATA_DIR, signingKeyBase64: config.CERTIFICATE_SIGNING_KEY });

/**
 * Loads what certificates need from the configuration: keys from the store `db` (or
 * CERTIFICATE_SIGNING_KEY) and objects under `${DATA_DIR}/objects`. The worker renders on a pool
 * of threads that read the Debian fonts when it starts, so a missing font package stops the
 * process at start rather than failing every job.
 */
export async function loadCertificateRuntime(config: CloudConfig, db: SqlDatabase): Promise<CertificateRuntime> {
  const keys = await deploymentKeys(config, db);
  const store = localObjectStore(join(config.DATA_DIR, 'objects'));
  return {
    keys,
    store,
    routes: { store, publicKeys: keys.publicKeys, urlSigningSecret: keys.urlSigningSecret },
    async startWorker(input) {
      void store.sweepTemporary(STALE_TEMPORARY_MS).catch((err: unknown) => input.log?.error({ err }, 'sweeping temporary objects failed'));
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

/**
 * `verify-pdf FILE [--public-key B64]`: reads the signed record embedded in a certificate or
 * report PDF and checks its Ed25519 signature with the published key, or by default with the
 * keys on record in this deployment's database (`withDeploymentKeys` opens it only then). No
 * network: with `--public-key`, no database either.
 */
export async function verifyPdf(
  file: string | undefined,
  flags: Flags,
  withDeploymentKeys: (check: (publicKeys: PublicKeyLookup) => Promise<PdfVerdict>) => Promise<PdfVerdict>,
): Promise<PdfVerdict> {
  if (!file) throw new UsageError('usage: erasure-cloud verify-pdf FILE [--public-key B64] [--json]');
  const keyFlag = flags['public-key'];
  if (typeof keyFlag !== 'string') return withDeploymentKeys((publicKeys) => checkPdf(file, publicKeys));
  // A key given by hand is the one to check with, whatever key id the signature names.
  let given;
  try {
    given = devicePublicKey(keyFlag);
  } catch (error) {
    throw new UsageError(`--public-key: ${error instanceof Error ? error.message : String(error)}`);
  }
  return checkPdf(file, async () => [given]);
}

async function checkPdf(file: string, publicKeys: PublicKeyLookup): Promise<PdfVerdict> {
  let embedded;
  try {
    embedded = await readEmbeddedCertificate(new Uint8Array(readFileSync(file)));
  } catch (error) {
    const reason = error instanceof EmbeddedCertificateError ? error.message : 'not a readable PDF';
    return { valid: false, reason };
  }
  if (!embedded) return { valid: false, reason: 'no embedded certificate' };
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
  const valid = await verifyKeyedBytes(publicKeys, embedded.json, embedded.signature);
  return valid ? { valid, ...facts } : { valid, reason: 'signature does not match', ...facts };
}
