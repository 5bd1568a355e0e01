// Issue 33: certificate pairs/s with the objects in an S3 bucket against the local folder, same
// run, same worker (the render thread pool as in `serve`). The bucket is s3rver on loopback (a
// file-backed S3 server, the tests' dependency), so the figure is the cost of the S3 protocol
// and the SDK, not of a remote network. Batches alternate local, s3, local, s3 so machine load
// falls on both alike. Goal: s3 >= 0.8x local.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchAccount, certificateJobDeps, loadCloud, parkedJobs, seedMachine, startInternalApp } from './cloud-seed.js';

const { SqliteDatabase } = await loadCloud('adapters/sql/sqlite.js');
const { localObjectStore } = await loadCloud('adapters/objects/local-store.js');
const { loadCertificateKeys } = await loadCloud('adapters/certificate-keys.js');
const { DEBIAN_FONT_FILES } = await loadCloud('domain/certificates/index.js');
const { drainCertificateJobs } = await loadCloud('jobs/certificate-worker.js');
const { defaultRenderThreads, threadPoolRenderer } = await loadCloud('jobs/renderer.js');
const { s3ObjectStore } = await loadCloud('adapters/objects/s3-store.js');

const { values } = parseArgs({ options: { results: { type: 'string', default: '60' } } });
const RESULTS = Number(values.results);
const WARM = 10;
const INGEST = 4 * RESULTS + 2 * WARM;
const CONCURRENCY = 8;
const SECRET = 'bench-internal-secret';
const round = (n) => Math.round(n * 100) / 100;
const { default: S3rver } = await import('s3rver');

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-s3-'));
const s3dir = mkdtempSync(join(tmpdir(), 'erasure-bench-s3rver-'));
const s3server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: 'certificates' }] });
const { port } = await s3server.run();
const bucket = s3ObjectStore({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'certificates', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
try {
  // Ingest over HTTP, as the gateway forwards device results.
  const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const keys = await loadCertificateKeys({ db, dataDir: dir });
  const store = localObjectStore(join(dir, 'objects'));
  const { token } = await benchAccount(db);
  const { app, post } = await startInternalApp({ db, keys, store, secret: SECRET });
  const serials = Array.from({ length: 4 }, (_, i) => `S4DYNX0M${String(i).padStart(6, '0')}`);
  const wipe = await seedMachine(post, token, { serials, results: INGEST });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < INGEST) await post('/internal/wipe_results', wipe(next++));
    }),
  );
  await app.close();

  const { parkAll, unpark, completed } = parkedJobs(db);
  await parkAll();
  const threads = defaultRenderThreads(true);
  const pool = threadPoolRenderer({ size: threads, fontFiles: DEBIAN_FONT_FILES });
  await pool.ready;
  const deps = certificateJobDeps({ db, keys, store, renderer: pool });
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
