import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { createOutboundClient } from '../../src/adapters/outbound-http.js';
import { productionPolicy } from '../../src/domain/webhooks/policy.js';
import { startWebhookWorker } from '../../src/jobs/webhook-worker.js';
import { startSlowReceiver } from '../slow-receiver.js';
import { TEST_STORE } from '../support/test-store.js';
import { startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

const clouds: WebhookCloud[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterEach(async () => {
  for (const cloud of clouds.splice(0).reverse()) await cloud.stop();
  await receiver?.close();
  receiver = undefined;
});

const start = async (options: Parameters<typeof startWebhookCloud>[0]) => {
  const cloud = await startWebhookCloud(options);
  clouds.push(cloud);
  return cloud;
};

describe('the delivery ledger over a real store (a SQLite file, or a PostgreSQL database)', () => {
  it('a cloud restarted mid-backoff still delivers, resuming the same ledger row', async () => {
    receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
    // ~1 s before the second attempt: the first cloud is stopped well inside that wait.
    const first = await start({ retryBaseMs: 1000 });
    const account = await first.account();
    await first.subscribe(account.id, 'wipe_session_ready', receiver.url);
    expect((await first.post('/internal/tokens/validate', { jti: (await first.token(account.id)).jti })).status).toBe(200);
    await waitFor(async () => (await first.deliveries())[0]?.response_code === 500, 5000, 'first attempt recorded');
    const waiting = (await first.db.one<Record<string, string | null>>('SELECT status, next_attempt_at, lease_until FROM webhook_deliveries'))!;
    await first.stop();
    expect(waiting).toMatchObject({ status: 'pending', lease_until: null });
    expect(Date.parse(waiting.next_attempt_at!)).toBeGreaterThan(Date.now());

    const second = await start({ dir: first.dir, retryBaseMs: 1000 });
    await waitFor(async () => (await second.deliveries())[0]?.status === 'delivered', 10_000, 'delivery after restart');
    expect(await second.deliveries()).toMatchObject([{ status: 'delivered', attempts: 2, response_code: 200 }]);
    expect(receiver.requests.map((r) => r.json.event_id)).toEqual([receiver.requests[0]!.json.event_id, receiver.requests[0]!.json.event_id]);
  });

  it('two workers on one ledger never make the same attempt: each event arrives exactly once', async () => {
    receiver = await startReceiver();
    const a = await start({ worker: false });
    const account = await a.account();
    await a.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const token = await a.token(account.id);
    for (let i = 0; i < 150; i++) expect((await a.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
    // Two processes' worth of workers: two connections, two workers, racing for the same rows.
    const b = await start({ dir: a.dir, worker: false });
    a.runtime.startWorker({ pollMs: 5, concurrency: 8 });
    b.runtime.startWorker({ pollMs: 5, concurrency: 8 });
    await waitFor(async () => (await a.deliveries()).every((d) => d.status === 'delivered'), 15_000, 'all delivered');
    const ids = receiver.requests.map((r) => r.json.event_id as string);
    expect(ids).toHaveLength(150);
    expect(new Set(ids).size).toBe(150);
    expect((await a.deliveries()).every((d) => d.attempts === 1)).toBe(true);
  });

  it('an event wakes the idle worker once it committed: delivered long before the next poll', async () => {
    receiver = await startReceiver();
    const cloud = await start({ pollMs: 60_000 });
    const account = await cloud.account();
    await cloud.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const token = await cloud.token(account.id);
    // Twice: the first wake, and one after the worker went back to its minute-long sleep.
    for (let i = 1; i <= 2; i++) {
      expect((await cloud.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
      await waitFor(() => receiver!.requests.length === i, 3000, `delivery ${i} without waiting for the poll`);
    }
  });

  // SQLite is one host: its workers are woken in process (the test above). On PostgreSQL the
  // committing transaction's NOTIFY reaches the workers of every host.
  it.runIf(TEST_STORE === 'postgres')('an event committed on one host wakes the idle worker of another', async () => {
    receiver = await startReceiver();
    const a = await start({ worker: false });
    const b = await start({ dir: a.dir, pollMs: 60_000 });
    const account = await a.account();
    await a.subscribe(account.id, 'wipe_session_ready', receiver.url);
    await new Promise((resolve) => setTimeout(resolve, 200)); // b's worker has looked, found nothing and sleeps
    expect((await a.post('/internal/tokens/validate', { jti: (await a.token(account.id)).jti })).status).toBe(200);
    // Well inside b's 60-s poll, so only the NOTIFY can have woken it; generous for a loaded machine.
    await waitFor(() => receiver!.requests.length === 1, 30_000, "delivery by the other host's worker");
    // The attempt is recorded in the worker's next turn, a moment after the receiver answered.
    await waitFor(async () => (await b.deliveries())[0]?.status === 'delivered', 10_000, 'the recorded delivery');
    expect(await b.deliveries()).toMatchObject([{ status: 'delivered', attempts: 1 }]);
  });

  it('a delivery that fails every attempt of its round ends failed after 8 attempts', async () => {
    receiver = await startReceiver(() => 502);
    const cloud = await start({ worker: false });
    const account = await cloud.account();
    await cloud.subscribe(account.id, 'wipe_session_ready', receiver.url);
    expect((await cloud.post('/internal/tokens/validate', { jti: (await cloud.token(account.id)).jti })).status).toBe(200);
    // The production policy with a 0.2 ms base (waits sum to ~1 s), and auto-disable out of reach, so the round runs out.
    const sender = createOutboundClient({ allowHttp: true, allowLoopback: true, timeoutMs: 10_000 });
    const worker = startWebhookWorker({ db: cloud.db, clock: systemClock, sender, policy: { ...productionPolicy(0.2), autoDisableAfter: 100 }, pollMs: 5 });
    try {
      await waitFor(async () => (await cloud.deliveries())[0]?.status === 'failed', 15_000, 'exhausted round');
    } finally {
      await worker.stop();
      await sender.close();
    }
    expect(await cloud.deliveries()).toMatchObject([{ status: 'failed', attempts: 8, response_code: 502 }]);
    expect(receiver.requests).toHaveLength(8);
  });

  it("two workers attempt one subscription's deliveries one at a time, oldest event first", async () => {
    const slow = await startSlowReceiver(() => 200, 15);
    try {
      const a = await start({ worker: false });
      const account = await a.account();
      await a.subscribe(account.id, 'wipe_session_ready', slow.url);
      const token = await a.token(account.id);
      for (let i = 0; i < 20; i++) expect((await a.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
      const b = await start({ dir: a.dir, worker: false });
      a.runtime.startWorker({ pollMs: 5, concurrency: 8 });
      b.runtime.startWorker({ pollMs: 5, concurrency: 8 });
      await waitFor(async () => (await a.deliveries()).every((d) => d.status === 'delivered'), 20_000, 'all delivered');
      const eventOrder = (
        await a.db.many<{ event_id: string }>('SELECT e.event_id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id ORDER BY e.id')
      ).map((row) => row.event_id);
      expect(slow.received().map((p) => p.event_id)).toEqual(eventOrder);
      expect(slow.maxOpen()).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('attempts nothing after the failure that auto-disables a subscription, with events queued and two workers', async () => {
    const slow = await startSlowReceiver(() => 500, 15);
    try {
      const a = await start({ worker: false, retryBaseMs: 1 });
      const account = await a.account();
      await a.subscribe(account.id, 'wipe_session_ready', slow.url);
      const token = await a.token(account.id);
      for (let i = 0; i < 10; i++) expect((await a.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
      const b = await start({ dir: a.dir, worker: false, retryBaseMs: 1 });
      a.runtime.startWorker({ pollMs: 5, concurrency: 8 });
      b.runtime.startWorker({ pollMs: 5, concurrency: 8 });
      await waitFor(async () => (await a.deliveries()).every((d) => d.status === 'skipped'), 20_000, 'every delivery skipped after auto-disable');
      expect(await a.db.one('SELECT active, failure_count FROM webhook_subscriptions')).toEqual({ active: 0, failure_count: 5 });
      expect(slow.received()).toHaveLength(5);
      expect((await a.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_attempts'))!.n).toBe(5);
      expect(slow.maxOpen()).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('the worker prunes finished deliveries past the retention period, and keeps pending and recent ones', async () => {
    receiver = await startReceiver();
    const cloud = await start({ worker: false });
    const account = await cloud.account();
    await cloud.subscribe(account.id, 'wipe_session_ready', receiver.url);
    const token = await cloud.token(account.id);
    for (let i = 0; i < 4; i++) expect((await cloud.post('/internal/tokens/validate', { jti: token.jti })).status).toBe(200);
    const deliveryIds = async () => (await cloud.db.many<{ id: number }>('SELECT id FROM webhook_deliveries ORDER BY id')).map((row) => row.id);
    const count = async (sql: string, params?: Record<string, unknown>) => (await cloud.db.one<{ n: number }>(sql, params))!.n;
    const ids = await deliveryIds();
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    // Two finished 31 days ago (one delivered with its attempt, one failed), one pending as old, one recent.
    await cloud.db.run(`UPDATE webhook_deliveries SET status = 'delivered', updated_at = @old WHERE id = @id`, { old, id: ids[0] });
    await cloud.db.run(
      `INSERT INTO webhook_attempts (delivery_id, attempt, outcome, response_code, duration_ms, attempted_at) VALUES (@id, 1, 'delivered', 200, 1, @old)`,
      { id: ids[0], old },
    );
    await cloud.db.run(`UPDATE webhook_deliveries SET status = 'failed', updated_at = @old WHERE id = @id`, { old, id: ids[1] });
    await cloud.db.run(`UPDATE webhook_deliveries SET next_attempt_at = @next, updated_at = @old WHERE id = @id`, {
      next: new Date(Date.now() + 3_600_000).toISOString(),
      old,
      id: ids[2],
    });
    await cloud.db.run(`UPDATE webhook_events SET created_at = @old WHERE id IN (SELECT event_id FROM webhook_deliveries WHERE id IN (@a, @b, @c))`, {
      old,
      a: ids[0],
      b: ids[1],
      c: ids[2],
    });
    await cloud.db.run(`UPDATE webhook_deliveries SET status = 'delivered' WHERE id = @id`, { id: ids[3] });

    const sender = createOutboundClient({ allowHttp: true, allowLoopback: true, timeoutMs: 10_000 });
    const worker = startWebhookWorker({ db: cloud.db, clock: systemClock, sender, policy: productionPolicy(), pollMs: 5, retentionMs: 30 * 86_400_000 });
    try {
      await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM webhook_deliveries')) === 2, 10_000, 'pruning');
    } finally {
      await worker.stop();
      await sender.close();
    }
    expect(await deliveryIds()).toEqual([ids[2], ids[3]]);
    expect(await count('SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id = @id', { id: ids[0] })).toBe(0);
    // The pruned deliveries' events went with them; the pending one's event stays.
    expect(await count('SELECT COUNT(*) AS n FROM webhook_events')).toBe(2);
  });
});
