import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type WritableDb } from '../../src/adapters/db/open.js';

let dir: string;
let db: WritableDb;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasure-mig-004-'));
  db = openDatabase(join(dir, 'cloud.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = '2026-11-22T12:00:00.000Z';
const subscription = (secret = 'a'.repeat(64), eventType = 'asset_reported') =>
  db
    .prepare(
      `INSERT INTO webhook_subscriptions (public_id, account_id, event_type, url, signing_secret, created_at, updated_at)
       VALUES (?, 1, ?, 'https://h.example/x', ?, ?, ?) RETURNING id`,
    )
    .get(`whk_${Math.random().toString(36).slice(2)}`, eventType, secret, now, now) as { id: number };

describe('migration 004_webhooks', () => {
  beforeEach(() => {
    db.prepare("INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_x', 'X', ?, ?)").run(now, now);
  });

  it('creates the subscription, outbox, revision, ledger and attempt tables', () => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'webhook_%' ORDER BY name").pluck().all();
    expect(tables).toEqual(['webhook_attempts', 'webhook_deliveries', 'webhook_events', 'webhook_revisions', 'webhook_subscriptions']);
    expect(db.prepare("SELECT version FROM schema_migrations WHERE version = '004_webhooks.sql'").pluck().get()).toBe('004_webhooks.sql');
  });

  it('enforces the six event types, a 64-character secret and one row per (subscription, event)', () => {
    expect(() => subscription('short')).toThrow(/CHECK/);
    expect(() => subscription(undefined, 'wipe_session_started')).toThrow(/CHECK/);
    const { id } = subscription();
    const event = db
      .prepare(
        `INSERT INTO webhook_events (event_id, account_id, event_type, resource_id, revision, payload, created_at)
         VALUES ('e1', 1, 'asset_reported', 'asset_x', 1, '{}', ?) RETURNING id`,
      )
      .get(now) as { id: number };
    const ledger = db.prepare(
      `INSERT INTO webhook_deliveries (subscription_id, event_id, max_attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, 8, ?, ?, ?)`,
    );
    ledger.run(id, event.id, now, now, now);
    expect(() => ledger.run(id, event.id, now, now, now)).toThrow(/UNIQUE/);
    db.prepare(`INSERT INTO webhook_attempts (delivery_id, attempt, outcome, duration_ms, attempted_at) VALUES (1, 1, 'failed', 3, ?)`).run(now);
    // Deleting a subscription takes its ledger and attempts along; the event stays for others.
    db.prepare('DELETE FROM webhook_subscriptions WHERE id = ?').run(id);
    expect(db.prepare('SELECT (SELECT count(*) FROM webhook_deliveries) + (SELECT count(*) FROM webhook_attempts)').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(1);
  });
});
