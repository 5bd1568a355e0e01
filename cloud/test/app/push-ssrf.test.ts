import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { savePushIntegration } from '../../src/adapters/db/push-integrations.js';
import { loadConfig } from '../../src/config.js';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, reportWipe, signIn, type Browser } from '../web-helpers.js';

/** URL forms that reach the cloud's own host or network (issue 11, item 1), each in its own spelling. */
const INTERNAL_URLS = [
  'https://127.0.0.1/in',
  'https://localhost/in',
  'https://api.localhost/in',
  'https://0.0.0.0/in',
  'https://2130706433/in',
  'https://0177.0.0.1/in',
  'https://0x7f.1/in',
  'https://127.1/in',
  'https://169.254.169.254/latest/meta-data',
  'https://10.1.2.3/in',
  'https://172.16.0.9/in',
  'https://192.168.1.20/in',
  'https://100.64.0.1/in',
  'https://[fd00::1]/in',
  'https://[fd00:ec2::254]/in',
  'https://[::1]/in',
  'https://[::ffff:127.0.0.1]/in',
  'https://[::127.0.0.1]/in',
  'https://[::7f00:1]/in',
  'https://[::a9fe:a9fe]/in',
  'https://[::ffff:0:7f00:1]/in',
  'https://[2002:a9fe:a9fe::]/in',
  'https://[64:ff9b::a9fe:a9fe]/in',
  'https://[64:ff9b:1::a9fe:a9fe]/in',
  'https://[fec0::1]/in',
  'https://[fe80::1]/in',
  'https://metadata.google.internal/computeMetadata/v1/',
];

/** A TCP listener that counts connections: proof that nothing was sent, TLS or not. */
async function countingListener(onSocket: (socket: Socket) => void = (s) => s.destroy()) {
  let connections = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const leaksDetail = (text: string) => /\bE[A-Z]{3,}\b/.test(text) || /127\.0\.0\.1|localhost|getaddrinfo|certificate|altname|ssl|wrong version/i.test(text);

describe('Push integration: the target URL (issue 11, SSRF)', () => {
  let cloud: Cloud;
  let admin: Browser;
  afterEach(() => cloud.close());

  const start = async (outbound?: { allowHttp: boolean; allowLoopback: boolean }) => {
    cloud = await startCloud({ deps: outbound ? { outbound } : {} });
    const account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    admin = await signIn(cloud, 'admin@acme.test');
    return account;
  };

  it.each(INTERNAL_URLS)('refuses %s as a push target with a 422 naming why', async (url) => {
    await start();
    const res = await admin.send('PUT', '/app/api/integrations/push', { url, secret: '' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^url points to a .+ address$/);
    expect((await admin.get('/app/api/integrations/push')).json.configured).toBe(false);
  });

  it('refuses credentials in the URL', async () => {
    await start();
    const res = await admin.send('PUT', '/app/api/integrations/push', { url: 'https://user:pw@hooks.example.com/in', secret: '' });
    expect(res).toMatchObject({ status: 422, json: { error: 'url must not carry credentials' } });
  });

  it('accepts a public https target', async () => {
    await start();
    const res = await admin.send('PUT', '/app/api/integrations/push', { url: 'https://hooks.example.com/in', secret: '' });
    expect(res.status).toBe(200);
  });

  it('with WEBHOOK_ALLOW_HTTP alone, http is accepted but loopback is still refused', async () => {
    await start({ allowHttp: true, allowLoopback: false });
    expect((await admin.send('PUT', '/app/api/integrations/push', { url: 'http://hooks.example.com/in', secret: '' })).status).toBe(200);
    for (const url of ['http://127.0.0.1:8080/in', 'http://localhost/in', 'http://[::1]/in', 'http://10.0.0.1/in']) {
      expect((await admin.send('PUT', '/app/api/integrations/push', { url, secret: '' })).status, url).toBe(422);
    }
  });
});

describe('Push integration: sending goes through the guarded outbound client', () => {
  let cloud: Cloud;
  let listener: Awaited<ReturnType<typeof countingListener>> | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
    await cloud.close();
  });

  /** A wipe to push and a signed-in admin; the target row is written directly, as an older, looser configuration would have saved it. */
  const prepare = async (targetUrl: string, outbound?: { allowHttp: boolean; allowLoopback: boolean }) => {
    cloud = await startCloud({ deps: outbound ? { outbound } : {} });
    const account = await cloud.account('Acme Refurb');
    const jti = (await cloud.token(account.id)).jti;
    const wipeId = await reportWipe(cloud, jti, { job_id: 'job-push-1', drive_serial: 'S1' });
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    const admin = await signIn(cloud, 'admin@acme.test');
    await savePushIntegration(cloud.db, { accountId: account.id, url: targetUrl, secret: 'a-shared-secret-123', now: new Date().toISOString() });
    return { admin, wipeId };
  };

  it('a loopback TLS or HTTP listener receives no connection when the loopback switch is off', async () => {
    listener = await countingListener();
    for (const scheme of ['https', 'http']) {
      const { admin, wipeId } = await prepare(`${scheme}://127.0.0.1:${listener.port}/in`, { allowHttp: true, allowLoopback: false });
      const res = await admin.send('POST', '/app/api/wipes/push', { ids: [wipeId] });
      expect(res.status).toBe(502);
      expect(res.json).toEqual({ ok: false, error: 'push failed: the target address is not allowed' });
      await cloud.close();
    }
    expect(listener.connections()).toBe(0);
    cloud = await startCloud(); // afterEach closes one
  });

  it('a refused connection is reported as a category, without errno, address or port', async () => {
    listener = await countingListener();
    const port = listener.port;
    await listener.close();
    listener = undefined;
    const { admin, wipeId } = await prepare(`http://127.0.0.1:${port}/in`, { allowHttp: true, allowLoopback: true });
    const res = await admin.send('POST', '/app/api/wipes/push', { ids: [wipeId] });
    expect(res.status).toBe(502);
    expect(res.json).toEqual({ ok: false, error: 'push failed: could not connect' });
    expect(leaksDetail(res.text)).toBe(false);
  });

  it('a TLS failure is reported as "TLS error", without the library text', async () => {
    // Speaks plain HTTP to a TLS client: the handshake fails on the client side.
    listener = await countingListener((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
    const { admin, wipeId } = await prepare(`https://127.0.0.1:${listener.port}/in`, { allowHttp: false, allowLoopback: true });
    const res = await admin.send('POST', '/app/api/wipes/push', { ids: [wipeId] });
    expect(res.status).toBe(502);
    expect(res.json).toEqual({ ok: false, error: 'push failed: TLS error' });
    expect(leaksDetail(res.text)).toBe(false);
    expect(listener.connections()).toBe(1);
  });
});

describe('configuration switches', () => {
  it('WEBHOOK_ALLOW_HTTP only widens the scheme; WEBHOOK_ALLOW_LOOPBACK is its own switch', () => {
    expect(loadConfig({}).outbound).toEqual({ allowHttp: false, allowLoopback: false });
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: '1' }).outbound).toEqual({ allowHttp: true, allowLoopback: false });
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1' }).outbound).toEqual({ allowHttp: false, allowLoopback: true });
  });
});
