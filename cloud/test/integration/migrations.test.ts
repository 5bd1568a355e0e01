import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/adapters/db/open.js';

const MIGRATIONS = new URL('../../migrations/', import.meta.url);

describe('migrations', () => {
  it('001_init creates every table on a fresh file in WAL mode with synchronous FULL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-mig-'));
    try {
      const db = openDatabase(join(dir, 'cloud.sqlite'));
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      expect(tables).toEqual(
        expect.arrayContaining(['accounts', 'users', 'license_tokens', 'checkins', 'assets', 'wipe_results', 'jobs', 'chassis_maps', 'schema_migrations']),
      );
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('applies each migration once, however often it runs', () => {
    const db = new Database(':memory:');
    const files = readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql'));
    expect(migrate(db)).toEqual(files.sort());
    expect(migrate(db)).toEqual([]);
    db.close();
  });
});

describe('migration 005_user_names', () => {
  it('adds a nullable display name to users', () => {
    const db = new Database(':memory:');
    migrate(db);
    const columns = db.prepare('PRAGMA table_info(users)').all() as { name: string; notnull: number }[];
    expect(columns.find((c) => c.name === 'name')).toMatchObject({ notnull: 0 });
    db.close();
  });
});
