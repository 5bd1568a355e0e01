import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localObjectStore, type ObjectStore } from '../../src/adapters/objects/local-store.js';
import { s3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { startS3 } from '../support/s3rver.js';
import { loadCertificateKeys, type CertificateKeys } from '../../src/adapters/certificate-keys.js';
import { drainCertificateJobs } from '../../src/jobs/certificate-worker.js';
import { retryDelayMs, type CertificateJobDeps } from '../../src/jobs/generate-certificate.js';
import { inProcessRenderer } from '../../src/jobs/renderer.js';
import type { Params } from '../../src/adapters/sql/database.js';
import { issueCheckin, startCloud, type Cloud } from '../helpers.js';
import { testFonts } from './fixtures.js';

export const PUBLIC_BASE_URL = 'https://erasure.test';

/** A cloud with the certificate routes, plus what its worker needs, over one temp DATA_DIR. */
export interface CertificateCloud extends Cloud {
  dataDir: string;
  keys: CertificateKeys;
  /** `DATA_DIR/objects`, or a bucket on a throwaway s3rver when ERASURE_TEST_OBJECT_STORE=s3. */
  store: ObjectStore;
  jobDeps: CertificateJobDeps;
  /** Runs every due certificate job in this process, as the in-process worker would. */
  drain(overrides?: Partial<CertificateJobDeps>): Promise<number>;
  /** The first row of `sql` (named `@params`); the tests read rows they know exist. */
  row<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T>;
}

/** {@link startCloud} with certificates wired the way `erasure-cloud serve` wires them. */
export async function startCertificateCloud(options: { objects?: ObjectStore } = {}): Promise<CertificateCloud> {
  const dataDir = mkdtempSync(join(tmpdir(), 'erasure-certs-'));
  // The `cloud on s3` project runs the certificate and lot tests once more on a bucket (issue 33).
  const s3 = !options.objects && process.env.ERASURE_TEST_OBJECT_STORE === 's3' ? await startS3() : undefined;
  const bucket = s3 ? s3ObjectStore(s3.settings) : undefined;
  const store: ObjectStore = options.objects ?? bucket ?? localObjectStore(join(dataDir, 'objects'));
  let keys!: CertificateKeys;
  const cloud = await startCloud({
    deps: async (db) => {
      keys = await loadCertificateKeys({ db, dataDir });
      return { publicBaseUrl: PUBLIC_BASE_URL, certificates: { store, publicKeys: keys.publicKeys, urlSigningSecret: keys.urlSigningSecret, pdfSigning: () => keys.pdfSigning() } };
    },
  });
  const jobDeps: CertificateJobDeps = {
    db: cloud.db,
    clock: cloud.clock,
    store,
    renderer: inProcessRenderer(testFonts()),
    signing: keys.signing,
    pdfSigning: keys.pdfSigning,
    publicBaseUrl: PUBLIC_BASE_URL,
    leaseMs: 60_000,
    maxAttempts: 5,
    retryDelayMs: (attempt) => retryDelayMs(attempt),
  };
  const close = cloud.close;
  return Object.assign(cloud, {
    dataDir,
    keys,
    store,
    jobDeps,
    drain: (overrides: Partial<CertificateJobDeps> = {}) => drainCertificateJobs({ ...jobDeps, ...overrides }),
    row: async <T,>(sql: string, params?: Params) => (await cloud.db.one<T>(sql, params)) as T,
    async close() {
      await close();
      bucket?.close();
      await s3?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/** A certifiable wipe result body; `overrides` replace fields (undefined drops one). */
export function wipeBody(jti: string, jobId: string, overrides: Record<string, unknown> = {}) {
  return {
    jti,
    job_id: jobId,
    drive_serial: 'S4DYNX0M123456',
    drive_model: 'SAMSUNG MZVLB512HAJQ',
    drive_capacity_gb: 512,
    wipe_method: 'NIST 800-88 R2 Purge',
    passes_completed: null,
    started_at: '2026-11-22T10:00:00Z',
    completed_at: '2026-11-22T10:12:30Z',
    verification_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    technique: 'NVMe Sanitize, crypto erase',
    disposition: 'sanitized',
    markings_removed: true,
    tool_components: 'nvme-cli 2.8',
    verification_result: 'Passed: sampled read-back',
    ...overrides,
  };
}

/** POSTs a wipe result and returns the response body, failing loudly on anything but 201. */
export async function submitWipe(cloud: CertificateCloud, jti: string, jobId: string, overrides: Record<string, unknown> = {}) {
  await issueCheckin(cloud.db, jti, jobId);
  const res = await cloud.post('/internal/wipe_results', wipeBody(jti, jobId, overrides));
  if (res.status !== 201) throw new Error(`wipe result refused: ${res.status} ${res.text}`);
  return res.json as { wipe_result_id: string; certificate_status: string };
}

/** The certificate of a wipe result (`wr_…`). */
export function certificateOf(cloud: CertificateCloud, wipeResultId: string) {
  return cloud.row<{ id: number; public_id: string; certificate_number: string; status: string; certificate_key: string | null; report_key: string | null }>(
    `SELECT c.* FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id WHERE w.public_id = @wipe_result_id`,
    { wipe_result_id: wipeResultId },
  );
}
