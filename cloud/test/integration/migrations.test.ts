import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
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

describe('migration 006_wipe_result_checkins', () => {
  it('adds uncertified_reason and names why the results stored before it were not certified', () => {
    // The schema as it stood before 006, from a folder holding only 001–005.
    const before = mkdtempSync(join(tmpdir(), 'erasure-mig-005-'));
    for (const file of readdirSync(MIGRATIONS).filter((f) => /^00[1-5]_.*\.sql$/.test(f))) copyFileSync(new URL(file, MIGRATIONS), join(before, file));
    const db = new Database(':memory:');
    try {
      migrate(db, pathToFileURL(`${before}/`));
      db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
      db.exec(`INSERT INTO license_tokens (id, prefix_id, jti, account_id, product, status, created_at, updated_at) VALUES (1, 'ltok_1', 'j', 1, 'engine', 'active', 'x', 'x')`);
      const insert = db.prepare(
        `INSERT INTO wipe_results (public_id, account_id, token_id, job_id, wipe_status, validation, certifiable, certificate_status, created_at, updated_at)
         VALUES (?, 1, 1, ?, ?, ?, ?, ?, 'x', 'x')`,
      );
      insert.run('wr_a', 'a', 'completed', null, 1, 'pending');
      insert.run('wr_b', 'b', 'failed', null, 0, null);
      insert.run('wr_c', 'c', null, 'rejected', 0, null);
      expect(migrate(db)).toContain('006_wipe_result_checkins.sql');
      expect(db.prepare('SELECT public_id, certificate_status, uncertified_reason FROM wipe_results ORDER BY public_id').all()).toEqual([
        { public_id: 'wr_a', certificate_status: 'pending', uncertified_reason: null },
        { public_id: 'wr_b', certificate_status: null, uncertified_reason: 'wipe_status failed' },
        { public_id: 'wr_c', certificate_status: null, uncertified_reason: 'validation rejected' },
      ]);
    } finally {
      db.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});

describe('migration 007_rate_windows', () => {
  it('creates one row per key with its count and window end', () => {
    const db = new Database(':memory:');
    migrate(db);
    const columns = (db.prepare('PRAGMA table_info(rate_windows)').all() as { name: string; pk: number }[]).map((c) => [c.name, c.pk]);
    expect(columns).toEqual([['key', 1], ['count', 0], ['reset_at', 0]]);
    db.close();
  });
});

describe('migration 008_webhooks_rollover_queue', () => {
  it('adds the previous secret and its expiry, and refuses a previous secret of the wrong length', () => {
    const db = new Database(':memory:');
    migrate(db);
    const names = (db.prepare('PRAGMA table_info(webhook_subscriptions)').all() as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['previous_signing_secret', 'previous_secret_expires_at']));
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    const insert = db.prepare(
      `INSERT INTO webhook_subscriptions (public_id, account_id, event_type, url, signing_secret, previous_signing_secret, created_at, updated_at)
       VALUES (?, 1, 'asset_reported', ?, ?, ?, 'x', 'x')`,
    );
    expect(() => insert.run('whk_a', 'https://a.example', 'a'.repeat(64), 'short')).toThrow(/CHECK/);
    expect(() => insert.run('whk_b', 'https://b.example', 'a'.repeat(64), 'b'.repeat(64))).not.toThrow();
    db.close();
  });
});

describe('migration 012_customer_lot', () => {
  it('gives tokens and machines an optional customer and lot / job reference, NULL when none is set', () => {
    const db = new Database(':memory:');
    migrate(db);
    for (const table of ['license_tokens', 'assets']) {
      const columns = db.prepare(`SELECT name, "notnull" AS required FROM pragma_table_info('${table}')`).all() as { name: string; required: number }[];
      expect(columns.filter((c) => c.name === 'customer' || c.name === 'lot_reference')).toEqual([
        { name: 'customer', required: 0 },
        { name: 'lot_reference', required: 0 },
      ]);
    }
    db.close();
  });
});

describe('migration 010_device_token_settings', () => {
  it('keeps one row of token terms per account and refuses a quota or lifetime below 1', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    const insert = db.prepare(`INSERT INTO device_token_settings (account_id, quota_limit, lifetime_days, created_at, updated_at) VALUES (1, ?, ?, 'x', 'x')`);
    expect(() => insert.run(0, 30)).toThrow(/CHECK/);
    expect(() => insert.run(10, 0)).toThrow(/CHECK/);
    expect(() => insert.run(null, null)).toThrow(/NOT NULL/);
    expect(() => insert.run(null, 30)).not.toThrow();
    expect(() => insert.run(10, 30)).toThrow(/UNIQUE|PRIMARY KEY/);
    db.close();
  });
});

describe('migration 016_erasure_policies', () => {
  it('keeps one erasure policy per account and lets a token carry its own, NULL when it follows its account', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    const insert = db.prepare(`INSERT INTO erasure_policies (account_id, policy, created_at, updated_at) VALUES (1, ?, 'x', 'x')`);
    expect(() => insert.run(null)).toThrow(/NOT NULL/);
    expect(() => insert.run('{}')).not.toThrow();
    expect(() => insert.run('{}')).toThrow(/UNIQUE|PRIMARY KEY/);
    const columns = db.prepare(`SELECT name, "notnull" AS required FROM pragma_table_info('license_tokens')`).all() as { name: string; required: number }[];
    expect(columns.find((c) => c.name === 'erasure_policy')).toEqual({ name: 'erasure_policy', required: 0 });
    db.close();
  });
});

describe('migration 017_validation_sampling', () => {
  it('keeps one rate per account within 1–100, one row per lot, and picks each wipe result at most once', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    const rate = db.prepare(`INSERT INTO validation_settings (account_id, rate_percent, created_at, updated_at) VALUES (1, ?, 'x', 'x')`);
    expect(() => rate.run(0)).toThrow(/CHECK/);
    expect(() => rate.run(101)).toThrow(/CHECK/);
    expect(() => rate.run(5)).not.toThrow();
    const lot = db.prepare(`INSERT INTO validation_lots (public_id, account_id, customer, lot_reference, rate_percent, created_at, updated_at) VALUES (?, 1, 'C', 'L', 5, 'x', 'x')`);
    expect(() => lot.run('lot_a')).not.toThrow();
    expect(() => lot.run('lot_b')).toThrow(/UNIQUE/);
    const columns = db.prepare(`SELECT name FROM pragma_table_info('validation_samples')`).pluck().all();
    expect(columns).toEqual(expect.arrayContaining(['lot_id', 'wipe_result_id', 'outcome', 'reason', 'report_id', 'disposition_before']));
    expect(db.prepare(`SELECT "unique" FROM pragma_index_list('validation_samples') WHERE origin = 'u'`).pluck().all()).toEqual([1]);
    db.close();
  });
});

describe('migration 017_validation_sampling, webhook subscriptions', () => {
  it('lets a subscription name validation_rejected and keeps every subscription and delivery row (no cascade)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-mig-'));
    try {
      const only = join(dir, 'before');
      mkdirSync(only);
      for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < '017')) copyFileSync(new URL(f, MIGRATIONS), join(only, f));
      const db = new Database(':memory:');
      db.pragma('foreign_keys = ON');
      migrate(db, pathToFileURL(`${only}/`));
      db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x');
        INSERT INTO webhook_subscriptions (id, public_id, account_id, event_type, url, signing_secret, created_at, updated_at)
          VALUES (7, 'whk_7', 1, 'wipe_session_ready', 'https://x.test', '${'a'.repeat(64)}', 'x', 'x');
        INSERT INTO webhook_events (id, event_id, account_id, event_type, resource_id, revision, payload, created_at)
          VALUES (3, 'e3', 1, 'wipe_session_ready', 'r', 1, '{}', 'x');
        INSERT INTO webhook_deliveries (subscription_id, event_id, max_attempts, created_at, updated_at) VALUES (7, 3, 8, 'x', 'x');`);
      expect(() => db.prepare(`UPDATE webhook_subscriptions SET event_type = 'validation_rejected'`).run()).toThrow(/CHECK/);
      // 017 is the first applied; later migrations (018 onwards) follow it.
      expect(migrate(db)[0]).toBe('017_validation_sampling.sql');
      expect(db.prepare('SELECT COUNT(*) FROM webhook_deliveries').pluck().get()).toBe(1);
      expect(db.prepare(`SELECT id FROM webhook_subscriptions`).pluck().all()).toEqual([7]);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      db.prepare(`UPDATE webhook_subscriptions SET event_type = 'validation_rejected'`).run();
      expect(() => db.prepare(`UPDATE webhook_subscriptions SET event_type = 'nope'`).run()).toThrow(/CHECK/);
      // Deleting the subscription still cascades to its deliveries: the reference follows the new table.
      db.prepare('DELETE FROM webhook_subscriptions').run();
      expect(db.prepare('SELECT COUNT(*) FROM webhook_deliveries').pluck().get()).toBe(0);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migration 019_ata_master_passwords', () => {
  it('keeps one row of ATA master passwords per account, with the factory-default choice required', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    const insert = db.prepare(`INSERT INTO ata_master_passwords (account_id, entries, factory_defaults, updated_at) VALUES (?, '[]', ?, 'x')`);
    expect(() => insert.run(1, null)).toThrow(/NOT NULL/);
    expect(() => insert.run(1, 0)).not.toThrow();
    expect(() => insert.run(1, 1)).toThrow(/UNIQUE|PRIMARY KEY/);
    db.close();
  });
});

describe('migration 020_health_grading', () => {
  it('keeps one health grade table per account, with the self-test switch required and 0 or 1', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    const insert = db.prepare(`INSERT INTO health_gradings (account_id, rules, smart_self_test, updated_at) VALUES (?, '[]', ?, 'x')`);
    expect(() => insert.run(1, null)).toThrow(/NOT NULL/);
    expect(() => insert.run(1, 2)).toThrow(/CHECK/);
    expect(() => insert.run(1, 1)).not.toThrow();
    expect(() => insert.run(1, 0)).toThrow(/UNIQUE|PRIMARY KEY/);
    db.close();
  });
});

describe('migration 027_certificate_language', () => {
  it('gives accounts a certificate language defaulting to English, tokens and certificates an optional one, and refuses any other language', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.exec(`INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_1', 'A', 'x', 'x')`);
    expect(db.prepare('SELECT certificate_language FROM accounts WHERE id = 1').pluck().get()).toBe('en');
    expect(() => db.exec(`UPDATE accounts SET certificate_language = 'de' WHERE id = 1`)).not.toThrow();
    expect(() => db.exec(`UPDATE accounts SET certificate_language = 'it' WHERE id = 1`)).toThrow(/CHECK/);
    expect(() => db.exec(`UPDATE accounts SET certificate_language = NULL WHERE id = 1`)).toThrow(/NOT NULL/);
    const columns = (table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; notnull: number }[]).filter((c) => /language/.test(c.name));
    expect(columns('license_tokens')).toEqual([expect.objectContaining({ name: 'certificate_language', notnull: 0 })]);
    expect(columns('certificates')).toEqual([expect.objectContaining({ name: 'language', notnull: 0 })]);
    db.close();
  });
});
