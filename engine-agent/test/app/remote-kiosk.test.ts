import type { AgentState } from '@erasure/shared';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback } from '../../src/api/serve.js';
import { PAIRING_COOKIE, startRemoteKiosk } from '../../src/remote-kiosk/proxy.js';
import { postIntent, rawCall } from '../support/raw-http.js';
import { simulatedServe } from '../support/serve-env.js';

const CODE = 'K7QM-2WXR-9TNB-4HJD-ABCD';

type Sut = Awaited<ReturnType<typeof simulatedServe>>;
let sut: Sut | undefined;
let proxy: Awaited<ReturnType<typeof startRemoteKiosk>> | undefined;
afterEach(async () => {
  await proxy?.close();
  await sut?.close();
  proxy = undefined;
  sut = undefined;
});

/** An unlocked simulated agent on loopback and the remote kiosk proxy in front of it. */
async function agentBehindProxy(listen = '127.0.0.1'): Promise<{ s: Sut; remote: string; devices: string[] }> {
  sut = await simulatedServe();
  await sut.controller.bootUp();
  const agent = await listenLoopback(sut.app, { HOST: '127.0.0.1', PORT: 0 });
  proxy = await startRemoteKiosk({ listen, port: 0, code: CODE, upstream: new URL(agent) });
  return { s: sut, remote: proxy.url, devices: sut.controller.snapshot().drives.map((d) => d.device) };
}

const stateOf = (body: string) => (JSON.parse(body) as { state: AgentState }).state;

describe('the remote kiosk (erasure.agent_listen): paired callers only', () => {
  it('refuses select, confirm and start from an unpaired caller that sends Host: 127.0.0.1, and changes nothing', async () => {
    const { s, remote, devices } = await agentBehindProxy();
    for (const body of [{ type: 'select', devices }, { type: 'confirm', text: 'ERASE 2 DRIVES' }, { type: 'start' }]) {
      const r = await postIntent(remote, body, { host: '127.0.0.1:7070' });
      expect({ type: body.type, status: r.status, error: (JSON.parse(r.body) as { error: string }).error }).toEqual({ type: body.type, status: 401, error: "pairing required: open /pair and type the code shown on the machine's own screen" });
    }
    expect((await rawCall(remote, { path: '/api/state', headers: { host: '127.0.0.1:7070' } })).status).toBe(401);
    expect((await rawCall(remote, { path: '/api/events' })).status).toBe(401);
    expect(s.controller.snapshot().selected).toEqual([]);
    expect(s.controller.snapshot().run.status).toBe('idle');
  });

  it('refuses a wrong code, whether typed on the pairing page or sent as a bearer token', async () => {
    const { s, remote, devices } = await agentBehindProxy();
    const typed = await rawCall(remote, { method: 'POST', path: '/pair', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'code=K7QM-2WXR-9TNB-4HJD-ABCE' });
    expect([typed.status, typed.headers['set-cookie'], typed.body]).toEqual([401, undefined, expect.stringContaining("That is not this machine&#39;s pairing code")]);
    expect((await postIntent(remote, { type: 'select', devices }, { authorization: 'Bearer K7QM-2WXR-9TNB-4HJD' })).status).toBe(401);
    expect((await postIntent(remote, { type: 'select', devices }, { cookie: `${PAIRING_COOKIE}=${CODE}` })).status).toBe(401);
    expect(s.controller.snapshot().selected).toEqual([]);
  });

  it('passes a caller with the code as a bearer token through to the agent', async () => {
    const { remote, devices } = await agentBehindProxy();
    const auth = { authorization: `Bearer ${CODE.toLowerCase()}` };
    expect(stateOf((await postIntent(remote, { type: 'select', devices }, auth)).body).selected).toEqual(devices);
    const state = await rawCall(remote, { path: '/api/state', headers: auth });
    expect([state.status, (JSON.parse(state.body) as AgentState).confirmation.phrase]).toEqual([200, 'ERASE 2 DRIVES']);
  });

  it('relays the kiosk page with X-Frame-Options DENY and frame-ancestors none, and sends the pairing page the same way', async () => {
    const renderer = join(process.env.TMPDIR ?? '/tmp', `renderer-remote-${process.pid}-${Date.now()}`);
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>kiosk</title>');
    sut = await simulatedServe({ env: { KIOSK_RENDERER_DIR: renderer } });
    const agent = await listenLoopback(sut.app, { HOST: '127.0.0.1', PORT: 0 });
    proxy = await startRemoteKiosk({ listen: '127.0.0.1', port: 0, code: CODE, upstream: new URL(agent) });
    const kiosk = await rawCall(proxy.url, { path: '/', headers: { authorization: `Bearer ${CODE}` } });
    expect([kiosk.status, kiosk.body]).toEqual([200, '<!doctype html><title>kiosk</title>']);
    const pairing = await rawCall(proxy.url, { path: '/pair' });
    for (const res of [kiosk, pairing]) {
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('pairs a browser with the code typed on the pairing page: an HttpOnly SameSite=Strict cookie, then the kiosk', async () => {
    const { remote, devices } = await agentBehindProxy();
    const host = new URL(remote).host;
    const opened = await rawCall(remote, { path: '/', headers: { accept: 'text/html' } });
    expect([opened.status, opened.headers.location]).toEqual([303, '/pair']);
    const form = await rawCall(remote, { path: '/pair' });
    expect([form.status, form.body]).toEqual([200, expect.stringContaining('<input id="pairing-code" name="code"')]);
    const paired = await rawCall(remote, { method: 'POST', path: '/pair', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${host}` }, body: `code=${encodeURIComponent(CODE)}` });
    expect([paired.status, paired.headers.location]).toEqual([303, '/']);
    const setCookie = String(paired.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${PAIRING_COOKIE}=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=/$`));
    expect(setCookie).not.toContain('K7QM');
    const cookie = setCookie.split(';')[0] ?? '';
    // The page's own calls carry the cookie and the proxy's origin: the agent takes them as its own page's.
    const selected = await postIntent(remote, { type: 'select', devices }, { cookie, origin: `http://${host}` });
    expect([selected.status, stateOf(selected.body).selected]).toEqual([200, devices]);
    const confirmed = await postIntent(remote, { type: 'confirm', text: 'ERASE 2 DRIVES' }, { cookie, origin: `http://${host}` });
    expect(stateOf(confirmed.body).can.start).toBe(true);
  });

  it('refuses a state change from a page of another origin even in a paired browser, and changes nothing', async () => {
    const { s, remote, devices } = await agentBehindProxy();
    const auth = { authorization: `Bearer ${CODE}` };
    for (const origin of ['http://evil.example', 'http://127.0.0.1:7070', 'null']) {
      const r = await postIntent(remote, { type: 'select', devices }, { ...auth, origin });
      expect({ origin, status: r.status }).toEqual({ origin, status: 403 });
    }
    expect(s.controller.snapshot().selected).toEqual([]);
  });

  it('listens only on the address the option names', async () => {
    await agentBehindProxy('127.0.0.1');
    expect((proxy?.server.address() as AddressInfo).address).toBe('127.0.0.1');
  });
});
