import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createToken, recordCheckin } from '../../src/adapters/db/tokens.js';
import { storeWipeResult } from '../../src/adapters/db/wipe-results.js';
import type { SqlDatabase, SqlRunner } from '../../src/adapters/sql/database.js';
import { PostgresDatabase } from '../../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import { freshPostgresUrl, TEST_STORE } from '../support/test-store.js';
import { requireBuiltCloud, startCli, waitFor, type Child } from '../certificates/processes.js';
import { wipeBody } from '../certificates/pipeline.js';

/** Certificate jobs queued: enough that the worker is mid-job whenever the test looks. */
const RESULTS = 20;
/** SHUTDOWN_TIMEOUT_SECONDS of the worker under test: the bound SIGTERM must keep. */
const SHUTDOWN_TIMEOUT_S = 10;

/**
 * A webhook receiver on loopback: while `holding`, it reads each request and never answers (the
 * connection stays open); afterwards it answers 204.
 */
function startReceiver() {
  let holding = true;
  const held: ServerResponse[] = [];
  let received = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      received++;
      if (holding) held.push(response);
      else response.writeHead(204).end();
    });
  });
  return {
    listening: new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`))),
    received: () => received,
    answerFromNowOn: () => {
      holding = false;
    },
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Holds the store's write lock on certificates (SQLite: the database's single writer lock;
 * PostgreSQL: an EXCLUSIVE table lock, which readers pass) from another connection, as a long
 * transaction of another process would, until `release` is called. Taken only at a moment when
 * some claimed certificate job is in flight, so that job cannot finish while the lock is held;
 * resolves with the ids of the jobs claimed at that moment.
 */
async function holdLockWithJobsInFlight(db: SqlDatabase): Promise<{ running: number[]; release: () => Promise<void> }> {
  for (;;) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let taken!: (running: number[]) => void;
    const lockTaken = new Promise<number[]>((resolve) => (taken = resolve));
    const holding = db
      .transaction(async (tx: SqlRunner) => {
        // SQLite: BEGIN IMMEDIATE has taken the lock already.
        if (tx.dialect === 'postgres') await tx.run('LOCK TABLE certificates IN EXCLUSIVE MODE');
        const running = (await tx.many<{ id: number }>(`SELECT id FROM jobs WHERE status = 'running'`)).map((r) => r.id);
        taken(running);
        if (running.length === 0) return;
        await released;
      })
      .catch((error: unknown) => {
        taken([]);
        throw error;
      });
    const running = await lockTaken;
    if (running.length > 0) {
      return {
        running,
        release: async () => {
          release();
          await holding;
        },
      };
    }
    await holding;
    const left = (await db.one<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE status <> 'done'`))!.n;
    if (left === 0) throw new Error('every certificate job finished before the lock could catch one in flight: queue more');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('erasure-cloud worker stopped with SIGTERM', () => {
  let dir: string;
  let db: SqlDatabase;
  let databaseUrl: string | undefined;
  const receiver = startReceiver();
  const children: Child[] = [];
  let env: () => Record<string, string>;

  beforeAll(async () => {
    requireBuiltCloud();
    dir = mkdtempSync(join(tmpdir(), 'erasure-shutdown-'));
    if (TEST_STORE === 'postgres') databaseUrl = await freshPostgresUrl();
    db = databaseUrl ? PostgresDatabase.open(databaseUrl) : SqliteDatabase.open(join(dir, 'cloud.sqlite'));
    const url = await receiver.listening;
    env = () => ({
      DATA_DIR: dir,
      PUBLIC_BASE_URL: 'https://erasure.test',
      WEBHOOK_ALLOW_HTTP: '1',
      WEBHOOK_ALLOW_LOOPBACK: '1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const now = new Date().toISOString();
    const account = await createAccount(db, { name: 'Acme Refurb', subscriptionStatus: 'active', now });
    const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'ana@acme.test', expiresAt: null, now });
    const admin = startCli(['admin', 'create-webhook', '--account', account.public_id, '--event-type', 'certificate_generated', '--url', url, '--json'], env());
    expect(await admin.exited, admin.stderr()).toBe(0);
    await recordCheckin(db, 'job', token, now); // one engine run: job-0, job-1, …
    for (let i = 0; i < RESULTS; i++) {
      const { jti: _jti, ...record } = wipeBody(token.jti, `job-${i}`, { drive_serial: `SER-${i}` });
      await db.transaction((tx) =>
        storeWipeResult(tx, { accountId: account.id, tokenId: token.id, record, ownReason: null, issuedJobId: 'job', notIssuedReason: 'not issued', now }),
      );
    }
  });
  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await receiver.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits within SHUTDOWN_TIMEOUT_SECONDS with a delivery held open and a job stuck, handing both back to the next worker', async () => {
    const worker = startCli(['worker'], { ...env(), SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_S) });
    children.push(worker);
    // A certificate_generated delivery is in flight at a receiver that never answers.
    // Generous: a worker starting on a loaded machine takes a while to render its first certificates.
    await waitFor(() => receiver.received() > 0, 120_000, 10, 'a delivery held open by the receiver');
    const delivery = (await db.one<{ id: number }>(`SELECT id FROM webhook_deliveries WHERE lease_until IS NOT NULL`))!;
    expect(delivery).toBeDefined();
    // …and a claimed certificate job cannot finish: another connection holds the lock it needs.
    const lock = await holdLockWithJobsInFlight(db);

    const signalledAt = Date.now();
    worker.process.kill('SIGTERM');
    await Promise.race([
      waitFor(() => worker.stderr().includes('handing it back'), (SHUTDOWN_TIMEOUT_S + 5) * 1000, 10, 'the worker to abort its work in flight'),
      worker.exited,
    ]).catch(() => undefined);
    // The lock's holder lets go, as a long transaction ends; the hand-back needs to write.
    await lock.release();
    const exit = await Promise.race([worker.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), (SHUTDOWN_TIMEOUT_S + 5) * 1000))]);
    const tookMs = Date.now() - signalledAt;
    expect(exit, worker.stderr()).toBe(0);
    expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000);

    // Handed back: due now, unclaimed, the attempt returned; nothing is left claimed.
    expect(await db.many(`SELECT id FROM jobs WHERE status = 'running' OR lease_until IS NOT NULL`)).toEqual([]);
    for (const id of lock.running) {
      expect(await db.one(`SELECT status, last_error FROM jobs WHERE id = @id`, { id })).toEqual({ status: 'pending', last_error: 'handed back: worker stopping' });
    }
    expect(await db.one(`SELECT status, attempts, lease_until FROM webhook_deliveries WHERE id = @id`, { id: delivery.id })).toEqual({
      status: 'pending',
      attempts: 0,
      lease_until: null,
    });
    expect(await db.many(`SELECT attempt FROM webhook_attempts WHERE delivery_id = @id`, { id: delivery.id })).toEqual([]);

    // The next worker takes everything over and completes it.
    receiver.answerFromNowOn();
    const next = startCli(['worker'], env());
    children.push(next);
    await waitFor(
      async () => (await db.one<{ n: number }>(`SELECT count(*) AS n FROM certificates WHERE status = 'complete'`))!.n === RESULTS,
      60_000,
      50,
      'every certificate complete',
    );
    await waitFor(
      async () => (await db.one<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'`))!.n === RESULTS,
      60_000,
      50,
      'every delivery delivered',
    );
    expect(await db.many(`SELECT DISTINCT status FROM jobs`)).toEqual([{ status: 'done' }]);
    expect(await db.one(`SELECT status, attempts FROM webhook_deliveries WHERE id = @id`, { id: delivery.id })).toEqual({ status: 'delivered', attempts: 1 });
    expect(await db.one(`SELECT failure_count FROM webhook_subscriptions`)).toEqual({ failure_count: 0 });
    next.process.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 300_000);
});
