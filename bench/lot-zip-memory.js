// Issue 33: the cloud process's memory while a customer downloads a 600-certificate lot ZIP from
// the object store, with the objects in an S3 bucket and, same run, in the local folder (the
// baseline). Against the built cloud (cloud/dist; run `npx tsc -b`).
//
//   node bench/lot-zip-memory.js [--drives 600] [--mbps 25]
//
// The certificates are generated once and put in both stores under the same keys; the lot ZIP
// is made by the background lot export job in each store. Then `erasure-cloud serve` runs on
// that DATA_DIR, once with OBJECT_STORE=local and once with OBJECT_STORE=s3 (s3rver on loopback),
// and a signed-in client downloads /app/api/lot-exports/{id}/download at --mbps MB/s (a
// customer's line, slower than the store: a server that reads ahead of its client shows it).
// The process's RSS (/proc/PID/status VmRSS) is sampled every 20 ms during the download; the
// figure is its peak minus its level just before. Goal: RSS growth <= 50 MB.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

import { benchAccount, certifiedDrives, loadCloud, runLotExport } from './cloud-seed.js';

const { SqliteDatabase } = await loadCloud('adapters/sql/sqlite.js');
const { createUser } = await loadCloud('adapters/db/users.js');
const { hashPassword } = await loadCloud('adapters/passwords.js');
const { localObjectStore } = await loadCloud('adapters/objects/local-store.js');
const { s3ObjectStore } = await loadCloud('adapters/objects/s3-store.js');
const { loadCertificateKeys } = await loadCloud('adapters/certificate-keys.js');
const { default: S3rver } = await import('s3rver');

const { values } = parseArgs({ options: { drives: { type: 'string', default: '600' }, mbps: { type: 'string', default: '25' } } });
const DRIVES = Number(values.drives);
const BYTES_PER_MS = (Number(values.mbps) * 1e6) / 1000;
const BIN = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench-password-1234';
const mb = (bytes) => Math.round(bytes / 1e5) / 10;

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-lotzip-'));
const s3dir = mkdtempSync(join(tmpdir(), 'erasure-bench-lotzip-s3rver-'));
const s3server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: 'certificates' }] });
const { port: s3port } = await s3server.run();
const s3 = { endpoint: `http://127.0.0.1:${s3port}`, region: 'us-east-1', bucket: 'certificates', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
const bucket = s3ObjectStore(s3);
let child;
try {
  // 1. 600 certified wipes, their PDFs in the local folder and, under the same keys, in the bucket.
  const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const keys = await loadCertificateKeys({ db, dataDir: dir });
  const local = localObjectStore(join(dir, 'objects'));
  const { account, token } = await benchAccount(db, EMAIL);
  await createUser(db, { accountId: account.id, email: EMAIL, passwordHash: await hashPassword(PASSWORD), role: 'admin', now: new Date().toISOString() });
  const { fonts, ids } = await certifiedDrives({ db, keys, store: local, account, token, drives: DRIVES });
  for (const row of await db.many('SELECT certificate_key, report_key FROM certificates')) {
    for (const key of [row.certificate_key, row.report_key]) await bucket.put(key, await local.get(key));
  }

  // 2. The lot ZIP of all of them, made by the lot export job in each store.
  const exportIn = async (store, publicId) => {
    const { bytes } = await runLotExport({ db, keys, store, fonts, accountId: account.id, wipeIds: ids, format: 'zip', publicId });
    return { publicId, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  };
  const exports = { local: await exportIn(local, 'lotexp_00000000000000000001'), s3: await exportIn(bucket, 'lotexp_00000000000000000002') };
  await db.close();

  // 3. The download, from `erasure-cloud serve` on each store in turn.
  const results = {};
  for (const kind of ['local', 's3']) {
    const port = await freePort();
    const storeEnv = kind === 'local'
      ? { OBJECT_STORE: 'local' }
      : { OBJECT_STORE: 's3', S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey, S3_FORCE_PATH_STYLE: '1' };
    child = await startServe({ DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...storeEnv });
    const base = `http://127.0.0.1:${port}`;
    const cookie = await signIn(base);
    const lot = exports[kind];
    // Warm: one answer from the same routes and store before the baseline, then let the heap settle.
    await fetchJson(`${base}/app/api/lot-exports/${lot.publicId}`, cookie);
    await sleep(1000);
    const before = median(await samples(child.pid, 10));
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rssOf(child.pid));
        await sleep(20);
      }
    })();
    const started = performance.now();
    const got = await slowDownload(`${base}/app/api/lot-exports/${lot.publicId}/download`, cookie);
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    if (got.size !== lot.size || got.sha256 !== lot.sha256) throw new Error(`${kind}: the download is not the stored ZIP (${got.size} of ${lot.size} bytes)`);
    results[kind] = { before, peak, growth: peak - before, size: lot.size, seconds };
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    child = undefined;
  }
  const line = (kind) => `${mb(results[kind].growth)} MB (RSS ${mb(results[kind].before)} -> ${mb(results[kind].peak)} MB, ${results[kind].seconds.toFixed(1)} s)`;
  console.log(
    `lot ZIP memory: ${DRIVES} certificates (${mb(results.s3.size)} MB ZIP) streamed at ${values.mbps} MB/s by erasure-cloud serve | ` +
      `RSS growth with the S3 store ${line('s3')} | baseline local folder ${line('local')} | goal <= 50 MB: ${results.s3.growth <= 50e6 ? 'OK' : 'ABOVE GOAL'}`,
  );
} finally {
  child?.kill('SIGKILL');
  bucket.close();
  await s3server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(s3dir, { recursive: true, force: true });
}

/** A port nothing listens on now. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `erasure-cloud serve` with `env`, once it says it is listening. */
async function startServe(env) {
  const proc = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => String(d).includes('listening on') && resolve());
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return proc;
}

async function signIn(base) {
  const res = await fetch(`${base}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
  if (res.status !== 303) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie').split(';')[0];
}

async function fetchJson(url, cookie) {
  const res = await fetch(url, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** VmRSS of `pid`, in bytes. */
function rssOf(pid) {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(kb[1]) * 1024;
}

async function samples(pid, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(rssOf(pid));
    await sleep(20);
  }
  return out;
}

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Downloads `url`, reading no faster than BYTES_PER_MS; the size and SHA-256 of what came. */
function slowDownload(url, cookie) {
  return new Promise((resolve, reject) => {
    request(url, { headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
      const hash = createHash('sha256');
      let size = 0;
      const t0 = performance.now();
      res.on('data', (chunk) => {
        hash.update(chunk);
        size += chunk.length;
        const ahead = size / BYTES_PER_MS - (performance.now() - t0);
        if (ahead > 1) {
          res.pause();
          setTimeout(() => res.resume(), ahead);
        }
      });
      res.on('end', () => resolve({ size, sha256: hash.digest('hex') }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
