#!/usr/bin/env node
// Public API latency: GET /api/v1/assets for page 1 and for the deepest page of an account with
// 100,000 assets, next to the time of the same page's SQL alone (the floor the route builds on).
// Uses the built cloud (npm ci builds it). Goal: p99 < 20 ms per request.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '../cloud/dist/adapters/sql/sqlite.js';
import { systemClock } from '../cloud/dist/adapters/clock.js';
import { listAssetSummaries } from '../cloud/dist/adapters/db/asset-reads.js';
import { mintApiKey } from '../cloud/dist/adapters/db/api-key-issuance.js';
import { load } from './lib.js';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const PAGE_SIZE = 100;
const deepPage = Math.ceil(ASSETS / PAGE_SIZE);

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-api-'));
const dbPath = join(dir, 'cloud.sqlite');

/** Seeds one big account (and a smaller neighbour, so scoping is real) straight into SQLite. */
async function seed() {
  const db = SqliteDatabase.open(dbPath);
  // The bulk load goes through the raw better-sqlite3 connection under the port (prepared
  // statements in one synchronous transaction) for speed; the API key goes through the port.
  const raw = db.handle;
  const now = new Date();
  const insertAccount = raw.prepare(
    "INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
  );
  const big = insertAccount.pluck().get('acct_benchbigaccount00001', 'Bench Refurb', now.toISOString(), now.toISOString());
  const small = insertAccount.pluck().get('acct_benchsmallaccount001', 'Neighbour', now.toISOString(), now.toISOString());
  const insert = raw.prepare(
    `INSERT INTO assets (public_id, account_id, hardware_uid, record_id, engine_version, fingerprint, manufacturer, model,
       serial_number, bios_version, tpm_version, firmware_mode, secure_boot, cpu_model, cpu_cores, cpu_threads,
       memory_total_bytes, storage_summary, storage_serials, battery_health_pct, technician, test_results,
       first_seen_at, last_booted_at, audited_at, updated_at)
     VALUES (@id, @account, @uid, 'CW-20261122-120000', '1.4.0', @fp, 'Dell Inc.', 'Latitude 7490', @serial, '1.21.0', '2.0',
       'UEFI', 1, 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', 4, 8, 17179869184, '512 GB NVMe SSD SAMSUNG MZVLB512HAJQ',
       @drive, 81, 'tech@bench.test', '{"keyboard":{"status":"passed"}}', @at, @at, @at, @at)`,
  );
  const put = (account, count, prefix) =>
    raw.transaction(() => {
      for (let i = 0; i < count; i++) {
        // Updates spread over a year, several rows per millisecond value: the id tie-breaker matters.
        const at = new Date(now.getTime() - Math.floor(i / 3) * 900).toISOString();
        const serial = `${prefix}${String(i).padStart(7, '0')}`;
        const drive = `S4DY${serial}`;
        const fp = JSON.stringify({
          system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial, uuid: `4c4c4544-${String(i).padStart(4, '0')}` },
          cpu: { model: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', cores: 4, threads: 8 },
          memory: { total_bytes: 17179869184 },
          storage: [{ model: 'SAMSUNG MZVLB512HAJQ', serial: drive, size_bytes: 512110190592, media_type: 'SSD', transport: 'NVMe' }],
          batteries: [{ health_pct: 81 }],
        });
        insert.run({ id: `asset_${prefix}${String(i).padStart(15, '0')}`.slice(0, 26), account, uid: `${prefix}-${i}`, fp, serial, drive, at });
      }
    })();
  const started = Date.now();
  put(big, ASSETS, 'b');
  put(small, Math.min(10_000, ASSETS), 's');
  raw.pragma('optimize');
  const { apiKey } = await mintApiKey({ db, clock: systemClock }, { accountId: big, name: 'bench', createdByUserId: null });
  console.log(`seeded ${ASSETS} assets (+${Math.min(10_000, ASSETS)} in another account) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { db, big, apiKey };
}

/** The cloud app in its own process (so load generation does not share its event loop). */
function startCloud() {
  const appUrl = new URL('../cloud/dist/http/app.js', import.meta.url).href;
  const openUrl = new URL('../cloud/dist/adapters/sql/sqlite.js', import.meta.url).href;
  const code = `
    const { buildCloudApp } = await import(${JSON.stringify(appUrl)});
    const { SqliteDatabase } = await import(${JSON.stringify(openUrl)});
    const db = SqliteDatabase.open(${JSON.stringify(dbPath)});
    // The default 600 requests/min per key would throttle the bench itself.
    const app = buildCloudApp({ db, clock: { now: () => new Date() }, internalApiSecret: undefined,
      publicApiRateLimit: { limit: 1e9, windowMs: 60000 } });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    console.log('listening on ' + url);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1], child });
    });
    child.on('exit', (code) => reject(new Error(`cloud exited ${code}: ${output}`)));
  });
}

/** p50/p99 (ms) of `fn` over `runs` calls, after a warm-up. */
async function time(fn, runs = 400) {
  for (let i = 0; i < 20; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

const fmt = (ms) => `${ms.toFixed(2).padStart(6)} ms`;
let cloud;
try {
  const { db, big, apiKey } = await seed();
  cloud = await startCloud();
  const headers = { authorization: `Bearer ${apiKey}` };
  console.log(`\n# Public API: GET /api/v1/assets, ${ASSETS} assets in one account, ${PAGE_SIZE} per page`);
  console.log(`# HTTP: one connection, ${DURATION} s per row (latency of a request, not of a queue); SQL: the same page's two statements, in process`);
  for (const [label, page] of [['page 1', 1], [`deep page ${deepPage}`, deepPage]]) {
    const sql = await time(() => listAssetSummaries(db, { accountId: big }, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }));
    const http = await load({ url: `${cloud.url}/api/v1/assets?page=${page}`, method: 'GET', headers, connections: 1, duration: DURATION });
    console.log(
      `${label.padEnd(16)} HTTP p50 ${String(http.p50).padStart(3)} ms  p99 ${String(http.p99).padStart(3)} ms  (${http.rps.toFixed(0)} req/s)` +
        `   SQL p50 ${fmt(sql.p50)}  p99 ${fmt(sql.p99)}   ${http.p99 < 20 ? 'goal met (p99 < 20 ms)' : 'GOAL MISSED (p99 >= 20 ms)'}`,
    );
  }
  const since = new Date(Date.now() - 3600_000).toISOString();
  const sinceSql = await time(() => listAssetSummaries(db, { accountId: big, since }, { limit: PAGE_SIZE, offset: 0 }));
  const sinceHttp = await load({ url: `${cloud.url}/api/v1/assets?since=${since}`, method: 'GET', headers, connections: 1, duration: DURATION });
  console.log(
    `${'since=1h ago'.padEnd(16)} HTTP p50 ${String(sinceHttp.p50).padStart(3)} ms  p99 ${String(sinceHttp.p99).padStart(3)} ms  (${sinceHttp.rps.toFixed(0)} req/s)   SQL p50 ${fmt(sinceSql.p50)}  p99 ${fmt(sinceSql.p99)}`,
  );
  await db.close();
} finally {
  if (cloud) {
    cloud.child.kill('SIGTERM');
    await new Promise((resolve) => cloud.child.once('exit', resolve));
  }
  rmSync(dir, { recursive: true, force: true });
}
