import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { migrate } from '../../src/adapters/db/open.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import { createWipeGridReader, wipeGridReaderOnce } from '../../src/adapters/db/wipes-grid.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { openTestStore, TEST_STORE } from '../support/test-store.js';

const MIGRATIONS = new URL('../../migrations/', import.meta.url);

describe('wipes grid reader on the store under test', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the certificates table in the catalogue and links the newest certificate of a wipe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-grid-'));
    dirs.push(dir);
    const db = await openTestStore(dir);
    try {
      const now = '2026-11-22T12:00:00.000Z';
      const account = await createAccount(db, { name: 'A', subscriptionStatus: 'active', now });
      const other = await createAccount(db, { name: 'B', subscriptionStatus: 'active', now });
      const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'ana@a.test', expiresAt: null, now });
      const wipe = async (accountId: number, publicId: string, createdAt: string) =>
        (await db.one<{ id: number }>(
          `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, certifiable, certificate_status, created_at, updated_at)
           VALUES (@publicId, @accountId, @tokenId, @publicId, 1, 'complete', @createdAt, @createdAt) RETURNING id`,
          { publicId, accountId, tokenId: token.id, createdAt },
        ))!.id;
      const first = await wipe(account.id, 'wr_a', now);
      await wipe(account.id, 'wr_b', now);
      await wipe(other.id, 'wr_other', now);
      await db.run(
        `INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number, status, created_at, updated_at)
         VALUES ('cert_a', @account, @wipe, 1, 'CW-000001', 'complete', @now, @now)`,
        { account: account.id, wipe: first, now },
      );
      const reader = await createWipeGridReader(db);
      expect(reader.hasCertificates).toBe(true);
      const page = await reader.page(account.id, 100, 0);
      expect(page.count).toBe(2);
      // Equal created_at: the id breaks the tie, newest first, on both stores.
      expect(page.rows.map((row) => [row.public_id, row.cert_number])).toEqual([['wr_b', null], ['wr_a', 'CW-000001']]);
      expect((await reader.page(account.id, 1, 1)).rows.map((row) => row.public_id)).toEqual(['wr_a']);
      expect((await reader.byPublicIds(account.id, ['wr_a', 'wr_other', 'wr_nope'])).map((row) => row.public_id)).toEqual(['wr_a']);
    } finally {
      await db.close();
    }
  });

  it('gives every route one reader, made at the first call, and makes it again after a making that failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-grid-'));
    dirs.push(dir);
    const db = await openTestStore(dir);
    try {
      const sut = wipeGridReaderOnce(db);
      // Inside the store's own transaction its catalogue query is refused: this making fails …
      await db.transaction(async () => {
        await expect(sut()).rejects.toThrow();
      });
      // … and is not kept: the next call makes the reader, which every later call shares.
      const reader = await sut();
      expect(reader.hasCertificates).toBe(true);
      expect(await sut()).toBe(reader);
    } finally {
      await db.close();
    }
  });
});

// SQLite's own migration history (a database from before migration 003): PostgreSQL's schema is
// one file that always has the certificates table, so there is nothing to test there.
describe.runIf(TEST_STORE === 'sqlite')('wipes grid reader before and after the certificates migration (SQLite)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('works without a certificates table (badges only), and links certificates once it exists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-grid-'));
    dirs.push(dir);
    for (const file of ['001_init.sql', '002_web.sql']) copyFileSync(new URL(file, MIGRATIONS), join(dir, file));
    const raw = new Database(':memory:');
    // Migrations from a folder of the test's choosing: only the raw connection's migrate() takes one.
    migrate(raw, pathToFileURL(`${dir}/`));
    const db = new SqliteDatabase(raw);
    await db.script(`
      INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_a', 'A', 't', 't');
      INSERT INTO license_tokens (id, prefix_id, jti, account_id, product, status, created_at, updated_at)
        VALUES (1, 'ltok_a', 'jti-a', 1, 'engine', 'active', 't', 't');
      INSERT INTO wipe_results (id, public_id, account_id, token_id, job_id, certifiable, certificate_status, created_at, updated_at)
        VALUES (1, 'wr_a', 1, 1, 'job-a', 1, 'complete', '2026-11-22T12:00:00.000Z', 't');`);
    const before = await createWipeGridReader(db);
    expect(before.hasCertificates).toBe(false);
    expect((await before.page(1, 100, 0)).rows[0]).toMatchObject({ public_id: 'wr_a', certificate_status: 'complete', cert_public_id: null });

    // Every later migration (003 certificates and on) applied to the same file.
    for (const file of readdirSync(MIGRATIONS).filter((f) => /^\d{3}_.*\.sql$/.test(f))) copyFileSync(new URL(file, MIGRATIONS), join(dir, file));
    migrate(raw, pathToFileURL(`${dir}/`));
    await db.script(`INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number, status, created_at, updated_at)
             VALUES ('cert_a', 1, 1, 1, 'CW-000001', 'complete', 't', 't')`);
    const after = await createWipeGridReader(db);
    expect(after.hasCertificates).toBe(true);
    expect((await after.page(1, 100, 0)).rows[0]).toMatchObject({ cert_public_id: 'cert_a', cert_number: 'CW-000001', cert_status: 'complete' });
    await db.close();
  });
});

// PostgreSQL runs a query in parallel workers when it pays, and builds a large index that way: a
// function those workers may not run (erasure_utc's EXCEPTION block is a subtransaction) must say
// so, or a sort by duration or a migration over a long history fails. force_parallel_mode runs
// every query it may in a worker, as a large table would.
describe.runIf(TEST_STORE === 'postgres')('wipes grid on PostgreSQL in parallel workers (issue 31 item 1)', () => {
  it('sorts by duration and filters by date with every query it may run in a worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-grid-'));
    const db = await openTestStore(dir);
    try {
      const now = '2026-11-22T12:00:00.000Z';
      const account = await createAccount(db, { name: 'A', subscriptionStatus: 'active', now });
      const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'ana@a.test', expiresAt: null, now });
      for (const [id, started, completed] of [['wr_a', '2026-03-01T10:00:00Z', '2026-03-01T11:30:00+01:00'], ['wr_b', '2026-03-01T10:00:00Z', '2026-02-30T11:00:00Z']]) {
        await db.run(
          `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, started_at, completed_at, certifiable, created_at, updated_at)
           VALUES (@id, @account, @token, @id, @started, @completed, 0, @now, @now)`,
          { id, account: account.id, token: token.id, started, completed, now },
        );
      }
      // A pool of the same database whose every session runs what it may in a worker.
      const { connectionString } = (db as PostgresDatabase).pool.options;
      // PostgreSQL 16 renamed force_parallel_mode to debug_parallel_query.
      const version = Number((await db.one<{ v: string }>("SELECT current_setting('server_version_num') AS v"))!.v);
      const setting = version >= 160000 ? 'debug_parallel_query' : 'force_parallel_mode';
      const parallel = new PostgresDatabase(new pg.Pool({ connectionString, max: 2, options: `-c ${setting}=on` }));
      try {
        const reader = await createWipeGridReader(parallel);
        const sorted = await reader.search(account.id, {}, 'duration_desc', 100, 0);
        // wr_b's completion names no real day: no duration, last.
        expect(sorted.rows.map((r) => r.public_id)).toEqual(['wr_a', 'wr_b']);
        expect(Number((await reader.search(account.id, { completedFrom: '2026-03-01T09:00:00.000Z' }, 'completed_desc', 100, 0)).count)).toBe(1);
      } finally {
        await parallel.close();
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
