import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hmacSignature } from '@erasure/shared';
import { SECRET, startCloud, type Cloud } from '../helpers.js';

const URL = '/internal/tokens/verify';

describe('internal channel HMAC (spec 5.2)', () => {
  let cloud: Cloud;
  beforeEach(async () => {
    cloud = await startCloud();
  });
  afterEach(() => cloud.close());

  const nowSeconds = () => Math.floor(cloud.clock.now().getTime() / 1000);
  const send = (payload: string, headers: Record<string, string>) =>
    cloud.app.inject({ method: 'POST', url: URL, payload, headers: { 'content-type': 'application/json', ...headers } });
  const signed = (payload: string, timestamp: string, secret = SECRET) => ({
    'x-service-timestamp': timestamp,
    'x-service-signature': hmacSignature(secret, timestamp, payload),
  });

  it('accepts a fresh signature over the exact raw body', async () => {
    const payload = JSON.stringify({ jti: 'no-such-token' });
    const res = await send(payload, signed(payload, String(nowSeconds())));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ allow: false, status: 'unknown', reason: 'not_found' });
  });

  it('answers 401 unauthorized when the headers are missing', async () => {
    const res = await send('{}', {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized' });
  });

  it.each([
    ['stale by more than 300 s', -301],
    ['from more than 300 s in the future', 301],
  ])('answers 401 for a timestamp %s', async (_name, offset) => {
    const payload = '{"jti":"x"}';
    const res = await send(payload, signed(payload, String(nowSeconds() + offset)));
    expect(res.statusCode).toBe(401);
  });

  it('accepts a timestamp exactly 300 s off', async () => {
    const payload = '{"jti":"x"}';
    const res = await send(payload, signed(payload, String(nowSeconds() - 300)));
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['13 digits', '0001763812800'],
    ['non-digits', '1763812800.5'],
    ['a sign', '+1763812800'],
    ['blank', ''],
  ])('answers 401 for a timestamp with %s', async (_name, timestamp) => {
    const payload = '{"jti":"x"}';
    const res = await send(payload, signed(payload, timestamp));
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 when the body differs from the signed bytes', async () => {
    const timestamp = String(nowSeconds());
    const res = await send('{"jti":"y"}', signed('{"jti":"x"}', timestamp));
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 when re-serialised JSON is signed instead of the raw bytes', async () => {
    const raw = '{ "jti" : "x" }';
    const res = await send(raw, signed(JSON.stringify(JSON.parse(raw)), String(nowSeconds())));
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 for a signature made with another secret', async () => {
    const payload = '{"jti":"x"}';
    const res = await send(payload, signed(payload, String(nowSeconds()), 'another-secret'));
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 for an uppercase-hex or unprefixed signature', async () => {
    const payload = '{"jti":"x"}';
    const timestamp = String(nowSeconds());
    const good = hmacSignature(SECRET, timestamp, payload);
    for (const signature of [good.toUpperCase(), good.slice('sha256='.length)]) {
      const res = await send(payload, { 'x-service-timestamp': timestamp, 'x-service-signature': signature });
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers 401 to an unsigned request before content type, method or path are looked at', async () => {
    const xml = await cloud.app.inject({ method: 'POST', url: URL, payload: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.statusCode).toBe(401);
    for (const [method, url] of [['POST', '/internal/nope'], ['GET', URL]] as const) {
      const res = await cloud.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
    }
  });

  it('checks the signature before parsing: garbled unsigned JSON is 401, signed garbled JSON is 400', async () => {
    expect((await send('{not json', {})).statusCode).toBe(401);
    const payload = '{not json';
    const res = await send(payload, signed(payload, String(nowSeconds())));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid JSON body' });
  });
});

describe('internal channel without a secret', () => {
  it('answers 503 for the whole /internal/* namespace (fail closed)', async () => {
    const cloud = await startCloud({ secret: undefined });
    try {
      for (const url of ['/internal/tokens/verify', '/internal/tokens/validate', '/internal/assets', '/internal/wipe_results', '/internal/nope', '/internal?x=1', '/%69nternal/tokens/verify']) {
        const res = await cloud.post(url, { jti: 'x' });
        expect(res.status, url).toBe(503);
      }
    } finally {
      await cloud.close();
    }
  });
});
