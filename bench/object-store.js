// Issue 33: certificate pairs/s with the objects in an S3 bucket against the local folder, same
// run, same worker (the render thread pool as in `serve`). The bucket is s3rver on loopback (a
// file-backed S3 server, the tests' dependency), so the figure is the cost of the S3 protocol
// and the SDK, not of a remote network. Batches alternate local, s3, local, s3 so machine load
// falls on both alike. Goal: s3 >= 0.8x local.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signServiceRequest } from '@erasure/shared';

const dist = new URL('../cloud/dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { SqliteDatabase } = await load('adapters/sql/sqlite.js');
const { createAccount } = await load('adapters/db/accounts.js');
const { createToken } = await load('adapters/db/tokens.js');
const { localObjectStore } = await load('adapters/objects/local-store.js');
const { loadCertificateKeys } = await load('adapters/certificate-keys.js');
const { DEBIAN_FONT_FILES } = await load('domain/certificates/index.js');
const { drainCertificateJobs } = await load('jobs/certificate-worker.js');
const { retryDelayMs } = await load('jobs/generate-certificate.js');
const { defaultRenderThreads, threadPoolRenderer } = await load('jobs/renderer.js');
const { s3ObjectStore } = await load('adapters/objects/s3-store.js');
const { buildCloudApp } = await load('http/app.js');
const { systemClock } = await load('adapters/clock.js');

const { values } = parseArgs({ options: { results: { type: 'string', default: '60' } } });
const RESULTS = Number(values.results);
const WARM = 10;
const INGEST = 4 * RESULTS + 2 * WARM;
const CONCURRENCY = 8;
const SECRET = 'bench-internal-secret';
// The cloud accepts a signature once: a repeat of the same bytes takes the next second, as the gateway does.
const signed = new Set();
const sign = (text) => {
  let timestamp = Math.floor(Date.now() / 1000);
  while (signed.has(`${timestamp}.${text}`)) timestamp += 1;
  signed.add(`${timestamp}.${text}`);
  return signServiceRequest(SECRET, text, timestamp);
};
const round = (n) => Math.round(n * 100) / 100;
const { default: S3rver } = await import('s3rver');

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-s3-'));
const s3dir = mkdtempSync(join(tmpdir(), 'erasure-bench-s3rver-'));
const s3server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: 'certificates' }] });
const { port } = await s3server.run();
const bucket = s3ObjectStore({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'certificates', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
try {
  // 2. Ingest over HTTP, as the gateway forwards device results.
  const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const keys = await loadCertificateKeys({ db, dataDir: dir });
  const store = localObjectStore(join(dir, 'objects'));
  const now = new Date().toISOString();
  const account = await createAccount(db, { name: 'Bench Recyclers Ltd', subscriptionStatus: 'active', now });
  const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'bench@example.com', expiresAt: null, now });
  const app = buildCloudApp({
    db,
    clock: systemClock,
    internalApiSecret: SECRET,
    publicBaseUrl: 'https://erasure.example',
    certificates: { store, publicKeys: keys.publicKeys, urlSigningSecret: keys.urlSigningSecret },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const post = async (path, body) => {
    const text = JSON.stringify(body);
    const res = await fetch(base + path, {
      method: 'POST',
      body: text,
      headers: { ...sign(text), 'content-type': 'application/json' },
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const serials = Array.from({ length: 4 }, (_, i) => `S4DYNX0M${String(i).padStart(6, '0')}`);
  await post('/internal/assets', {
    jti: token.jti,
    record_id: 'CW-20261122-100000',
    engine_version: '1.4.2',
    fingerprint: {
      system: { manufacturer: 'LENOVO', product: '20L5CTO1WW', serial: 'PF1ABCDE', uuid: '4c4c4544-0042-3510-8052-b4c04f565032' },
      storage: serials.map((serial) => ({ model: 'SAMSUNG MZVLB512HAJQ', serial, size_bytes: 512110190592, media_type: 'SSD', smart: { power_on_hours: 8123 } })),
    },
  });
  // Each result belongs to a real check-in (only those are certified): one engine run per 100 drives.
  const runs = [];
  for (let r = 0; r * 100 < INGEST; r++) runs.push((await post('/internal/tokens/validate', { jti: token.jti })).job_id);
  const wipe = (i) => ({
    jti: token.jti,
    job_id: `${runs[Math.floor(i / 100)]}-${i % 100}`,
    drive_serial: serials[i % serials.length],
    drive_model: 'SAMSUNG MZVLB512HAJQ',
    drive_capacity_gb: 512,
    wipe_method: 'NIST 800-88 R2 Purge',
    passes_completed: null,
    started_at: '2026-11-22T10:00:00Z',
    completed_at: '2026-11-22T10:12:30Z',
    verification_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    technique: 'NVMe Sanitize, crypto erase',
    tool_components: 'nvme-cli 2.8',
    verification_result: 'Passed',
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < INGEST) await post('/internal/wipe_results', wipe(next++));
    }),
  );
  await app.close();

  const PARKED = '9999-01-01T00:00:00.000Z';
  const unpark = (count) =>
    db.run(`UPDATE jobs SET run_at = @now WHERE id IN (SELECT id FROM jobs WHERE run_at = @parked ORDER BY id LIMIT @count)`, {
      now: new Date().toISOString(),
      parked: PARKED,
      count,
    });
  await db.run(`UPDATE jobs SET run_at = @parked`, { parked: PARKED });
  const completed = async () => (await db.one(`SELECT count(*) AS n FROM certificates WHERE status = 'complete'`)).n;
  const threads = defaultRenderThreads(true);
  const pool = threadPoolRenderer({ size: threads, fontFiles: DEBIAN_FONT_FILES });
  await pool.ready;
  const deps = {
    db,
    clock: systemClock,
    renderer: pool,
    signing: keys.signing,
    pdfSigning: keys.pdfSigning,
    publicBaseUrl: 'https://erasure.example',
    leaseMs: 60_000,
    maxAttempts: 5,
    retryDelayMs: (n) => retryDelayMs(n),
  };
  const timeBatch = async (objects) => {
    const before = await completed();
    await unpark(RESULTS);
    const start = performance.now();
    const done = await drainCertificateJobs({ ...deps, store: objects }, 2 * threads);
    const seconds = (performance.now() - start) / 1000;
    if (done !== RESULTS || (await completed()) !== before + RESULTS) throw new Error(`expected ${RESULTS} more complete certificates`);
    return seconds;
  };
  await unpark(WARM * 2);
  await drainCertificateJobs({ ...deps, store }, 2 * threads);
  const seconds = { local: 0, s3: 0 };
  for (const kind of ['local', 's3', 'local', 's3']) seconds[kind] += await timeBatch(kind === 'local' ? store : bucket);
  await pool.close();
  await db.close();
  const local = (2 * RESULTS) / seconds.local;
  const s3 = (2 * RESULTS) / seconds.s3;
  console.log(
    `object store: certificate pairs/s with the S3 store (s3rver on loopback) ${round(s3)} | baseline local folder ${round(local)} | ` +
      `ratio ${round(s3 / local)}x (${2 * RESULTS} pairs each, batches alternating; ${threads} render threads; ${availableParallelism()} cores) | goal >= 0.8x: ${s3 / local >= 0.8 ? 'OK' : 'BELOW GOAL'}`,
  );
} finally {
  bucket.close();
  await s3server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(s3dir, { recursive: true, force: true });
}
