// Webhook delivery throughput (issue 5), against the built cloud (cloud/dist; run `npm run build`).
//
//   node bench/webhooks.js [--events 10000] [--concurrency 64] [--subscriptions 50]
//
// Prints, for one local receiver on loopback (HTTP keep-alive, answers 200 at once):
//   - baseline: raw undici POSTs of the same body, `--concurrency` in flight: the transport's ceiling,
//   - drain:    a backlog of `--events` deliveries spread over `--subscriptions` subscriptions
//               (each subscription gets one attempt at a time, oldest event first), delivered by
//               one worker: claim, sign, POST, record attempt + ledger + health, all durable
//               (WAL, synchronous=FULL). Deliveries per second and time to drain.
//   - serial:   the same for one subscription alone (one attempt in flight at a time).
// Goal: drain >= 500 deliveries/s.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const dist = new URL('../cloud/dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { SqliteDatabase } = await load('adapters/sql/sqlite.js');
const { createAccount } = await load('adapters/db/accounts.js');
const { createToken } = await load('adapters/db/tokens.js');
const { systemClock } = await load('adapters/clock.js');
const { createWebhook } = await load('domain/webhooks/manage.js');
const { createWebhookRuntime } = await load('jobs/webhook-runtime.js');

const { values } = parseArgs({
  options: { events: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '64' }, subscriptions: { type: 'string', default: '50' } },
});
const SUBSCRIPTIONS = Number(values.subscriptions);
const EVENTS = Number(values.events);
const CONCURRENCY = Number(values.concurrency);
const round = (n) => Math.round(n * 10) / 10;

let received = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(200, { 'content-length': '2' }).end('ok');
  });
});
server.keepAliveTimeout = 30_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/hook`;

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-webhooks-'));
try {
  // 1. Baseline: raw undici POSTs, same body size, same concurrency.
  const body = JSON.stringify({ event_id: crypto.randomUUID(), event_type: 'wipe_session_ready', padding: 'x'.repeat(380) });
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < EVENTS) {
        const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
        await res.body.dump();
      }
    }),
  );
  const baselineSeconds = (performance.now() - started) / 1000;
  await agent.close();

  // 2. The cloud's path: a backlog in the ledger, then one worker drains it.
  /** Drains `deliveries` spread over `subscriptions` subscriptions; returns the figures. */
  const drain = async (name, deliveries, subscriptions) => {
    const db = SqliteDatabase.open(join(dir, `${name}.sqlite`));
    const runtime = createWebhookRuntime({ db, clock: systemClock, publicBaseUrl: 'https://cloud.example', outbound: { allowHttp: true, allowLoopback: true } });
    const now = new Date().toISOString();
    const account = await createAccount(db, { name: 'Bench', subscriptionStatus: 'active', now });
    const token = await createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'bench@example.com', expiresAt: null, now });
    for (let i = 0; i < subscriptions; i++) {
      const created = await createWebhook(runtime.manage, account.id, { event_type: 'wipe_session_ready', url: `${url}/${i}` });
      if (!created.ok) throw new Error(created.error);
    }
    const events = Math.ceil(deliveries / subscriptions);
    const enqueueStart = performance.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < events; i++) await runtime.events.emit(tx, { type: 'wipe_session_ready', token, jobId: crypto.randomUUID(), quotaRemaining: null });
    });
    const enqueueMs = performance.now() - enqueueStart;
    const total = events * subscriptions;
    const before = received;
    const count = async (sql) => (await db.one(sql)).n;
    const pending = () => count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
    const drainStart = performance.now();
    runtime.startWorker({ concurrency: CONCURRENCY, pollMs: 20 });
    while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const drainSeconds = (performance.now() - drainStart) / 1000;
    await runtime.stop();
    const delivered = await count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'");
    const attempts = await count('SELECT count(*) AS n FROM webhook_attempts');
    const outcomes = await db.many('SELECT outcome, error, COUNT(*) n FROM webhook_attempts GROUP BY 1, 2');
    await db.close();
    if (delivered !== total || received - before !== total) {
      console.error(outcomes);
      throw new Error(`delivered ${delivered}, received ${received - before}, expected ${total}, attempts ${attempts}`);
    }
    return { total, attempts, enqueueRate: total / (enqueueMs / 1000), rate: total / drainSeconds, drainSeconds };
  };
  const spread = await drain('spread', EVENTS, SUBSCRIPTIONS);
  const serial = await drain('serial', Math.min(EVENTS, 2000), 1);

  console.log(`deliveries=${spread.total} subscriptions=${SUBSCRIPTIONS} concurrency=${CONCURRENCY} (one local receiver on loopback)`);
  console.log(`baseline  raw undici POSTs      ${round(EVENTS / baselineSeconds)} req/s`);
  console.log(`enqueue   outbox + ledger rows  ${round(spread.enqueueRate)} deliveries/s (one transaction)`);
  console.log(
    `drain     webhook deliveries    ${round(spread.rate)} deliveries/s; backlog of ${spread.total} over ${SUBSCRIPTIONS} subscriptions drained in ${round(spread.drainSeconds)} s (${spread.attempts} attempts, all delivered)`,
  );
  console.log(`serial    one subscription      ${round(serial.rate)} deliveries/s (${serial.total} deliveries, one attempt in flight at a time)`);
  console.log(`goal      >= 500 deliveries/s:  ${spread.rate >= 500 ? 'met' : 'NOT met'}`);
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
