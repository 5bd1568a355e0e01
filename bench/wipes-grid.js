#!/usr/bin/env node
// The wipes grid on the server (issue 31 items 1 and 2), over one account's 100,000 wipes, on
// SQLite and PostgreSQL: the grid's query (count + one page, rows derived as the grid shows them)
// with a filter, next to the same query in raw SQL on the driver in the same run; and the CSV
// export of every row to a file, next to a raw SELECT of the same rows written to a file, with
// the process's RSS growth during the export. Goals: query p95 <= 100 ms and <= 2x raw; CSV
// <= 2x raw, RSS growth <= 50 MB. Uses the built cloud (npm ci builds it).
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SqliteDatabase } from '../cloud/dist/adapters/sql/sqlite.js';
import { PostgresDatabase } from '../cloud/dist/adapters/sql/postgres.js';
import { migrateStore } from '../cloud/dist/adapters/sql/migrations.js';
import { createAccount } from '../cloud/dist/adapters/db/accounts.js';
import { createToken } from '../cloud/dist/adapters/db/tokens.js';
import { createWipeGridReader } from '../cloud/dist/adapters/db/wipes-grid.js';
import { utcOf } from '../cloud/dist/adapters/db/wipes-filter-sql.js';
import { parseWipesQuery } from '../cloud/dist/domain/wipes/filter.js';
import { findWipes } from '../cloud/dist/domain/wipes/query.js';
import { exportWipesCsv } from '../cloud/dist/domain/wipes/export.js';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { seedWipeHistory } from '../test/support/wipe-history.js';

const WIPES = Number(process.env.BENCH_WIPES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const PAGE = 100;

/** Filters whose matches are spread over the whole history, as the grid's query parameters. */
const FILTERS = {
  'status + customer': 'status=failed&customer=Contoso',
  'search q=777': 'q=777',
  // The same search, its anchor the hand-written query through the trigram index (SQLite
  // migration 029, PostgreSQL 022) instead of the LIKE scan above.
  'q=777, raw by index': 'q=777',
  'quarter (from/to)': 'from=2025-04-01&to=2025-06-30',
};

const p95 = (samples) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.95) - 1];
async function timed(run) {
  for (let i = 0; i < 3; i++) await run(); // warm up: plans, caches
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return p95(samples);
}

/**
 * The grid's query written by hand against the driver: the count and the page's rows with their
 * token, certificate and matched machine, the filter spelled out. The floor the module builds on.
 */
function rawGridSql(dialect, where) {
  const completed = utcOf(dialect, 'w.completed_at');
  const matching = `FROM wipe_results w WHERE w.account_id = $1 AND ${where}`;
  return {
    count: `SELECT count(*) AS n ${matching}`,
    page: `SELECT w.*, t.user_email, t.customer, t.lot_reference, t.product, c.certificate_number, c.public_id AS cert_public_id, c.status AS cert_status,
             (SELECT a2.public_id FROM asset_drives d2 JOIN assets a2 ON a2.id = d2.asset_id WHERE d2.account_id = w.account_id AND d2.serial = trim(w.drive_serial) LIMIT 1) AS asset_public_id
           FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id LEFT JOIN certificates c ON c.wipe_result_id = w.id
          WHERE w.id IN (SELECT w.id ${matching} ORDER BY ${completed} DESC NULLS LAST, w.created_at DESC, w.id DESC LIMIT ${PAGE})
          ORDER BY ${completed} DESC NULLS LAST, w.created_at DESC, w.id DESC`,
  };
}
const RAW_WHERE = {
  'status + customer': "coalesce(nullif(lower(trim(w.wipe_status)), ''), 'completed') = 'failed' AND w.token_id IN (SELECT id FROM license_tokens WHERE account_id = $1 AND customer = 'Contoso')",
  'search q=777': (dialect) => {
    const like = dialect === 'postgres' ? 'ILIKE' : 'LIKE';
    return `(w.drive_model ${like} '%777%' OR w.drive_serial ${like} '%777%'
      OR w.token_id IN (SELECT id FROM license_tokens WHERE account_id = $1 AND (user_email ${like} '%777%' OR customer ${like} '%777%' OR lot_reference ${like} '%777%'))
      OR w.id IN (SELECT wipe_result_id FROM certificates WHERE account_id = $1 AND certificate_number ${like} '%777%'))`;
  },
  // No token's technician, customer or lot holds 777 in the seed, so only the wipes' own fields and certificate numbers.
  'q=777, raw by index': (dialect) =>
    dialect === 'postgres'
      ? `w.id IN (SELECT id FROM wipe_results WHERE account_id = $1 AND wipe_search_text(drive_model, drive_serial, asset_tag, customer, lot_reference) ILIKE '%777%'
           UNION ALL SELECT wipe_result_id FROM certificates WHERE account_id = $1 AND certificate_number ILIKE '%777%')`
      : `w.id IN (SELECT rowid FROM wipe_search WHERE wipe_search MATCH '"777"')`,
  'quarter (from/to)': (dialect) => `${utcOf(dialect, 'w.completed_at')} >= '2025-04-01T00:00:00.000Z' AND ${utcOf(dialect, 'w.completed_at')} < '2025-07-01T00:00:00.000Z'`,
};

/** Runs `query` on the raw driver: better-sqlite3 with `?`, node-postgres with `$1`. */
function rawRunner(db) {
  if (db.dialect === 'sqlite') return async (sql, accountId) => db.handle.prepare(sql.replace(/\$1/g, '?')).all(...sql.match(/\$1/g).map(() => accountId));
  return async (sql, accountId) => (await db.pool.query(sql, [accountId])).rows;
}

/** The process's peak RSS growth while `work` runs, sampled every 20 ms. */
async function rssGrowth(work) {
  global.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const start = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms: performance.now() - start, mb: (peak - before) / 1e6 };
}

/** The raw anchor of the export: every matching row selected by the driver, each written as a line as it comes. */
async function rawExport(db, accountId, file) {
  const sql = `SELECT w.*, t.user_email, t.customer, t.lot_reference, c.certificate_number
                 FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id LEFT JOIN certificates c ON c.wipe_result_id = w.id
                WHERE w.account_id = $1 ORDER BY ${utcOf(db.dialect, 'w.completed_at')} DESC NULLS LAST, w.created_at DESC, w.id DESC`;
  const line = (row) => `${Object.values(row).map((v) => (v === null ? '' : String(v))).join(',')}\r\n`;
  if (db.dialect === 'sqlite') {
    // A connection of its own, as the export's; rows as the driver iterates them.
    const Database = (await import('better-sqlite3')).default;
    const reader = new Database(db.handle.name, { readonly: true });
    async function* lines() {
      let chunk = '';
      let n = 0;
      for (const row of reader.prepare(sql.replace('$1', '?')).iterate(accountId)) {
        chunk += line(row);
        if (++n % 500 === 0) {
          yield chunk;
          chunk = '';
        }
      }
      yield chunk;
    }
    await pipeline(Readable.from(lines()), createWriteStream(file));
    reader.close();
    return;
  }
  // PostgreSQL: COPY … TO STDOUT would skip the row mapping the anchor is meant to include; a
  // cursor of 500 rows at a time is what a hand-written exporter does.
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query({ text: `DECLARE raw_rows NO SCROLL CURSOR FOR ${sql}`, values: [accountId] });
    async function* lines() {
      for (;;) {
        const { rows } = await client.query('FETCH FORWARD 500 FROM raw_rows');
        if (rows.length === 0) return;
        yield rows.map(line).join('');
      }
    }
    await pipeline(Readable.from(lines()), createWriteStream(file));
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

async function benchStore(name, db, dir) {
  const now = new Date().toISOString();
  const account = await createAccount(db, { name: 'Bench Refurb', subscriptionStatus: 'active', now });
  const token = (customer) => createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: `${customer ?? 'plain'}@bench.test`, expiresAt: null, customer, lotReference: customer ? `LOT-${customer}` : null, now });
  const tokens = [await token('Northwind'), await token('Contoso'), await token(null)];
  const start = performance.now();
  await seedWipeHistory(db, { accountId: account.id, tokenIds: tokens.map((t) => t.id), count: WIPES });
  console.log(`${name}: seeded ${WIPES} wipes in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  if (db.dialect === 'postgres') await db.pool.query('ANALYZE');
  else db.handle.exec('ANALYZE');

  const grid = await createWipeGridReader(db);
  const raw = rawRunner(db);
  const rows = [];
  for (const [label, query] of Object.entries(FILTERS)) {
    const parsed = parseWipesQuery(Object.fromEntries(new URLSearchParams(query)));
    if (!parsed.ok) throw new Error(parsed.error);
    let count = 0;
    const module = await timed(async () => {
      const page = await findWipes(grid, account.id, { filter: parsed.value.filter, order: 'completed_desc', page: 1 }, PAGE);
      count = page.count;
    });
    const where = typeof RAW_WHERE[label] === 'function' ? RAW_WHERE[label](db.dialect) : RAW_WHERE[label];
    const sql = rawGridSql(db.dialect, where);
    let rawCount = 0;
    const rawMs = await timed(async () => {
      rawCount = Number((await raw(sql.count, account.id))[0].n);
      await raw(sql.page, account.id);
    });
    if (rawCount !== count) throw new Error(`${name} ${label}: the grid counted ${count}, raw SQL ${rawCount}`);
    rows.push({ label, count, module, raw: rawMs });
  }
  for (const r of rows) {
    console.log(`${name.padEnd(10)} grid ${r.label.padEnd(20)} ${String(r.count).padStart(6)} match   p95 ${r.module.toFixed(1).padStart(6)} ms   raw SQL p95 ${r.raw.toFixed(1).padStart(6)} ms   ${(r.module / r.raw).toFixed(2)}x`);
  }

  const csvFile = join(dir, `${name}-wipes.csv`);
  const rawFile = join(dir, `${name}-raw.csv`);
  const rawRun = await rssGrowth(() => rawExport(db, account.id, rawFile));
  const csvRun = await rssGrowth(async () => {
    const csv = await exportWipesCsv(grid, account.id, { filter: {}, order: 'completed_desc' }, 1_000_000);
    if (!csv.ok) throw new Error(csv.error);
    await pipeline(Readable.from(csv.chunks), createWriteStream(csvFile));
  });
  const mb = (file) => (statSync(file).size / 1e6).toFixed(1);
  console.log(
    `${name.padEnd(10)} CSV of ${WIPES} rows ${(csvRun.ms / 1000).toFixed(2)} s (${mb(csvFile)} MB, RSS +${csvRun.mb.toFixed(1)} MB)   raw SELECT to a file ${(rawRun.ms / 1000).toFixed(2)} s (${mb(rawFile)} MB, RSS +${rawRun.mb.toFixed(1)} MB)   ${(csvRun.ms / rawRun.ms).toFixed(2)}x`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-wipes-'));
let postgres;
try {
  const sqlite = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  try {
    await benchStore('SQLite', sqlite, dir);
  } finally {
    await sqlite.close();
  }
  postgres = await startPostgres();
  const pgDb = PostgresDatabase.open(await postgres.createDatabase('bench_wipes'), { max: 4 });
  try {
    await migrateStore(pgDb);
    await benchStore('PostgreSQL', pgDb, dir);
  } finally {
    await pgDb.close();
  }
} finally {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
