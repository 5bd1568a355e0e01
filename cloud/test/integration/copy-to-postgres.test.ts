import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../../test/support/postgres.js';
import { systemClock } from '../../src/adapters/clock.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { buildCloudApp } from '../../src/http/app.js';
import { fingerprint } from '../helpers.js';
import { freshSigner } from '../support/fresh-signer.js';

const run = promisify(execFile);
const BIN = new URL('../../bin/erasure-cloud.js', import.meta.url).pathname;
const SECRET = 'copy-test-internal-secret-0123456789';

let postgres: TestPostgres;
let dir: string;
let keys: { device_token_private_key: string };

const cli = async (env: NodeJS.ProcessEnv, ...args: string[]) => {
  const { stdout } = await run(process.execPath, [BIN, ...args, '--json'], {
    env: { ...process.env, DATA_DIR: dir, DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key, WEBHOOK_ALLOW_HTTP: '1', ...env },
  });
  return JSON.parse(stdout);
};

/** A cloud whose SQLite file holds a bit of everything: admin rows, device traffic, certificates, webhooks. */
async function populate(): Promise<void> {
  const account = await cli({}, 'admin', 'create-account', '--name', 'Acme Refurb');
  await cli({}, 'admin', 'create-user', '--account', account.id, '--email', 'Ana@Example.com', '--password', 'correct horse battery', '--name', 'Ana Lima');
  await cli({}, 'admin', 'mint-api-key', '--account', account.id, '--name', 'ERP sync');
  await cli({}, 'admin', 'create-webhook', '--account', account.id, '--event-type', 'wipe_session_completed', '--url', 'https://hooks.example.com/erasure');
  const token = await cli({}, 'admin', 'mint-device-token', '--account', account.id, '--quota', '5', '--user-email', 'ana@example.com');

  const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const app = buildCloudApp({ db, clock: systemClock, internalApiSecret: SECRET });
  await app.ready();
  const sign = freshSigner(SECRET);
  const post = async (url: string, body: object) => {
    const payload = JSON.stringify({ jti: token.jti, ...body });
    const headers = sign(payload);
    const res = await app.inject({ method: 'POST', url, payload, headers: { ...headers, 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  try {
    const { job_id } = await post('/internal/tokens/validate', {});
    await post('/internal/assets', { record_id: 'boot-1', engine_version: '1.0.0', fingerprint: fingerprint() });
    await post('/internal/wipe_results', {
      job_id: `${job_id}-0`,
      drive_serial: 'S4DYNX0M123456',
      drive_model: 'SAMSUNG MZVLB512HAJQ',
      drive_capacity_gb: 512,
      wipe_method: 'NIST 800-88 R2 Purge',
      started_at: '2026-11-22T12:01:00Z',
      completed_at: '2026-11-22T12:03:10Z',
      verification_hash: 'a'.repeat(64),
      technique: 'NVMe Sanitize (Crypto Erase)',
      markings_removed: true,
    });
  } finally {
    await app.close();
    await db.close();
  }
}

/** Every row of every table, in a stable order, with values as plain JSON. */
async function dumpSqlite(path: string, tables: string[]): Promise<Record<string, unknown[]>> {
  const db = new Database(path, { readonly: true });
  try {
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all().map(normal).sort(byJson)]));
  } finally {
    db.close();
  }
}

async function dumpPostgres(db: PostgresDatabase, tables: string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = (await db.many<Record<string, unknown>>(`SELECT * FROM ${t}`)).map(normal).sort(byJson);
  return out;
}

const normal = (row: unknown) => JSON.parse(JSON.stringify(row)) as unknown;
const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

beforeAll(async () => {
  postgres = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'erasure-copy-'));
  keys = JSON.parse((await run(process.execPath, [BIN, 'keygen', '--json'])).stdout);
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('erasure-cloud migrate and copy-to-postgres', { timeout: 90_000 }, () => {
  it('migrate applies every pending migration of the SQLite store, then none', async () => {
    const first = await cli({}, 'migrate');
    expect(first.store).toBe('sqlite');
    expect(first.applied[0]).toBe('001_init.sql');
    expect(first.applied.length).toBeGreaterThanOrEqual(8);
    expect(await cli({}, 'migrate')).toEqual({ store: 'sqlite', applied: [] });
  });

  it('migrate applies the PostgreSQL migrations when DATABASE_URL names a database', async () => {
    const url = await postgres.createDatabase();
    // Every file of the PostgreSQL series, in order (read from the folder, so a new migration needs no edit here).
    const series = readdirSync(fileURLToPath(new URL('../../migrations/postgres/', import.meta.url))).filter((f) => f.endsWith('.sql')).sort();
    expect(series.slice(0, 2)).toEqual(['001_schema.sql', '002_certificate_keys.sql']);
    expect(await cli({ DATABASE_URL: url }, 'migrate')).toEqual({ store: 'postgres', applied: series });
    expect(await cli({ DATABASE_URL: url }, 'migrate')).toEqual({ store: 'postgres', applied: [] });
  });

  it('copies every row of every table, ids kept, into an empty PostgreSQL database', async () => {
    await populate();
    const url = await postgres.createDatabase();
    const copied = await cli({ DATABASE_URL: url }, 'copy-to-postgres', '--from', join(dir, 'cloud.sqlite'));
    expect(copied.from).toBe(join(dir, 'cloud.sqlite'));
    const tables = Object.keys(copied.tables);
    for (const t of ['accounts', 'users', 'api_keys', 'license_tokens', 'checkins', 'assets', 'asset_drives', 'wipe_results', 'certificates', 'certificate_sequences', 'jobs', 'webhook_subscriptions', 'webhook_events', 'webhook_deliveries']) {
      expect(copied.tables[t], t).toBeGreaterThan(0);
    }
    const target = PostgresDatabase.open(url);
    try {
      expect(await dumpPostgres(target, tables)).toEqual(await dumpSqlite(join(dir, 'cloud.sqlite'), tables));
      // Sequences moved past the copied ids: the next account does not collide.
      const next = await target.one<{ id: number }>(
        `INSERT INTO accounts (public_id, name, created_at, updated_at) VALUES ('acct_next', 'Next', 'now', 'now') RETURNING id`,
      );
      expect(next!.id).toBeGreaterThan(copied.tables.accounts);
    } finally {
      await target.close();
    }
  });

  it('refuses to copy into a database that already holds data, and changes nothing', async () => {
    const url = await postgres.createDatabase();
    await cli({ DATABASE_URL: url }, 'copy-to-postgres', '--from', join(dir, 'cloud.sqlite'));
    const again = cli({ DATABASE_URL: url }, 'copy-to-postgres', '--from', join(dir, 'cloud.sqlite'));
    await expect(again).rejects.toMatchObject({ stderr: expect.stringContaining('already holds accounts rows') });
    const target = PostgresDatabase.open(url);
    try {
      const sqlite = await dumpSqlite(join(dir, 'cloud.sqlite'), ['accounts', 'wipe_results']);
      expect(await dumpPostgres(target, ['accounts', 'wipe_results'])).toEqual(sqlite);
    } finally {
      await target.close();
    }
  });

  it('after the copy the cloud runs on PostgreSQL with the copied data: admin lists the same certificates', async () => {
    const url = await postgres.createDatabase();
    await cli({ DATABASE_URL: url }, 'copy-to-postgres', '--from', join(dir, 'cloud.sqlite'));
    const [account] = await dumpSqlite(join(dir, 'cloud.sqlite'), ['accounts']).then((d) => d.accounts as { public_id: string }[]);
    const onSqlite = await cli({}, 'admin', 'list-certificates', '--account', account!.public_id);
    expect(onSqlite.length).toBeGreaterThan(0);
    expect(await cli({ DATABASE_URL: url }, 'admin', 'list-certificates', '--account', account!.public_id)).toEqual(onSqlite);
  });
});
