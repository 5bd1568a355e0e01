// Certificate pipeline throughput (issue 4), against the built cloud (cloud/dist; run `npm run build`).
//
//   node bench/certificates.js [--results 100] [--ingest 500] [--concurrency 8] [--workers 2]
//
// Prints three figures side by side:
//   - baseline: raw better-sqlite3 INSERTs, one durable commit each (WAL, synchronous=FULL),
//   - ingest:   wipe results accepted over HTTP (POST /internal/wipe_results, HMAC-signed),
//               each a transaction storing the result, its certificate row and its job,
//   - worker:   certificate pairs (Certificate of Sanitization + Erasure Report) generated per
//               second: claim, sign, render both PDFs, fsync both objects, complete. Three runs:
//               rendering on the worker's own thread (the per-core cost), one worker as `serve`
//               runs it (render thread pool), and `--workers` separate `erasure-cloud worker`
//               processes on the same files. Rendering is CPU-bound: it scales with cores.
// Goal: worker >= 20 pairs/s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { benchAccount, certificateJobDeps, loadCloud, parkedJobs, seedMachine, startInternalApp } from './cloud-seed.js';

const { SqliteDatabase } = await loadCloud('adapters/sql/sqlite.js');
const { localObjectStore } = await loadCloud('adapters/objects/local-store.js');
const { loadCertificateKeys } = await loadCloud('adapters/certificate-keys.js');
const { DEBIAN_FONT_FILES, loadFontSource } = await loadCloud('domain/certificates/index.js');
const { drainCertificateJobs } = await loadCloud('jobs/certificate-worker.js');
const { defaultRenderThreads, inProcessRenderer, threadPoolRenderer } = await loadCloud('jobs/renderer.js');

const { values } = parseArgs({
  options: {
    results: { type: 'string', default: '100' },
    ingest: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '8' },
    workers: { type: 'string', default: '2' },
  },
});
const RESULTS = Number(values.results);
const INGEST = Number(values.ingest);
const CONCURRENCY = Number(values.concurrency);
const WORKERS = Number(values.workers);
// Each run first renders WARM untimed pairs per thread: V8 needs a few documents before the
// renderer reaches its steady speed, which is what a long-running worker has.
const WARM = 10;
if (INGEST < 3 * RESULTS + WARM * (3 + 2 * WORKERS)) throw new Error('--ingest too small for three timed runs and their warm-ups');
const SECRET = 'bench-internal-secret';
const round = (n) => Math.round(n * 10) / 10;

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-certs-'));
try {
  // 1. Baseline: the floor any durable write path pays on this disk.
  const raw = new Database(join(dir, 'baseline.sqlite'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, job_id TEXT UNIQUE, body TEXT)');
  const insert = raw.prepare('INSERT INTO t (job_id, body) VALUES (?, ?)');
  let t0 = performance.now();
  for (let i = 0; i < INGEST; i++) insert.run(`job-${i}`, 'x'.repeat(300));
  const baseline = INGEST / ((performance.now() - t0) / 1000);
  raw.close();

  // 2. Ingest over HTTP, as the gateway forwards device results.
  const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const keys = await loadCertificateKeys({ db, dataDir: dir });
  const store = localObjectStore(join(dir, 'objects'));
  const { token } = await benchAccount(db);
  const { app, post } = await startInternalApp({ db, keys, store, secret: SECRET });
  const serials = Array.from({ length: 4 }, (_, i) => `S4DYNX0M${String(i).padStart(6, '0')}`);
  const wipe = await seedMachine(post, token, { serials, results: INGEST });
  let next = 0;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < INGEST) await post('/internal/wipe_results', wipe(next++));
    }),
  );
  const ingest = INGEST / ((performance.now() - t0) / 1000);
  await app.close();

  // 3. In-process workers, each timed over one batch of RESULTS jobs; the rest wait parked.
  const { parkAll, unpark, completed } = parkedJobs(db);
  await parkAll();
  const fonts = loadFontSource(DEBIAN_FONT_FILES, { readFile: (path) => new Uint8Array(readFileSync(path)) });
  const threads = defaultRenderThreads(true); // as `serve` sizes its pool
  const pool = threadPoolRenderer({ size: threads, fontFiles: DEBIAN_FONT_FILES });
  await pool.ready;
  const deps = certificateJobDeps({ db, keys, store });
  const timeBatch = async (renderer, concurrency, warm) => {
    await unpark(warm);
    await drainCertificateJobs({ ...deps, renderer }, concurrency);
    const before = await completed();
    await unpark(RESULTS);
    const start = performance.now();
    const done = await drainCertificateJobs({ ...deps, renderer }, concurrency);
    const seconds = (performance.now() - start) / 1000;
    if (done !== RESULTS || (await completed()) !== before + RESULTS) throw new Error(`expected ${RESULTS} more complete certificates`);
    return { seconds, pairs: RESULTS / seconds };
  };
  const inline = await timeBatch(inProcessRenderer(fonts), 2, WARM);
  const pooled = await timeBatch(pool, 2 * threads, WARM * threads);
  await pool.close();

  // 4. WORKERS separate `erasure-cloud worker` processes on the next RESULTS jobs.
  const bin = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
  const children = Array.from({ length: WORKERS }, () =>
    spawn(process.execPath, [bin, 'worker'], { env: { ...process.env, DATA_DIR: dir, PUBLIC_BASE_URL: 'https://erasure.example' }, stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  await Promise.all(children.map((c) => new Promise((resolve) => c.stdout.once('data', resolve))));
  let before = await completed();
  await unpark(WARM * 2 * WORKERS); // each worker process starts 2 render threads on 2 cores
  while ((await completed()) < before + WARM * 2 * WORKERS) await sleep(5);
  before = await completed();
  await unpark(RESULTS);
  t0 = performance.now();
  while ((await completed()) < before + RESULTS) await sleep(5);
  const multiSeconds = (performance.now() - t0) / 1000;
  await Promise.all(children.map((c) => new Promise((resolve) => { c.once('exit', resolve); c.kill('SIGTERM'); })));
  const multiPairs = RESULTS / multiSeconds;
  await db.close();

  const best = Math.max(inline.pairs, pooled.pairs, multiPairs);
  console.log(
    `certificates: baseline raw INSERT ${round(baseline)} rows/s | ingest POST /internal/wipe_results ${round(ingest)} results/s ` +
      `(${INGEST}, concurrency ${CONCURRENCY}) | worker, rendering inline ${round(inline.pairs)} pairs/s | ` +
      `worker as in serve (${threads} render threads) ${round(pooled.pairs)} pairs/s | ${WORKERS} worker processes ${round(multiPairs)} pairs/s ` +
      `(${RESULTS} pairs per run; ${availableParallelism()} cores) | goal >= 20 pairs/s: ${best >= 20 ? 'OK' : 'BELOW GOAL'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
