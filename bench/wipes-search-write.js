#!/usr/bin/env node
// What the wipes search index (issue 31 item 1: SQLite migration 029's FTS5 trigram table and its
// triggers, PostgreSQL migration 022's pg_trgm GIN indexes) costs the writes: one account's
// wipes written as test/support/wipe-history.js writes them (50 rows per INSERT, 1,000 per
// transaction, a certificate row for every tenth certified wipe), into a store migrated with
// every migration, next to the same store migrated without the search's, in the same run.
// Uses the built cloud (npm ci builds it).
//
//   node bench/wipes-search-write.js      (BENCH_WIPES=N, default 50,000)
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteDatabase } from '../cloud/dist/adapters/sql/sqlite.js';
import { PostgresDatabase } from '../cloud/dist/adapters/sql/postgres.js';
import { migratePostgres } from '../cloud/dist/adapters/sql/migrations.js';
import { migrate } from '../cloud/dist/adapters/db/open.js';
import { createAccount } from '../cloud/dist/adapters/db/accounts.js';
import { createToken } from '../cloud/dist/adapters/db/tokens.js';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { seedWipeHistory } from '../test/support/wipe-history.js';

const WIPES = Number(process.env.BENCH_WIPES ?? 50_000);
const SEARCH = { sqlite: '029_wipes_search.sql', postgres: '022_wipes_search.sql' };
const SQLITE_MIGRATIONS = new URL('../cloud/migrations/', import.meta.url);
const POSTGRES_MIGRATIONS = new URL('../cloud/migrations/postgres/', import.meta.url);

/** A folder with the series' migrations but `skip` (the search's, for the store without it). */
function migrations(dir, from, skip) {
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(from).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f) && f !== skip)) copyFileSync(new URL(file, from), join(dir, file));
  return pathToFileURL(`${dir}/`);
}

async function writeSeconds(db) {
  const now = new Date().toISOString();
  const account = await createAccount(db, { name: 'Bench Refurb', subscriptionStatus: 'active', now });
  const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'ana@bench.test', expiresAt: null, customer: 'Contoso', lotReference: 'LOT-7', now });
  const start = performance.now();
  await seedWipeHistory(db, { accountId: account.id, tokenIds: [token.id], count: WIPES });
  return (performance.now() - start) / 1000;
}

const root = mkdtempSync(join(tmpdir(), 'erasure-bench-search-write-'));
let postgres;
try {
  const results = [];
  for (const withSearch of [false, true]) {
    const name = withSearch ? 'with' : 'without';
    const raw = new Database(join(root, `${name}.sqlite`));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    migrate(raw, migrations(join(root, `sqlite-${name}`), SQLITE_MIGRATIONS, withSearch ? '' : SEARCH.sqlite));
    const db = new SqliteDatabase(raw);
    results.push(['SQLite', withSearch, await writeSeconds(db)]);
    await db.close();
  }
  postgres = await startPostgres();
  for (const withSearch of [false, true]) {
    const db = PostgresDatabase.open(await postgres.createDatabase(`bench_search_${withSearch ? 'with' : 'without'}`), { max: 2 });
    try {
      await migratePostgres(db, migrations(join(root, `postgres-${withSearch}`), POSTGRES_MIGRATIONS, withSearch ? '' : SEARCH.postgres));
      results.push(['PostgreSQL', withSearch, await writeSeconds(db)]);
    } finally {
      await db.close();
    }
  }
  for (const store of ['SQLite', 'PostgreSQL']) {
    const [without, withIndex] = [false, true].map((w) => results.find((r) => r[0] === store && r[1] === w)[2]);
    console.log(`${store.padEnd(10)} ${WIPES} wipes written   with the search index ${withIndex.toFixed(2)} s (${((withIndex * 1e6) / WIPES).toFixed(0)} us/wipe)   without ${without.toFixed(2)} s (${((without * 1e6) / WIPES).toFixed(0)} us/wipe)   ${(withIndex / without).toFixed(2)}x`);
  }
} finally {
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
}
