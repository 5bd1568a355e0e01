import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { buildCloudApp } from '../../src/http/app.js';
import { SECRET, testClock } from '../helpers.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';

/**
 * Rate limits held in the database (issue 11): password spraying from one address is throttled
 * whatever the emails, and every limit survives a restart and holds across processes (here: two
 * apps, each with its own connections, on one SQLite file or one PostgreSQL database).
 */
describe('rate limits shared through the database', () => {
  let dir: string;
  /** Opens another connection (pool) to the one database every instance of a test shares. */
  let openShared: () => SqlDatabase;
  const open: { app: FastifyInstance; db: SqlDatabase }[] = [];
  const clock = testClock();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'erasure-limits-'));
    const path = join(dir, 'cloud.sqlite');
    const url = TEST_STORE === 'postgres' ? await freshPostgresUrl() : undefined;
    openShared = () => (url ? PostgresDatabase.open(url, { max: 4 }) : SqliteDatabase.open(path));
  });
  afterEach(async () => {
    for (const { app, db } of open.splice(0)) {
      await app.close();
      await db.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** One cloud process's app over the shared database. */
  const instance = async (deps: Partial<Parameters<typeof buildCloudApp>[0]> = {}) => {
    const db = openShared();
    const app = buildCloudApp({ ...deps, db, clock, internalApiSecret: SECRET });
    await app.ready();
    open.push({ app, db });
    return { app, db };
  };
  const restart = async (which: { app: FastifyInstance; db: SqlDatabase }, deps: Parameters<typeof instance>[0] = {}) => {
    open.splice(open.indexOf(which), 1);
    await which.app.close();
    await which.db.close();
    return instance(deps);
  };
  const login = (app: FastifyInstance, email: string, address: string) =>
    app.inject({
      method: 'POST',
      url: '/login',
      payload: JSON.stringify({ email, password: 'wrong password' }),
      headers: { 'content-type': 'application/json' },
      remoteAddress: address,
    });

  // Each failed sign-in hashes a password on purpose (no timing oracle): 60 of them take their time on a loaded machine.
  it('throttles password spraying: 60 different emails from one address get 429 after 20 failures', { timeout: 120_000 }, async () => {
    const { app } = await instance();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await login(app, `user${i}@acme.test`, '203.0.113.7')).statusCode);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(40).fill(429));
    const limited = await login(app, 'someone-new@acme.test', '203.0.113.7');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await login(app, 'user0@acme.test', '198.51.100.4')).statusCode).toBe(401);
  });

  it('keeps counting sign-in failures across a restart', async () => {
    const first = await instance();
    for (let i = 0; i < 5; i++) expect((await login(first.app, 'ana@acme.test', '203.0.113.8')).statusCode).toBe(401);
    const second = await restart(first);
    expect((await login(second.app, 'ana@acme.test', '203.0.113.8')).statusCode).toBe(429);
  });

  it('two processes share one per-address count', { timeout: 120_000 }, async () => {
    const a = await instance();
    const b = await instance();
    for (let i = 0; i < 10; i++) expect((await login(a.app, `a${i}@acme.test`, '203.0.113.9')).statusCode).toBe(401);
    for (let i = 0; i < 10; i++) expect((await login(b.app, `b${i}@acme.test`, '203.0.113.9')).statusCode).toBe(401);
    expect((await login(a.app, 'c@acme.test', '203.0.113.9')).statusCode).toBe(429);
    expect((await login(b.app, 'd@acme.test', '203.0.113.9')).statusCode).toBe(429);
  });

  it('the public API limit holds across two processes and a restart', async () => {
    const rateLimit = { publicApiRateLimit: { limit: 4, windowMs: 60_000 } };
    const a = await instance(rateLimit);
    const b = await instance(rateLimit);
    const account = await createAccount(a.db, { name: 'Acme', subscriptionStatus: 'active', now: clock.now().toISOString() });
    const key = (await mintApiKey({ db: a.db, clock }, { accountId: account.id, createdByUserId: null })).apiKey;
    const call = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
    expect((await call(a.app)).headers['ratelimit-remaining']).toBe('3');
    expect((await call(b.app)).headers['ratelimit-remaining']).toBe('2');
    expect((await call(a.app)).headers['ratelimit-remaining']).toBe('1');
    const restarted = await restart(b, rateLimit);
    expect((await call(restarted.app)).headers['ratelimit-remaining']).toBe('0');
    expect((await call(a.app)).statusCode).toBe(429);
  });
});
