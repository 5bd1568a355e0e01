import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { systemClock } from '../src/adapters/clock.js';
import { createAccount } from '../src/adapters/db/accounts.js';
import type { SqlDatabase } from '../src/adapters/sql/database.js';
import { PostgresDatabase } from '../src/adapters/sql/postgres.js';
import { SqliteDatabase } from '../src/adapters/sql/sqlite.js';
import { createToken, type TokenRow } from '../src/adapters/db/tokens.js';
import { buildCloudApp } from '../src/http/app.js';
import { createWebhook } from '../src/domain/webhooks/manage.js';
import type { WebhookEventType } from '../src/domain/webhooks/types.js';
import type { Resolve } from '../src/adapters/outbound-http.js';
import type { OutboundPolicy } from '../src/domain/webhooks/ssrf.js';
import { createWebhookRuntime, type WebhookRuntime } from '../src/jobs/webhook-runtime.js';
import { SECRET } from './helpers.js';
import { freshSigner } from './support/fresh-signer.js';
import { freshPostgresUrl, TEST_STORE } from './support/test-store.js';

/** One request a receiver got, raw body included. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/** A real HTTP receiver on loopback; `respond` decides each answer's status from its 0-based index. */
export async function startReceiver(respond: (index: number, request: Received) => number = () => 200) {
  const requests: Received[] = [];
  let decide = respond;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received = { headers: req.headers, body, json };
      const status = decide(requests.length, received);
      requests.push(received);
      const location = status >= 300 && status < 400 ? { location: '/hook/elsewhere' } : {};
      res.writeHead(status, { 'content-type': 'text/plain', ...location }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    respond(next: (index: number, request: Received) => number) {
      decide = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The receiver rule of spec 6, computed independently of the cloud's code with node:crypto. The
 * header may carry several space-separated signatures during a secret rollover; any match counts.
 */
export function signatureValid(secret: string, received: Received, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const timestamp = String(received.headers['x-erase-engine-timestamp'] ?? '');
  const given = String(received.headers['x-erase-engine-signature'] ?? '').split(' ');
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`);
  return given.some((one) => one.length === expected.length && timingSafeEqual(expected, Buffer.from(one)));
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A ledger row with its event, as the tests read it. */
export interface Delivery {
  event_type: string;
  status: string;
  attempts: number;
  response_code: number | null;
  event_id: string;
  payload: string;
}

export interface WebhookCloud {
  app: FastifyInstance;
  /** The store the app runs on: the SQLite file in `dir`, or in the `cloud on postgres` run the PostgreSQL database of `dir`. */
  db: SqlDatabase;
  dir: string;
  runtime: WebhookRuntime;
  post(url: string, body: unknown): Promise<{ status: number; json: any }>;
  account(name?: string): Promise<{ id: number; publicId: string }>;
  token(accountId: number, options?: { quota?: number | null; product?: 'engine' | 'hotswap'; customer?: string; lot?: string }): Promise<TokenRow>;
  subscribe(accountId: number, eventType: WebhookEventType, url: string, auth?: Record<string, string>): Promise<{ id: string; secret: string }>;
  deliveries(): Promise<Delivery[]>;
  /** Stops worker, app and database, keeping the store (a restart over `dir` reopens it). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The store of `dir`: its SQLite file, or on PostgreSQL the database created for `dir` on first
 * use, whose URL is kept in a file there, so every cloud over one `dir` opens the same database.
 */
async function openDirStore(dir: string): Promise<SqlDatabase> {
  if (TEST_STORE === 'sqlite') return SqliteDatabase.open(join(dir, 'cloud.sqlite'));
  const urlFile = join(dir, 'postgres-url');
  if (!existsSync(urlFile)) writeFileSync(urlFile, await freshPostgresUrl());
  return PostgresDatabase.open(readFileSync(urlFile, 'utf8'), { max: 8 });
}

/**
 * A cloud on the real clock over the store of `dir` (fresh when omitted), in allow-http and
 * allow-loopback mode unless `outbound` says otherwise, with its in-process delivery worker
 * polling fast. Two over one `dir` share a ledger. `resolve` is the DNS the outbound guard
 * consults; `logLines` collects the server log (warn and up, the worker's too), one JSON line each.
 */
export async function startWebhookCloud(
  options: {
    dir?: string;
    retryBaseMs?: number;
    worker?: boolean;
    concurrency?: number;
    pollMs?: number;
    outbound?: OutboundPolicy;
    resolve?: Resolve;
    logLines?: string[];
  } = {},
): Promise<WebhookCloud> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'erasure-webhooks-'));
  const db = await openDirStore(dir);
  const publicBaseUrl = 'https://cloud.example.test';
  const outbound = options.outbound ?? { allowHttp: true, allowLoopback: true };
  const runtime = createWebhookRuntime({ db, clock: systemClock, publicBaseUrl, outbound, retryBaseMs: options.retryBaseMs ?? 2, resolve: options.resolve });
  const logger = options.logLines ? { level: 'warn', stream: { write: (line: string) => void options.logLines!.push(line) } } : undefined;
  const app = buildCloudApp({ db, clock: systemClock, internalApiSecret: SECRET, publicBaseUrl, outbound, webhooks: runtime, logger });
  await app.ready();
  if (options.worker !== false) {
    runtime.startWorker({ pollMs: options.pollMs ?? 25, log: app.log, ...(options.concurrency ? { concurrency: options.concurrency } : {}) });
  }
  const now = () => new Date().toISOString();
  const sign = freshSigner(SECRET);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await runtime.stop();
    await app.close();
    await db.close();
  };
  return {
    app,
    db,
    dir,
    runtime,
    async post(url, body) {
      const payload = JSON.stringify(body);
      const res = await app.inject({ method: 'POST', url, payload, headers: { ...sign(payload), 'content-type': 'application/json' } });
      return { status: res.statusCode, json: res.body ? JSON.parse(res.body) : undefined };
    },
    async account(name = 'Acme Refurb') {
      const row = await createAccount(db, { name, subscriptionStatus: 'active', now: now() });
      return { id: row.id, publicId: row.public_id };
    },
    token(accountId, opts = {}) {
      return createToken(db, {
        accountId,
        product: opts.product ?? 'engine',
        quotaLimit: opts.quota ?? null,
        userEmail: 'tech@example.com',
        expiresAt: null,
        customer: opts.customer ?? null,
        lotReference: opts.lot ?? null,
        now: now(),
      });
    },
    async subscribe(accountId, eventType, url, auth = {}) {
      const created = await createWebhook(runtime.manage, accountId, { event_type: eventType, url, ...auth });
      if (!created.ok) throw new Error(created.error);
      return { id: created.value.row.public_id, secret: created.value.signingSecret };
    },
    deliveries() {
      return db.many<Delivery>(
        `SELECT e.event_type, d.status, d.attempts, d.response_code, e.event_id, e.payload
           FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id ORDER BY d.id`,
      );
    },
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
