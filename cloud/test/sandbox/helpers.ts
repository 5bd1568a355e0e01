import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signServiceRequest } from '@erasure/shared';
import type { FastifyInstance } from 'fastify';
import { openSandboxDatabase } from '../../src/adapters/db/sandbox/open.js';
import type { SqliteDatabase } from '../../src/adapters/sql/sqlite.js';
import type { Resolve } from '../../src/adapters/outbound-http.js';
import { buildSandboxApp } from '../../src/sandbox/app.js';
import type { SandboxWebhooks } from '../../src/sandbox/webhooks/delivery.js';
import { testClock } from '../helpers.js';

export { fingerprint } from '../helpers.js';

export interface Sandbox {
  base: string;
  app: FastifyInstance;
  /** The store the sandbox runs on; `db.handle` is the raw better-sqlite3 connection. */
  db: SqliteDatabase;
  webhooks: SandboxWebhooks;
  clock: ReturnType<typeof testClock>;
  /** A JSON request over real HTTP; `headers` may carry Authorization. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  /** A device call to the /internal mirror, HMAC-signed when the sandbox has a secret. */
  internal(path: string, body: unknown): Promise<{ status: number; json: any }>;
  /** Mints a token row through the harness and returns it. */
  token(body?: object): Promise<any>;
  close(): Promise<void>;
}

/**
 * A real sandbox listening on loopback over a temp SQLite file; the clock starts at real now.
 * It runs in WEBHOOK_ALLOW_LOOPBACK mode unless `allowLoopback` is false; `resolve` is the DNS
 * its outbound guard consults; `logLines` collects its server log (warn and up), one JSON line each.
 */
export async function startSandbox(
  options: { secret?: string; webappBaseUrl?: string; realClock?: boolean; allowLoopback?: boolean; resolve?: Resolve; logLines?: string[] } = {},
): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-sandbox-'));
  const db = openSandboxDatabase(join(dir, 'sandbox.sqlite'));
  const clock = testClock(new Date().toISOString());
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { app, webhooks } = buildSandboxApp({
    db,
    clock,
    internalApiSecret: options.secret,
    webappBaseUrl: options.webappBaseUrl ?? 'http://127.0.0.1:9',
    signingKey: privateKey,
    publicKey,
    publicBaseUrl: 'http://sandbox.test',
    allowLoopback: options.allowLoopback ?? true,
    resolve: options.resolve,
    ...(options.logLines ? { logger: { level: 'warn', stream: { write: (line: string) => void options.logLines!.push(line) } } } : {}),
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const call: Sandbox['call'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    base,
    app,
    db,
    webhooks,
    clock,
    call,
    internal: (path, body) => {
      const payload = JSON.stringify(body);
      const signed = options.secret ? signServiceRequest(options.secret, payload, Math.floor(clock.now().getTime() / 1000)) : {};
      return call('POST', path, body, signed);
    },
    async token(body = {}) {
      const res = await call('POST', '/sandbox/tokens', body);
      if (res.status !== 201) throw new Error(`mint failed: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json;
    },
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback answering `status()`; records every request. */
export async function startReceiver(status: () => number = () => 204): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A wipe result body for the /internal mirror. */
export function wipeResult(jti: string, jobId: string, extra: object = {}) {
  return {
    jti,
    job_id: jobId,
    drive_serial: 'S4DYNX0M123456',
    drive_model: 'SAMSUNG MZVLB512HAJQ',
    drive_capacity_gb: 512,
    wipe_method: 'NIST 800-88 R2 Purge',
    passes_completed: null,
    started_at: '2026-11-22T12:00:00.000Z',
    completed_at: '2026-11-22T12:10:00.000Z',
    wipe_status: 'completed',
    ...extra,
  };
}
