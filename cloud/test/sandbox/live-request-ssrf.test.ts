import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import type { Resolve } from '../../src/adapters/outbound-http.js';
import { startListeningCloud, type RunningCloud } from '../e2e/web-fixture.js';
import { startSandbox, type Sandbox } from './helpers.js';

/** An internal service on loopback with a secret in its answer; counts every connection it gets. */
async function internalService() {
  let connections = 0;
  const server: HttpServer = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ secret: 'internal-only' }));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP listener that answers plain HTTP to whatever arrives: a TLS client's handshake fails on it. */
async function plainListener() {
  const open = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound, read, closed. */
async function deadPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** DNS for the guard: `vm` is a name inside the network that resolves to loopback; `nowhere.example` does not resolve. */
const resolve: Resolve = (hostname, callback) => {
  if (hostname === 'vm') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  if (hostname === 'localhost') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  return callback(error, []);
};

/** What a port scanner reads: errno names, addresses, ports, resolver and TLS library text. */
const leaksDetail = (text: string, port: number) =>
  /\bE[A-Z]{3,}\b/.test(text) || text.includes(String(port)) || /127\.0\.0\.1|localhost|getaddrinfo|certificate|ssl|wrong version|\bvm\b/i.test(text);

describe('POST /sandbox/live_request: only for a signed-in caller, only through the guarded client (issue 20, item 1)', () => {
  let cloud: RunningCloud;
  let service: Awaited<ReturnType<typeof internalService>>;
  /** WEBHOOK_ALLOW_LOOPBACK off: the production policy, with http allowed as the sandbox allows it. */
  let strict: Sandbox;
  /** WEBHOOK_ALLOW_LOOPBACK=1, the test and development mode. */
  let loopback: Sandbox;
  const strictLog: string[] = [];
  const loopbackLog: string[] = [];
  let bearer: Record<string, string>;
  let apiKey = '';

  beforeAll(async () => {
    cloud = await startListeningCloud();
    const account = await cloud.account('Real Refurb Ltd');
    apiKey = (await mintApiKey({ db: cloud.db, clock: systemClock }, { accountId: account.id, name: 'sandbox', createdByUserId: null })).apiKey;
    bearer = { authorization: `Bearer ${apiKey}` };
    service = await internalService();
    strict = await startSandbox({ webappBaseUrl: cloud.base, allowLoopback: false, resolve, logLines: strictLog });
    loopback = await startSandbox({ webappBaseUrl: cloud.base, allowLoopback: true, resolve, logLines: loopbackLog });
  });
  afterAll(async () => {
    await strict?.close();
    await loopback?.close();
    await service?.close();
    await cloud?.close();
  });

  const live = (sut: Sandbox, baseUrl: string, headers: Record<string, string> = bearer) =>
    sut.call('POST', '/sandbox/live_request', { base_url: baseUrl, api_key: 'x', path: '/api/v1/anything' }, headers);

  it('refuses a caller without an API key with 401 JSON and sends nothing, even in loopback mode', async () => {
    const before = service.connections();
    const res = await live(loopback, `http://127.0.0.1:${service.port}`, {});
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: 'API key required: send your API key as a bearer token (Authorization: Bearer …)' });
    expect(service.connections()).toBe(before);
  });

  it('refuses a caller whose API key the web application rejects with the spec 401 body', async () => {
    const res = await live(loopback, `http://127.0.0.1:${service.port}`, { authorization: 'Bearer ek_not-a-real-key' });
    expect(res).toEqual({ status: 401, json: { error: 'invalid API key (webapp rejected it)' } });
  });

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}`],
    ['0x7f.1', (port: number) => `http://0x7f.1:${port}`],
    ['a name that resolves to loopback', (port: number) => `http://vm:${port}`],
    ['localhost', (port: number) => `http://localhost:${port}`],
    ['mapped IPv6', (port: number) => `http://[::ffff:127.0.0.1]:${port}`],
    ['a base URL with a path prefix', (port: number) => `http://127.0.0.1:${port}/prefix`],
  ])('refuses a signed-in request to %s with the category and no body, and connects to nothing', async (_name, url) => {
    const before = service.connections();
    const res = await live(strict, url(service.port));
    expect(res).toEqual({ status: 422, json: { error: 'live request failed: the target address is not allowed' } });
    expect(service.connections()).toBe(before);
    expect(leaksDetail(JSON.stringify(res.json), service.port)).toBe(false);
  });

  it('keeps where the name resolved in the server log, not in the answer', async () => {
    const res = await live(strict, `http://vm:${service.port}`);
    expect(res.status).toBe(422);
    expect(strictLog.join('\n')).toContain('refused destination vm (127.0.0.1): loopback address');
  });

  it('reports a closed port as "could not connect", without errno or port', async () => {
    const port = await deadPort();
    const res = await live(loopback, `http://127.0.0.1:${port}`);
    expect(res).toEqual({ status: 502, json: { error: 'live request failed: could not connect' } });
    expect(leaksDetail(JSON.stringify(res.json), port)).toBe(false);
    expect(loopbackLog.join('\n')).toMatch(new RegExp(`ECONNREFUSED[^\\n]*${port}`));
  });

  it('reports a name that does not resolve as "could not connect", without the resolver text', async () => {
    const res = await live(loopback, 'http://nowhere.example');
    expect(res).toEqual({ status: 502, json: { error: 'live request failed: could not connect' } });
    expect(loopbackLog.join('\n')).toContain('ENOTFOUND');
  });

  it('reports a failed TLS handshake as "TLS error", without the OpenSSL text', async () => {
    const listener = await plainListener();
    try {
      const res = await live(loopback, `https://127.0.0.1:${listener.port}`);
      expect(res).toEqual({ status: 502, json: { error: 'live request failed: TLS error' } });
      expect(leaksDetail(JSON.stringify(res.json), listener.port)).toBe(false);
    } finally {
      await listener.close();
    }
  });

  it('passes the real web application’s answer through for a signed-in caller in loopback mode', async () => {
    const res = await loopback.call('POST', '/sandbox/live_request', { base_url: cloud.base, api_key: apiKey, path: '/api/v1/accounts' }, bearer);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 200, ok: true, body: { accounts: [{ name: 'Real Refurb Ltd' }] } });
  });
});

describe('sandbox test pings and delivery ledger: categories only (issue 20, item 5)', () => {
  let service: Awaited<ReturnType<typeof internalService>>;
  let strict: Sandbox;
  const log: string[] = [];

  beforeAll(async () => {
    service = await internalService();
    strict = await startSandbox({ allowLoopback: false, resolve, logLines: log });
  });
  afterAll(async () => {
    await strict?.close();
    await service?.close();
  });

  it('a test ping to a name that resolves to loopback says only that the address is not allowed', async () => {
    const hook = await strict.call('POST', '/sandbox/webhooks', { event_type: 'wipe_session_ready', account_id: 'acct_ping', url: `http://vm:${service.port}/hook` });
    expect(hook.status).toBe(201);
    const ping = await strict.call('POST', `/sandbox/webhooks/${hook.json.prefix_id}/test`);
    expect(ping).toEqual({ status: 200, json: { ok: false, error: 'the target address is not allowed' } });
    expect(service.connections()).toBe(0);
    expect(log.join('\n')).toContain('(127.0.0.1): loopback address');
  });

  it('the delivery ledger keeps the category, the server log the detail', async () => {
    const token = await strict.token({ account_id: 'acct_ledger', account_name: 'Ledger Co' });
    await strict.call('POST', '/sandbox/webhooks', { event_type: 'wipe_session_ready', account_id: 'acct_ledger', url: `http://vm:${service.port}/ledger` });
    await strict.internal('/internal/tokens/validate', { jti: token.jti });
    await strict.webhooks.idle();
    const rows = (await strict.call('GET', '/sandbox/webhook_deliveries')).json.filter((d: any) => d.event_type === 'wipe_session_ready');
    expect(rows.map((d: any) => d.last_error)).toEqual(['the target address is not allowed']);
    expect(log.join('\n')).toContain('refused destination vm (127.0.0.1): loopback address');
  });
});
