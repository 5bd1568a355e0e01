import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { migrate } from '../../src/adapters/db/open.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import { createWipeGridReader, type WipeGridReader } from '../../src/adapters/db/wipes-grid.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { migratePostgres } from '../../src/adapters/sql/migrations.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { openTestStore, TEST_STORE } from '../support/test-store.js';

/**
 * The wipes grid's text search `q` by trigram index (issue 31 item 1: SQLite migration 029's
 * FTS5 table, PostgreSQL migration 022's pg_trgm indexes). The index only narrows the wipes; the
 * answer must stay the scan's, so every search here is checked against a plain LIKE (SQLite) or
 * ILIKE (PostgreSQL) over the same tables, the grid's rule written out by hand.
 */
const NOW = '2026-11-28T12:00:00.000Z';
const MIGRATIONS = new URL('../../migrations/', import.meta.url);

/** `%term%`, the term's own wildcards taken literally, as the grid's `q` is. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The wipes the grid's search rule selects, by scan: own fields, technician, customer and lot (own else the token's), certificate number. */
async function scan(db: SqlDatabase, accountId: number, q: string): Promise<string[]> {
  const like = db.dialect === 'postgres' ? 'ILIKE' : 'LIKE';
  const m = (field: string) => `${field} ${like} @q ESCAPE '\\'`;
  const rows = await db.many<{ public_id: string }>(
    `SELECT w.public_id FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id LEFT JOIN certificates c ON c.wipe_result_id = w.id
      WHERE w.account_id = @account
        AND (${m('w.drive_model')} OR ${m('w.drive_serial')} OR ${m('w.asset_tag')} OR ${m('t.user_email')}
             OR ${m('coalesce(w.customer, t.customer)')} OR ${m('coalesce(w.lot_reference, t.lot_reference)')} OR ${m('c.certificate_number')})`,
    { account: accountId, q: containing(q) },
  );
  return rows.map((r) => r.public_id).sort();
}

async function found(reader: WipeGridReader, accountId: number, q: string): Promise<string[]> {
  const page = await reader.search(accountId, { q }, 'completed_desc', 1000, 0);
  expect(await reader.count(accountId, { q })).toBe(page.count);
  expect(page.rows).toHaveLength(page.count);
  return page.rows.map((r) => r.public_id).sort();
}

interface Wipe {
  publicId: string;
  tokenId: number;
  model?: string;
  serial?: string;
  assetTag?: string;
  customer?: string;
  lot?: string;
}

async function storeWipe(db: SqlDatabase, accountId: number, wipe: Wipe): Promise<number> {
  return (await db.one<{ id: number }>(
    `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, drive_model, drive_serial, asset_tag, customer, lot_reference,
                               certifiable, certificate_status, created_at, updated_at)
     VALUES (@publicId, @accountId, @tokenId, @publicId, @model, @serial, @assetTag, @customer, @lot, 1, 'complete', @now, @now) RETURNING id`,
    { accountId, now: NOW, model: null, serial: null, assetTag: null, customer: null, lot: null, ...wipe },
  ))!.id;
}

async function issueCertificate(db: SqlDatabase, accountId: number, wipeId: number, number: string): Promise<void> {
  await db.run(
    `INSERT INTO certificates (public_id, account_id, wipe_result_id, sequence, certificate_number, status, created_at, updated_at)
     VALUES (@publicId, @account, @wipe, @sequence, @number, 'complete', @now, @now)`,
    { publicId: `cert_${number}`, account: accountId, wipe: wipeId, sequence: wipeId, number, now: NOW },
  );
}

describe('the wipes search by trigram index, on the store under test', () => {
  let dir: string;
  let db: SqlDatabase;
  let reader: WipeGridReader;
  let accountId: number;
  let otherId: number;
  let anaToken: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-wipes-search-'));
    db = await openTestStore(dir);
    const account = await createAccount(db, { name: 'Acme Refurb', subscriptionStatus: 'active', now: NOW });
    const other = await createAccount(db, { name: 'Neighbour', subscriptionStatus: 'active', now: NOW });
    accountId = account.id;
    otherId = other.id;
    const token = async (owner: number, userEmail: string, customer: string | null, lotReference: string | null) =>
      (await createToken(db, { accountId: owner, product: 'engine', quotaLimit: null, userEmail, expiresAt: null, customer, lotReference, now: NOW })).id;
    anaToken = await token(accountId, 'ana@acme.test', 'Northwind Schools', 'LOT-42');
    const cyToken = await token(accountId, 'cy@acme.test', 'Contoso', 'LOT-7');
    const deeToken = await token(accountId, 'dee@acme.test', null, null);
    const theirs = await token(otherId, 'eve@other.test', 'Contoso', 'LOT-42');
    const samsung = await storeWipe(db, accountId, { publicId: 'wr_samsung', tokenId: anaToken, model: 'Samsung SSD 870 EVO 500GB', serial: 'S5Y1NX0R123456' });
    await issueCertificate(db, accountId, samsung, 'CW-000123');
    await storeWipe(db, accountId, { publicId: 'wr_seagate', tokenId: deeToken, model: 'ST1000DM003-1CH162', serial: 'Z1D5ABCD', assetTag: 'TAG-7781', customer: 'Müller GmbH', lot: 'JOB-9' });
    await storeWipe(db, accountId, { publicId: 'wr_wdc', tokenId: cyToken, model: 'WDC WD20EZRZ', serial: 'WX41A70' });
    // Typed at the kiosk over the token's default: this wipe is Fabrikam's, not Northwind's.
    await storeWipe(db, accountId, { publicId: 'wr_fabrikam', tokenId: anaToken, model: 'INTEL SSDSC2KB480G8', serial: 'PHYS8123', customer: 'Fabrikam', lot: 'LOT-100%' });
    await storeWipe(db, otherId, { publicId: 'wr_theirs', tokenId: theirs, model: 'Samsung SSD 870 EVO 500GB', serial: 'S5Y1NX0R123456', assetTag: 'TAG-7781' });
    reader = await createWipeGridReader(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a term of three characters or more finds exactly the wipes whose fields contain it, in any case', async () => {
    const expected: Record<string, string[]> = {
      sung: ['wr_samsung'],
      SUNG: ['wr_samsung'],
      'evo 500': ['wr_samsung'],
      s5y1nx: ['wr_samsung'],
      'tag-77': ['wr_seagate'],
      'cw-000123': ['wr_samsung'],
      'job-9': ['wr_seagate'],
      northwind: ['wr_samsung'],
      fabrikam: ['wr_fabrikam'],
      contoso: ['wr_wdc'],
      'cy@acme': ['wr_wdc'],
      'acme.test': ['wr_fabrikam', 'wr_samsung', 'wr_seagate', 'wr_wdc'],
      'lot-4': ['wr_samsung'],
      '100%': ['wr_fabrikam'],
      'no such drive': [],
    };
    for (const [q, ids] of Object.entries(expected)) {
      const answer = await found(reader, accountId, q);
      expect(answer, q).toEqual(ids);
      expect(answer, q).toEqual(await scan(db, accountId, q));
    }
  });

  it('a term with the search syntax\'s own characters is taken literally', async () => {
    for (const q of ['"sung', 'S5Y1"', 'EVO*', 'NEAR(sam', '10%', '_00', 'a\\b']) {
      expect(await found(reader, accountId, q), q).toEqual(await scan(db, accountId, q));
    }
    expect(await found(reader, accountId, '0_1')).toEqual([]);
  });

  it('a term under three characters has no trigram and is found by the scan, the same wipes', async () => {
    for (const q of ['70', 'S', 'ü', '%', '-9']) {
      expect(await found(reader, accountId, q), q).toEqual(await scan(db, accountId, q));
    }
    expect(await found(reader, accountId, '70')).toEqual(['wr_samsung', 'wr_wdc']);
  });

  it('accented text is found as the scan finds it on this store', async () => {
    expect(await found(reader, accountId, 'müller')).toEqual(['wr_seagate']);
    expect(await found(reader, accountId, 'ülle')).toEqual(['wr_seagate']);
    // SQLite's LIKE folds ASCII case only; PostgreSQL's ILIKE folds every letter. The index
    // (which folds every letter on both) must not change either answer.
    const upper = await found(reader, accountId, 'MÜLLER');
    expect(upper).toEqual(await scan(db, accountId, 'MÜLLER'));
    expect(upper).toEqual(TEST_STORE === 'postgres' ? ['wr_seagate'] : []);
    expect(await found(reader, accountId, 'muller')).toEqual([]);
  });

  it('a value changed after the wipe was stored is found by its new value and no more by its old', async () => {
    const id = await storeWipe(db, accountId, { publicId: 'wr_changed', tokenId: anaToken, model: 'TOSHIBA MQ01ABD100', assetTag: 'OLDTAG-1' });
    expect(await found(reader, accountId, 'oldtag')).toEqual(['wr_changed']);
    await db.run("UPDATE wipe_results SET asset_tag = 'NEWTAG-2', customer = 'Globex' WHERE id = @id", { id });
    expect(await found(reader, accountId, 'oldtag')).toEqual([]);
    expect(await found(reader, accountId, 'newtag')).toEqual(['wr_changed']);
    expect(await found(reader, accountId, 'globex')).toEqual(['wr_changed']);
    if (db.dialect === 'sqlite') {
      // The index itself, not a scan, holds the new value (the grid would find it by scan too).
      const sqlite = db as SqliteDatabase;
      expect(sqlite.handle.prepare(`SELECT rowid FROM wipe_search WHERE wipe_search MATCH '"newtag"'`).pluck().all()).toEqual([id]);
      expect(sqlite.handle.prepare(`SELECT rowid FROM wipe_search WHERE wipe_search MATCH '"oldtag"'`).pluck().all()).toEqual([]);
    }
  });

  it('a certificate issued after its wipe is found by its number', async () => {
    const id = await storeWipe(db, accountId, { publicId: 'wr_late', tokenId: anaToken, model: 'Micron 2450 NVMe' });
    expect(await found(reader, accountId, 'CW-000999')).toEqual([]);
    await issueCertificate(db, accountId, id, 'CW-000999');
    expect(await found(reader, accountId, 'cw-000999')).toEqual(['wr_late']);
  });

  it('a deleted wipe is found no more, by any of its fields', async () => {
    const id = await storeWipe(db, accountId, { publicId: 'wr_gone', tokenId: anaToken, model: 'Kingston A400', serial: 'KGONE77' });
    await issueCertificate(db, accountId, id, 'CW-000777');
    expect(await found(reader, accountId, 'kgone')).toEqual(['wr_gone']);
    await db.run('DELETE FROM certificates WHERE wipe_result_id = @id', { id });
    expect(await found(reader, accountId, 'CW-000777')).toEqual([]);
    await db.run('DELETE FROM wipe_results WHERE id = @id', { id });
    expect(await found(reader, accountId, 'kgone')).toEqual([]);
    expect(await found(reader, accountId, 'kingston')).toEqual([]);
    if (db.dialect === 'sqlite') {
      expect((db as SqliteDatabase).handle.prepare('SELECT count(*) FROM wipe_search WHERE rowid = ?').pluck().get(id)).toBe(0);
    }
  });

  it('another account\'s wipes are never found', async () => {
    expect(await found(reader, otherId, 'sung')).toEqual(['wr_theirs']);
    expect(await found(reader, accountId, 'tag-77')).toEqual(['wr_seagate']);
  });
});

describe.runIf(TEST_STORE === 'sqlite')('the wipes search migration on SQLite (029)', () => {
  it('indexes the wipes and certificates stored before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-wipes-search-migration-'));
    try {
      const all = readdirSync(MIGRATIONS).filter((f) => /^\d{3}_.*\.sql$/.test(f));
      const copy = (files: string[]) => {
        for (const file of files) copyFileSync(new URL(file, MIGRATIONS), join(dir, file));
      };
      copy(all.filter((f) => f < '029'));
      const raw = new Database(':memory:');
      // Migrations from a folder of the test's choosing: only the raw connection's migrate() takes one.
      migrate(raw, pathToFileURL(`${dir}/`));
      const db = new SqliteDatabase(raw);
      try {
        const account = await createAccount(db, { name: 'Old', subscriptionStatus: 'active', now: NOW });
        const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'ana@old.test', expiresAt: null, now: NOW });
        const id = await storeWipe(db, account.id, { publicId: 'wr_old', tokenId: token.id, model: 'Samsung SSD 860', serial: 'OLDSERIAL1' });
        await issueCertificate(db, account.id, id, 'CW-004242');
        // Before the migration the search is the scan, and finds it.
        expect(await found(await createWipeGridReader(db), account.id, 'oldserial')).toEqual(['wr_old']);
        copy(all.filter((f) => f >= '029'));
        expect(migrate(raw, pathToFileURL(`${dir}/`))).toContain('029_wipes_search.sql');
        const reader = await createWipeGridReader(db);
        expect(await found(reader, account.id, 'oldserial')).toEqual(['wr_old']);
        expect(await found(reader, account.id, 'cw-0042')).toEqual(['wr_old']);
        expect(raw.prepare(`SELECT rowid FROM wipe_search WHERE wipe_search MATCH '"cw-0042"'`).pluck().all()).toEqual([id]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(TEST_STORE === 'postgres')('the wipes search migration on PostgreSQL (022)', () => {
  it('refuses to start, naming pg_trgm, where the extension cannot be created', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const suffix = `${process.pid}_${Date.now().toString(36)}`;
    const role = `no_ext_${suffix}`;
    const name = `no_ext_${suffix}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      // A role that owns its tables but may not create extensions in the database (no CREATE on it).
      await admin.query(`CREATE ROLE "${role}" LOGIN`);
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
      await admin.query(`REVOKE CREATE ON DATABASE "${name}" FROM PUBLIC`);
      const inDb = new pg.Client({ connectionString: adminUrl.replace('@/postgres?', `@/${name}?`) });
      await inDb.connect();
      try {
        await inDb.query(`GRANT CREATE, USAGE ON SCHEMA public TO "${role}"`);
        // The schema's first migration needs citext: a superuser installed that one, not pg_trgm.
        await inDb.query('CREATE EXTENSION citext');
      } finally {
        await inDb.end();
      }
      const url = adminUrl.replace(/\/\/[^@]*@\/postgres\?/, `//${role}@/${name}?`);
      const db = PostgresDatabase.open(url, { max: 1 });
      try {
        await expect(migratePostgres(db)).rejects.toThrow(/022_wipes_search: the PostgreSQL extension pg_trgm cannot be created in this database \(permission denied/);
        // Everything before it stands; the search's migration is not recorded as done.
        const done = await db.many<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(done.map((r) => r.version)).toContain('001_schema.sql');
        expect(done.map((r) => r.version)).not.toContain('022_wipes_search.sql');
      } finally {
        await db.close();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS "${role}"`);
      await admin.end();
    }
  });
});
