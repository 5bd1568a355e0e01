import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';

let dir: string;
let db: SqliteDatabase;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasure-mig-004-'));
  db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = '2026-11-22T12:00:00.000Z';
const subscription = async (secret = 'a'.repeat(64), eventType = 'asset_reported') =>
  (await db.one<{ id: number }>(
    `INSERT INTO webhook_subscriptions (public_id, account_id, event_type, url, signing_secret, created_at, updated_at)
     VALUES (@publicId, 1, @eventType, 'https://h.example/x', @secret, @now, @now) RETURNING id`,
    { publicId: `whk_${Math.random().toString(36).slice(2)}`, eventType, secret, now },
  ))!;
const count = async (sql: string) => (await db.one<{ n: number }>(sql))!.n;

describe('migration 004_webhooks', () => {
  beforeEach(async () => {
    await db.run("INSERT INTO accounts (id, public_id, name, created_at, updated_at) VALUES (1, 'acct_x', 'X', @now, @now)", { now });
  });

  it('creates the subscription, outbox, revision, ledger and attempt tables', async () => {
    const tables = (await db.many<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'webhook_%' ORDER BY name")).map((t) => t.name);
    expect(tables).toEqual(['webhook_attempts', 'webhook_deliveries', 'webhook_events', 'webhook_revisions', 'webhook_subscriptions']);
    expect(await db.one("SELECT version FROM schema_migrations WHERE version = '004_webhooks.sql'")).toEqual({ version: '004_webhooks.sql' });
  });

  it('enforces the six event types, a 64-character secret and one row per (subscription, event)', async () => {
    await expect(subscription('short')).rejects.toThrow(/CHECK/);
    await expect(subscription(undefined, 'wipe_session_started')).rejects.toThrow(/CHECK/);
    const { id } = await subscription();
    const event = (await db.one<{ id: number }>(
      `INSERT INTO webhook_events (event_id, account_id, event_type, resource_id, revision, payload, created_at)
       VALUES ('e1', 1, 'asset_reported', 'asset_x', 1, '{}', @now) RETURNING id`,
      { now },
    ))!;
    const ledger = () =>
      db.run(
        `INSERT INTO webhook_deliveries (subscription_id, event_id, max_attempts, next_attempt_at, created_at, updated_at) VALUES (@id, @event, 8, @now, @now, @now)`,
        { id, event: event.id, now },
      );
    await ledger();
    await expect(ledger()).rejects.toThrow(/UNIQUE/);
    await db.run(`INSERT INTO webhook_attempts (delivery_id, attempt, outcome, duration_ms, attempted_at) VALUES (1, 1, 'failed', 3, @now)`, { now });
    // Deleting a subscription takes its ledger and attempts along; the event stays for others.
    await db.run('DELETE FROM webhook_subscriptions WHERE id = @id', { id });
    expect(await count('SELECT (SELECT count(*) FROM webhook_deliveries) + (SELECT count(*) FROM webhook_attempts) AS n')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM webhook_events')).toBe(1);
  });
});
