import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import type { Resolve } from '../../src/adapters/outbound-http.js';
import type { Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';
import { startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

/** DNS for the guard: `vm` is a host inside the network that resolves to loopback. */
const resolve: Resolve = (hostname, callback) =>
  hostname === 'vm' ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);

/** A port nothing listens on: bound, read, closed. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** What would map the network for the account: errno names, addresses, ports, resolver text. */
const leaksDetail = (text: string, port: number) => /\bE[A-Z]{3,}\b/.test(text) || text.includes(String(port)) || /127\.0\.0\.1|getaddrinfo|refused destination/i.test(text);

// The web helpers need only the app, the database and a clock of a cloud.
const asCloud = (cloud: WebhookCloud) => ({ app: cloud.app, db: cloud.db, clock: systemClock }) as unknown as Cloud;

/**
 * Issue 20, item 5: a failed test ping and the delivery log show the account the categories Push
 * shows (not allowed, timed out, TLS error, could not connect, HTTP <status>); where a name
 * resolved, the errno and the port stay in the server log.
 */
describe('webhook failures as the account sees them', () => {
  let sut: WebhookCloud;
  let admin: Browser;
  let log: string[];
  afterEach(() => sut.close());

  const start = async (outbound: { allowHttp: boolean; allowLoopback: boolean }) => {
    log = [];
    sut = await startWebhookCloud({ outbound, resolve, logLines: log, retryBaseMs: 60_000 });
    const account = await sut.account();
    admin = await signIn(asCloud(sut), (await addUser(asCloud(sut), account.id, 'admin')).email);
    return account;
  };
  const create = async (url: string, eventType = 'wipe_session_ready') => {
    const res = await admin.send('POST', '/app/api/webhooks', { event_type: eventType, url });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };

  it('a test ping to a name that resolves to loopback says only that the address is not allowed', async () => {
    await start({ allowHttp: true, allowLoopback: false });
    const receiver = await startReceiver();
    try {
      const id = await create(`http://vm:${receiver.port}/hook`);
      const ping = await admin.send('POST', `/app/api/webhooks/${id}/test`);
      expect(ping.status).toBe(200);
      expect(ping.json).toEqual({ ok: false, error: 'the target address is not allowed' });
      expect(leaksDetail(ping.text, receiver.port)).toBe(false);
      expect(receiver.requests).toHaveLength(0);
      expect(log.join('\n')).toContain('refused destination vm (127.0.0.1): loopback address');
    } finally {
      await receiver.close();
    }
  });

  it('a test ping to a closed port in loopback mode says "could not connect", without errno or port', async () => {
    await start({ allowHttp: true, allowLoopback: true });
    const port = await deadPort();
    const id = await create(`http://127.0.0.1:${port}/hook`);
    const ping = await admin.send('POST', `/app/api/webhooks/${id}/test`);
    expect(ping.json).toEqual({ ok: false, error: 'could not connect' });
    expect(leaksDetail(ping.text, port)).toBe(false);
    expect(log.join('\n')).toMatch(new RegExp(`ECONNREFUSED[^\\n]*${port}`));
  });

  it('the delivery log and the health column show the category; the server log has the detail', async () => {
    const account = await start({ allowHttp: true, allowLoopback: true });
    const port = await deadPort();
    const id = await create(`http://127.0.0.1:${port}/hook`);
    await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti });
    // `attempts` counts the claim; the attempt is recorded a worker turn later: wait for its log row.
    const delivery = await waitFor(
      async () => (await admin.get(`/app/api/webhooks/${id}/deliveries`)).json.deliveries.find((d: { attempt_log: unknown[] }) => d.attempt_log.length === 1),
      10_000,
      'recorded attempt',
    );
    expect(delivery.last_error).toBe('could not connect');
    expect(delivery.attempt_log.map((a: { error: string }) => a.error)).toEqual(['could not connect']);
    const listed = (await admin.get('/app/api/webhooks')).json.webhooks.find((w: { id: string }) => w.id === id);
    expect(listed.last_error).toBe('could not connect');
    for (const text of [JSON.stringify([delivery.last_error, delivery.attempt_log]), JSON.stringify(listed.last_error)]) expect(leaksDetail(text, port)).toBe(false);
    expect(log.join('\n')).toMatch(new RegExp(`ECONNREFUSED[^\\n]*${port}`));
  });

  it('rows written before categories, holding the raw detail, read as a category', async () => {
    const account = await start({ allowHttp: true, allowLoopback: true });
    const port = await deadPort();
    const id = await create(`http://127.0.0.1:${port}/hook`);
    await sut.post('/internal/tokens/validate', { jti: (await sut.token(account.id)).jti });
    await waitFor(async () => (await admin.get(`/app/api/webhooks/${id}/deliveries`)).json.deliveries[0]?.attempt_log.length === 1, 10_000, 'recorded attempt');
    // What the previous release stored: the sender's detail, verbatim.
    const raw = `connect ECONNREFUSED 127.0.0.1:${port}`;
    await sut.db.run('UPDATE webhook_deliveries SET last_error = @raw', { raw });
    await sut.db.run('UPDATE webhook_attempts SET error = @raw', { raw });
    await sut.db.run('UPDATE webhook_subscriptions SET last_error = @raw', { raw });

    const [delivery] = (await admin.get(`/app/api/webhooks/${id}/deliveries`)).json.deliveries;
    expect([delivery.last_error, delivery.attempt_log[0].error]).toEqual(['could not connect', 'could not connect']);
    expect((await admin.get('/app/api/webhooks')).json.webhooks[0].last_error).toBe('could not connect');
  });
});
