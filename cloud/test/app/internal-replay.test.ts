import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { signServiceRequest } from '@erasure/shared';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { databaseSeenSignatures } from '../../src/adapters/db/seen-signatures.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { buildCloudApp } from '../../src/http/app.js';
import { SECRET, testClock } from '../helpers.js';
import { sharedTestStore } from '../support/test-store.js';

/**
 * Issue 28 item 6: the spec's HMAC headers carry no nonce, so the cloud refuses the same signature
 * twice within its 300 s window, remembered in the store and shared by every instance on it.
 */
describe('an exact replay of a signed internal call', () => {
  const clock = testClock();
  let dir: string;
  const open: { app: FastifyInstance; db: SqlDatabase }[] = [];
  afterEach(async () => {
    for (const { app, db } of open.splice(0)) {
      await app.close();
      await db.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** Instances of the cloud, each with its own connections, over one store (file or database). */
  async function instances(count: number) {
    dir = mkdtempSync(join(tmpdir(), 'erasure-replay-'));
    const openShared = await sharedTestStore(dir);
    const made = [];
    for (let i = 0; i < count; i++) {
      const db = await openShared();
      const app = buildCloudApp({ db, clock, internalApiSecret: SECRET });
      await app.ready();
      open.push({ app, db });
      made.push({ app, db });
    }
    return made;
  }

  async function engineToken(db: SqlDatabase, quota: number) {
    const now = clock.now().toISOString();
    const account = await createAccount(db, { name: 'Acme Refurb', subscriptionStatus: 'active', now });
    return createToken(db, {
      accountId: account.id, product: 'engine', quotaLimit: quota, userEmail: 'tech@example.com',
      expiresAt: null, customer: null, lotReference: null, now,
    });
  }

  /** The gateway's forward of a check-in: bytes and headers, captured once so they can be sent again. */
  const signedCheckin = (jti: string, account: string, atSeconds = Math.floor(clock.now().getTime() / 1000)) => {
    const payload = JSON.stringify({ jti, account_id: account });
    return { payload, headers: { ...signServiceRequest(SECRET, payload, atSeconds), 'content-type': 'application/json' } };
  };
  const send = (app: FastifyInstance, request: { payload: string; headers: Record<string, string> }) =>
    app.inject({ method: 'POST', url: '/internal/tokens/validate', ...request });
  const useCount = async (db: SqlDatabase, jti: string) =>
    (await db.one<{ use_count: number }>('SELECT use_count FROM license_tokens WHERE jti = @jti', { jti }))!.use_count;

  it('answers a replayed check-in 401 unauthorized and spends the quota once', async () => {
    const [cloud] = await instances(1);
    const token = await engineToken(cloud!.db, 10);
    const captured = signedCheckin(token.jti, String(token.account_id));
    const first = await send(cloud!.app, captured);
    expect(first.statusCode).toBe(200);
    clock.advance(30_000);
    const replay = await send(cloud!.app, captured);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'unauthorized' });
    expect(await useCount(cloud!.db, token.jti)).toBe(1);
    // The same call signed afresh (as the gateway signs every forward) is a new check-in.
    expect((await send(cloud!.app, signedCheckin(token.jti, String(token.account_id)))).statusCode).toBe(200);
    expect(await useCount(cloud!.db, token.jti)).toBe(2);
  });

  it('two cloud instances on one store share what they have seen', async () => {
    const [a, b] = await instances(2);
    const token = await engineToken(a!.db, 10);
    const captured = signedCheckin(token.jti, String(token.account_id));
    expect((await send(a!.app, captured)).statusCode).toBe(200);
    expect((await send(b!.app, captured)).statusCode).toBe(401);
    // Sent to both at once, one signature is still accepted once.
    const burst = signedCheckin(token.jti, String(token.account_id), Math.floor(clock.now().getTime() / 1000) + 1);
    const statuses = (await Promise.all([send(a!.app, burst), send(b!.app, burst), send(a!.app, burst), send(b!.app, burst)])).map((r) => r.statusCode);
    expect(statuses.sort()).toEqual([200, 401, 401, 401]);
    expect(await useCount(b!.db, token.jti)).toBe(2);
  });

  it('forgets a signature once its timestamp has left the window, and sweeps it from the store', async () => {
    const [cloud] = await instances(1);
    const token = await engineToken(cloud!.db, 10);
    const captured = signedCheckin(token.jti, String(token.account_id));
    expect((await send(cloud!.app, captured)).statusCode).toBe(200);
    const rows = () => cloud!.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM internal_signatures_seen').then((r) => Number(r!.n));
    expect(await rows()).toBe(1);
    // Still inside the window at +300 s (the spec accepts exactly 300 s off): still refused.
    clock.advance(300_000);
    expect((await send(cloud!.app, captured)).statusCode).toBe(401);
    expect(await databaseSeenSignatures(cloud!.db).purge(clock.now().getTime())).toBe(0);
    clock.advance(1_000);
    expect(await databaseSeenSignatures(cloud!.db).purge(clock.now().getTime())).toBe(1);
    expect(await rows()).toBe(0);
    // Past the window the timestamp alone refuses it: forgetting the signature reopens nothing.
    expect((await send(cloud!.app, captured)).statusCode).toBe(401);
    expect(await useCount(cloud!.db, token.jti)).toBe(1);
  });
});
