import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../../test/support/postgres.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { migratePostgres } from '../../src/adapters/sql/migrations.js';
import { openStore } from '../../src/adapters/sql/open-store.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';

let postgres: TestPostgres;
const scratch = mkdtempSync(join(tmpdir(), 'erasure-sql-'));
let files = 0;

beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const stores: [string, () => Promise<SqlDatabase>][] = [
  ['sqlite', () => openStore({ kind: 'sqlite', path: join(scratch, `${++files}.sqlite`) })],
  ['postgres', async () => openStore({ kind: 'postgres', url: await postgres.createDatabase() })],
];

const NOW = '2026-11-25T00:00:00.000Z';

async function seedAccount(db: SqlDatabase, publicId = 'acct_test'): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES (@publicId, 'Acme', @now, @now) RETURNING id`,
    { publicId, now: NOW },
  );
  return row!.id;
}

describe.each(stores)('the SQL store on %s', (_name, open) => {
  it('answers rows with named parameters, integer ids as numbers', async () => {
    const db = await open();
    const id = await seedAccount(db);
    expect(typeof id).toBe('number');
    const row = await db.one<{ id: number; name: string; n: number }>(
      'SELECT id, name, (SELECT COUNT(*) FROM accounts) AS n FROM accounts WHERE public_id = @p',
      { p: 'acct_test' },
    );
    expect(row).toEqual({ id, name: 'Acme', n: 1 });
    expect(await db.many('SELECT id FROM accounts WHERE public_id = @p', { p: 'none' })).toEqual([]);
    await db.close();
  });

  it('commits a transaction only when its work resolves', async () => {
    const db = await open();
    await db.transaction(async (tx) => {
      await tx.run(`INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_a', 'A', @now, @now)`, { now: NOW });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.run(`INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_b', 'B', @now, @now)`, { now: NOW });
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await db.many<{ public_id: string }>('SELECT public_id FROM accounts ORDER BY public_id')).toEqual([{ public_id: 'acct_a' }]);
    await db.close();
  });

  it('keeps statements of others out of a transaction in progress', async () => {
    const db = await open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = db.transaction(async (tx) => {
      await tx.run(`INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_in', 'In', @now, @now)`, { now: NOW });
      await held;
      throw new Error('roll back');
    });
    // Written while the transaction waits: it must survive that transaction's rollback.
    const outside = db.run(`INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_out', 'Out', @now, @now)`, { now: NOW });
    setTimeout(release, 50);
    await expect(inside).rejects.toThrow('roll back');
    expect(await outside).toBe(1);
    expect(await db.many<{ public_id: string }>('SELECT public_id FROM accounts')).toEqual([{ public_id: 'acct_out' }]);
    await db.close();
  });

  it('refuses a statement on the database itself from inside its own transaction, at once', async () => {
    const db = await open();
    await expect(db.transaction(async () => db.one('SELECT 1 AS one'))).rejects.toThrow('use the transaction handle');
    await expect(db.transaction(async () => db.transaction(async () => 1))).rejects.toThrow('use the transaction handle');
    expect(await db.one('SELECT 1 AS one')).toEqual({ one: 1 });
    await db.close();
  });

  it('fires the asset_drives trigger on insert and on a changed fingerprint', async () => {
    const db = await open();
    const accountId = await seedAccount(db);
    const fingerprint = (serials: string[]) =>
      JSON.stringify({ storage: serials.map((serial) => ({ serial: ` ${serial} `, media_type: 'ssd' })) });
    const assetId = (
      await db.one<{ id: number }>(
        `INSERT INTO assets (public_id, account_id, hardware_uid, record_id, fingerprint, storage_serials,
                             first_seen_at, last_booted_at, audited_at, updated_at)
         VALUES ('asset_1', @accountId, 'uid', 'rec', @fp, 'S1, S2', @now, @now, @now, @now) RETURNING id`,
        { accountId, fp: fingerprint(['S1', 'S2', 'USB9']), now: NOW },
      )
    )!.id;
    const drives = () => db.many<{ serial: string; media_type: string }>('SELECT serial, media_type FROM asset_drives WHERE asset_id = @assetId ORDER BY serial', { assetId });
    expect(await drives()).toEqual([
      { serial: 'S1', media_type: 'ssd' },
      { serial: 'S2', media_type: 'ssd' },
    ]);
    await db.run(`UPDATE assets SET fingerprint = @fp, storage_serials = 'S3' WHERE id = @assetId`, { fp: fingerprint(['S3']), assetId });
    expect(await drives()).toEqual([{ serial: 'S3', media_type: 'ssd' }]);
    await db.close();
  });

  it('compares emails without regard to case', async () => {
    const db = await open();
    const accountId = await seedAccount(db);
    await db.run(
      `INSERT INTO users (public_id, account_id, email, password_hash, role, created_at)
       VALUES ('usr_1', @accountId, 'Ana@Example.com', 'x', 'admin', @now)`,
      { accountId, now: NOW },
    );
    expect(await db.one('SELECT public_id FROM users WHERE email = @email', { email: 'ana@example.COM' })).toEqual({ public_id: 'usr_1' });
    await expect(
      db.run(
        `INSERT INTO users (public_id, account_id, email, password_hash, role, created_at)
         VALUES ('usr_2', @accountId, 'ANA@example.com', 'x', 'admin', @now)`,
        { accountId, now: NOW },
      ),
    ).rejects.toThrow();
    await db.close();
  });
});

/** Two connections (pools on PostgreSQL) to one fresh store, as two processes have. */
const pairs: [string, () => Promise<[SqlDatabase, SqlDatabase]>][] = [
  [
    'sqlite',
    async () => {
      const path = join(scratch, `${++files}.sqlite`);
      return [await openStore({ kind: 'sqlite', path }), await openStore({ kind: 'sqlite', path })];
    },
  ],
  [
    'postgres',
    async () => {
      const url = await postgres.createDatabase();
      return [await openStore({ kind: 'postgres', url }), await openStore({ kind: 'postgres', url })];
    },
  ],
];

describe.each(pairs)('a transaction on %s cut short by its signal', (name, openPair) => {
  it("stops waiting for another connection's lock, rolls back, and leaves the connection usable", async () => {
    const [holder, waiter] = await openPair();
    await seedAccount(holder);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.transaction(async (tx) => {
      await tx.run(`UPDATE accounts SET name = 'holder' WHERE public_id = 'acct_test'`);
      locked();
      await released;
    });
    await isLocked;

    const stop = new AbortController();
    const waiting = waiter.transaction(async (tx) => {
      await tx.run(`UPDATE accounts SET name = 'waiter' WHERE public_id = 'acct_test'`);
    }, { signal: stop.signal });
    // The waiter is really waiting: PostgreSQL shows its lock request; SQLite's wait is a retry loop.
    if (name === 'postgres') {
      while (!(await holder.one<{ n: number }>(`SELECT count(*) AS n FROM pg_locks WHERE NOT granted`))!.n) await new Promise((r) => setTimeout(r, 5));
    } else {
      await new Promise((r) => setTimeout(r, 50));
    }
    const reason = new Error('stopping');
    stop.abort(reason);
    await expect(waiting).rejects.toBe(reason);

    release();
    await holding;
    expect(await waiter.one(`SELECT name FROM accounts WHERE public_id = 'acct_test'`)).toEqual({ name: 'holder' });
    await waiter.transaction((tx) => tx.run(`UPDATE accounts SET name = 'after' WHERE public_id = 'acct_test'`));
    expect(await holder.one(`SELECT name FROM accounts WHERE public_id = 'acct_test'`)).toEqual({ name: 'after' });
    await holder.close();
    await waiter.close();
  });
});

describe('the PostgreSQL store', () => {
  it('survives a connection killed mid-transaction: the call rejects, the pool goes on', async () => {
    const db = PostgresDatabase.open(await postgres.createDatabase(), { max: 1 });
    const killer = PostgresDatabase.open(postgres.adminUrl, { max: 1 });
    const inside = db.transaction(async (tx) => {
      const { pid } = (await tx.one<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!;
      await killer.one('SELECT pg_terminate_backend(@pid)', { pid });
      await tx.one('SELECT 1 AS one');
    });
    await expect(inside).rejects.toThrow();
    expect(await db.one('SELECT 1 AS one')).toEqual({ one: 1 });
    await Promise.all([db.close(), killer.close()]);
  });
});

describe('the PostgreSQL schema', () => {
  it('has every table and column the SQLite migrations make, with the same kind of type', async () => {
    const sqlite = SqliteDatabase.open(join(scratch, 'parity.sqlite'));
    const pgdb = await openStore({ kind: 'postgres', url: await postgres.createDatabase() });
    const kind = (type: string) => (/INT/i.test(type) ? 'integer' : 'text');
    const tables = await sqlite.many<{ name: string }>(
      // Ordinary tables: the wipes search's FTS5 table and its shadows are SQLite's index (PostgreSQL's is pg_trgm's).
      `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    );
    const sqliteColumns: string[] = [];
    for (const { name } of tables) {
      for (const column of sqlite.handle.pragma(`table_info(${name})`) as { name: string; type: string }[]) {
        sqliteColumns.push(`${name}.${column.name}: ${kind(column.type)}`);
      }
    }
    const pgColumns = (
      await pgdb.many<{ table_name: string; column_name: string; data_type: string }>(
        `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`,
      )
    ).map((c) => `${c.table_name}.${c.column_name}: ${kind(c.data_type === 'USER-DEFINED' ? 'text' : c.data_type)}`);
    expect(pgColumns.sort()).toEqual(sqliteColumns.sort());
    await sqlite.close();
    await pgdb.close();
  });

  it('applies each migration once when instances start together', async () => {
    const url = await postgres.createDatabase();
    const instances = [PostgresDatabase.open(url), PostgresDatabase.open(url), PostgresDatabase.open(url)];
    const ran = await Promise.all(instances.map((db) => migratePostgres(db)));
    // Which instance applies which file depends on who gets the lock first (on a loaded machine
    // one may apply 001-004 and another 005): each file is applied exactly once, by someone.
    const files = readdirSync(new URL('../../migrations/postgres/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort();
    expect(ran.flat().sort()).toEqual(files);
    await Promise.all(instances.map((db) => db.close()));
  });
});
