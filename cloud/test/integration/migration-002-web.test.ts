import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/db/open.js';

const MIGRATIONS = new URL('../../migrations/', import.meta.url);

/** A migrations folder holding only the named files, to stop the schema at a given version. */
function migrationsUpTo(dir: string, files: string[]): URL {
  for (const file of files) copyFileSync(new URL(file, MIGRATIONS), join(dir, file));
  return pathToFileURL(`${dir}/`);
}

describe('migration 002_web', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-mig2-'));
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insertAsset = (hardwareUid: string, fingerprint: object, storageSerials: string | null) =>
    db
      .prepare(
        `INSERT INTO assets (public_id, account_id, hardware_uid, record_id, fingerprint, storage_serials,
                             first_seen_at, last_booted_at, audited_at, updated_at)
         VALUES (?, 1, ?, 'CW-20261122-120000', ?, ?, 't', 't', 't', 't') RETURNING id`,
      )
      .pluck()
      .get(`asset_${hardwareUid}`, hardwareUid, JSON.stringify(fingerprint), storageSerials) as number;
  const drives = () => db.prepare('SELECT serial, asset_id, media_type FROM asset_drives ORDER BY serial').all();

  it('adds sessions, api_keys, push_integrations, asset_drives and the serial index, backfilling existing assets', () => {
    migrate(db, migrationsUpTo(dir, ['001_init.sql']));
    db.exec("INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_a', 'A', 't', 't')");
    const id = insertAsset('m1', { storage: [{ serial: ' S1 ', media_type: 'SSD' }, { serial: 'S2' }, { serial: 'Unknown' }] }, 'S1, S2');
    expect(migrate(db, migrationsUpTo(dir, ['001_init.sql', '002_web.sql']))).toEqual(['002_web.sql']);

    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['sessions', 'api_keys', 'push_integrations', 'asset_drives']));
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(['assets_account_serial', 'api_keys_account', 'sessions_expires']));
    // Only serials that made it into storage_serials (the placeholder did not), trimmed.
    expect(drives()).toEqual([
      { serial: 'S1', asset_id: id, media_type: 'SSD' },
      { serial: 'S2', asset_id: id, media_type: null },
    ]);
  });

  it('keeps asset_drives in step with inserts, refreshed fingerprints and deleted assets', () => {
    migrate(db, migrationsUpTo(dir, ['001_init.sql', '002_web.sql']));
    db.exec("INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_a', 'A', 't', 't')");
    const id = insertAsset('m1', { storage: [{ serial: 'S1', media_type: 'HDD' }] }, 'S1');
    insertAsset('m2', { storage: { serial: 'not-an-array' } }, null);
    insertAsset('m3', {}, null);
    expect(drives()).toEqual([{ serial: 'S1', asset_id: id, media_type: 'HDD' }]);
    db.prepare('UPDATE assets SET fingerprint = ?, storage_serials = ? WHERE id = ?').run(
      JSON.stringify({ storage: [{ serial: 'S9', media_type: 'NVMe SSD' }] }),
      'S9',
      id,
    );
    expect(drives()).toEqual([{ serial: 'S9', asset_id: id, media_type: 'NVMe SSD' }]);
    db.prepare('DELETE FROM assets WHERE id = ?').run(id);
    expect(drives()).toEqual([]);
  });

  it('serves the public listing from assets_account_updated and the serial filter from assets_account_serial', () => {
    migrate(db, MIGRATIONS);
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan('SELECT id FROM assets WHERE account_id = 1 ORDER BY updated_at DESC, id DESC LIMIT 100 OFFSET 5000')).toMatch(
      /COVERING INDEX assets_account_updated/,
    );
    expect(plan("SELECT id FROM assets WHERE account_id = 1 AND updated_at >= '2026' ORDER BY updated_at DESC, id DESC LIMIT 100")).toMatch(
      /assets_account_updated/,
    );
    expect(plan("SELECT count(*) FROM assets WHERE account_id = 1 AND serial_number = 'X'")).toMatch(/assets_account_serial/);
  });
});
