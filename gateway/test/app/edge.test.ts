import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildGatewayApp } from '../../src/http/app.js';
import { SECRET, startGateway, type GatewayUnderTest } from '../support/gateway.js';
import { mintToken, newFleet } from '../support/tokens.js';
import { startFakeCloud, type FakeCloud } from '../support/upstream.js';

// Spec 4.1 health, spec 1.8 retired endpoints, spec 7 "unknown route".
describe('gateway edges: health, retired and unknown routes', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;

  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET });
    ({ token } = await mintToken(fleet));
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });
  beforeEach(() => cloud.reset());

  it('answers GET /api/health with 200 {ok:true} without a token, without calling the cloud', async () => {
    const answer = await sut.call('/api/health', { method: 'GET' });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(cloud.seen).toHaveLength(0);
  });

  it('answers GET /api/health with 200 {ok:true} with a valid token', async () => {
    expect(await sut.call('/api/health', { method: 'GET', token })).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('answers GET /api/health with 200 even with a garbage bearer', async () => {
    expect(await sut.call('/api/health', { method: 'GET', authorization: 'Bearer nope' })).toMatchObject({ status: 200 });
  });

  it.each(['/api/certificate', '/api/sign', '/api/timestamp'])('answers POST %s with 410 and a JSON error', async (path) => {
    const answer = await sut.call(path, { token, json: { anything: true } });
    expect(answer.status).toBe(410);
    expect(answer.body).toEqual({ error: 'gone' });
    expect(cloud.seen).toHaveLength(0);
  });

  it('answers a retired route with 410 without a token and with a malformed body', async () => {
    expect((await sut.call('/api/sign', { raw: '{not json' })).status).toBe(410);
  });

  it('answers an unknown route with 404 {"error":"not found"}', async () => {
    expect(await sut.call('/api/nope', { token, json: {} })).toMatchObject({ status: 404, body: { error: 'not found' } });
  });

  it('answers an unknown route with 404 even without a token', async () => {
    expect(await sut.call('/nowhere', { method: 'GET' })).toMatchObject({ status: 404, body: { error: 'not found' } });
  });

  it('answers a known path with the wrong method with 404', async () => {
    expect(await sut.call('/api/verify', { method: 'GET', token })).toMatchObject({ status: 404, body: { error: 'not found' } });
  });

  it('logs one JSON line per request with method, url and status', async () => {
    await sut.call('/api/health', { method: 'GET' });
    const lines = sut.logLines().filter((line) => line.url === '/api/health');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatchObject({ msg: 'request', method: 'GET', status: 200 });
    expect(sut.logLines().some((line) => line.msg === 'incoming request')).toBe(false);
  });
});

describe('gateway failures of its own', () => {
  it('answers 500 {"error":"internal server error"} without leaking the cause', async () => {
    const fleet = newFleet();
    const broken = {
      post: () => Promise.reject(new Error('secret detail: db password is hunter2')),
      close: () => Promise.resolve(),
    };
    const sut = buildGatewayApp({ publicKey: fleet.publicKey, forwarder: broken });
    try {
      const { token } = await mintToken(fleet);
      const answer = await sut.inject({ method: 'POST', url: '/api/verify', headers: { authorization: `Bearer ${token}` } });
      expect(answer.statusCode).toBe(500);
      expect(answer.json()).toEqual({ error: 'internal server error' });
      expect(answer.body).not.toContain('hunter2');
    } finally {
      await sut.close();
    }
  });
});
