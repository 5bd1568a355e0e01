// Webhook delivery throughput (issue 5), against the built cloud (cloud/dist; run `npm run build`).
//
//   node bench/webhooks.js [--events 10000] [--concurrency 64]
//
// Prints, for one local receiver on loopback (HTTP keep-alive, answers 200 at once):
//   - baseline: raw undici POSTs of the same body, `--concurrency` in flight: the transport's ceiling,
//   - drain:    a backlog of `--events` events (one subscription each, so one ledger row each)
//               delivered by one worker: claim, sign, POST, record attempt + ledger + health,
//               all durable (WAL, synchronous=FULL). Deliveries per second and time to drain.
// Goal: drain >= 500 deliveries/s.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const dist = new URL('../cloud/dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { openDatabase } = await load('adapters/db/open.js');
const { createAccount } = await load('adapters/db/accounts.js');
const { createToken } = await load('adapters/db/tokens.js');
const { systemClock } = await load('adapters/clock.js');
const { createWebhook } = await load('domain/webhooks/manage.js');
const { createWebhookRuntime } = await load('jobs/webhook-runtime.js');

const { values } = parseArgs({ options: { events: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '64' } } });
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
  const db = openDatabase(join(dir, 'cloud.sqlite'));
  const runtime = createWebhookRuntime({ db, clock: systemClock, publicBaseUrl: 'https://cloud.example', outbound: { allowHttp: true, allowLoopback: true } });
  const now = new Date().toISOString();
  const account = createAccount(db, { name: 'Bench', subscriptionStatus: 'active', now });
  const token = createToken(db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'bench@example.com', expiresAt: null, now });
  const created = createWebhook(runtime.manage, account.id, { event_type: 'wipe_session_ready', url });
  if (!created.ok) throw new Error(created.error);
  const enqueueStart = performance.now();
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) runtime.events.emit({ type: 'wipe_session_ready', token, jobId: crypto.randomUUID(), quotaRemaining: null });
  }).immediate();
  const enqueueMs = performance.now() - enqueueStart;
  const before = received;
  const pending = db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck();
  const drainStart = performance.now();
  runtime.startWorker({ concurrency: CONCURRENCY, pollMs: 20 });
  while (pending.get() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const drainSeconds = (performance.now() - drainStart) / 1000;
  await runtime.stop();
  const delivered = db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'").pluck().get();
  const attempts = db.prepare('SELECT count(*) FROM webhook_attempts').pluck().get();
  db.close();
  if (delivered !== EVENTS || received - before !== EVENTS) throw new Error(`delivered ${delivered}, received ${received - before}, expected ${EVENTS}`);

  console.log(`events=${EVENTS} concurrency=${CONCURRENCY} (one local receiver on loopback)`);
  console.log(`baseline  raw undici POSTs      ${round(EVENTS / baselineSeconds)} req/s`);
  console.log(`enqueue   outbox + ledger rows  ${round(EVENTS / (enqueueMs / 1000))} events/s (one transaction)`);
  console.log(`drain     webhook deliveries    ${round(EVENTS / drainSeconds)} deliveries/s; backlog of ${EVENTS} drained in ${round(drainSeconds)} s (${attempts} attempts, all delivered)`);
  console.log(`goal      >= 500 deliveries/s:  ${EVENTS / drainSeconds >= 500 ? 'met' : 'NOT met'}`);
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
