import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startGateway, type GatewayUnderTest } from '../support/gateway.js';
import { assetAccepted, notesBody, recordBody, verifyAllow } from '../support/bodies.js';
import { mintToken, newFleet } from '../support/tokens.js';
import { startFakeCloud, type FakeCloud } from '../support/upstream.js';

const INVALID = { status: 400, body: { error: 'invalid payload' } };
const nested = (depth: number, open: string, close: string, leaf = '1') => `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;

// Spec 7 "400 invalid payload", spec 4.1 diagnostics and spec 8 (16 KiB).
describe('request bodies at the gateway', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;
  let jti: string;

  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET });
    ({ token, jti } = await mintToken(fleet));
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });
  beforeEach(() => {
    cloud.reset();
    cloud.script((request) => (request.url === '/internal/tokens/verify' ? { status: 200, json: verifyAllow } : { status: 201, json: assetAccepted }));
  });

  it('answers 400 invalid payload for a field of the wrong type, without forwarding', async () => {
    expect(await sut.call('/api/record', { token, json: { ...recordBody, record_id: 42 } })).toMatchObject(INVALID);
    expect(cloud.seen).toHaveLength(0);
  });

  it.each([1_000, 4_000, 100_000])('answers 400 invalid payload for a fingerprint nested %i levels deep, without forwarding', async (depth) => {
    const deep = `{"record_id":"CW-1","engine_version":"4.2.0","fingerprint":{"system":{},"extra":${nested(depth, '{"a":', '}')}}}`;
    expect(await sut.call('/api/record', { token, raw: deep })).toMatchObject(INVALID);
    const map = `{"record_id":"CW-1","engine_version":"4.2.0","fingerprint":{"system":{},"extra":${nested(depth, '[', ']')}},"map":{"name":"R","bays":[{"lane":"1","label":"A"}]}}`;
    expect(await sut.call('/api/chassis_map', { token, raw: map })).toMatchObject(INVALID);
    expect(cloud.seen.filter((r) => r.url !== '/internal/tokens/verify')).toHaveLength(0);
  });

  it('forwards a fingerprint nested 60 levels deep (real ones are 4–5)', async () => {
    const fingerprint = { ...recordBody.fingerprint, extra: JSON.parse(nested(58, '{"a":', '}')) };
    expect((await sut.call('/api/record', { token, json: { ...recordBody, fingerprint } })).status).toBe(201);
  });

  it('does not coerce: a numeric string is not an integer', async () => {
    const fingerprint = { ...recordBody.fingerprint, memory: { total_bytes: '16' } };
    expect(await sut.call('/api/record', { token, json: { ...recordBody, fingerprint } })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for a missing required field', async () => {
    expect(await sut.call('/api/notes', { token, json: { record_id: 'CW-1' } })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for an extra field instead of stripping it', async () => {
    expect(await sut.call('/api/notes', { token, json: { ...notesBody, shout: true } })).toMatchObject(INVALID);
    expect(cloud.seen).toHaveLength(0);
  });

  it('answers 400 invalid payload when a device tries to supply jti or account_id itself', async () => {
    expect(await sut.call('/api/notes', { token, json: { ...notesBody, jti: 'someone-else' } })).toMatchObject(INVALID);
    expect(await sut.call('/api/notes', { token, json: { ...notesBody, account_id: 'acct_1' } })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for malformed JSON', async () => {
    expect(await sut.call('/api/record', { token, raw: '{"record_id": "CW-1",' })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for a JSON body that is not an object', async () => {
    expect(await sut.call('/api/record', { token, raw: '[1,2,3]' })).toMatchObject(INVALID);
    expect(await sut.call('/api/verify', { token, raw: 'null' })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for a missing body on a route that needs one', async () => {
    expect(await sut.call('/api/record', { token })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for __proto__ poisoning', async () => {
    const raw = `{"record_id":"CW-1","notes":"x","__proto__":{"polluted":true}}`;
    expect(await sut.call('/api/notes', { token, raw })).toMatchObject(INVALID);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 400 invalid payload for constructor.prototype poisoning', async () => {
    const raw = `{"record_id":"CW-1","notes":"x","constructor":{"prototype":{"polluted":true}}}`;
    expect(await sut.call('/api/notes', { token, raw })).toMatchObject(INVALID);
  });

  it('answers 400 invalid payload for a non-JSON content type', async () => {
    expect(await sut.call('/api/notes', { token, raw: 'record_id=CW-1', contentType: 'application/x-www-form-urlencoded' })).toMatchObject(INVALID);
  });

  it('answers 413 payload too large past the 1 MiB body limit', async () => {
    const answer = await sut.call('/api/notes', { token, json: { record_id: 'CW-1', notes: 'x'.repeat(1_100_000) } });
    expect(answer).toMatchObject({ status: 413, body: { error: 'payload too large' } });
  });

  it('accepts diagnostics and answers 200 {ok:true} without forwarding them', async () => {
    expect(await sut.call('/api/diagnostics', { token, json: { dmesg: ['line 1', 'line 2'], uptime: 31 } })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect(cloud.seen).toHaveLength(0);
  });

  it('writes diagnostics to the log with the token jti', async () => {
    const marker = `diag-${Date.now()}`;
    await sut.call('/api/diagnostics', { token, json: { marker } });
    const line = sut.logLines().find((entry) => entry.msg === 'device diagnostics' && JSON.stringify(entry).includes(marker));
    expect(line).toMatchObject({ jti, diagnostics: { marker } });
  });

  it('accepts diagnostics of exactly 16 KiB', async () => {
    const raw = JSON.stringify({ blob: 'x'.repeat(16 * 1024 - 11) });
    expect(Buffer.byteLength(raw)).toBe(16 * 1024);
    expect((await sut.call('/api/diagnostics', { token, raw })).status).toBe(200);
  });

  it('answers 413 payload too large for diagnostics past 16 KiB', async () => {
    const raw = JSON.stringify({ blob: 'x'.repeat(16 * 1024 - 10) });
    expect(await sut.call('/api/diagnostics', { token, raw })).toMatchObject({ status: 413, body: { error: 'payload too large' } });
  });

  it('answers 400 for diagnostics that are not JSON', async () => {
    expect(await sut.call('/api/diagnostics', { token, raw: '{oops' })).toMatchObject(INVALID);
  });
});

// Hostile input must end in a 2xx/4xx, never a 5xx, and must not wedge the server.
describe('hostile bodies at the gateway', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;

  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    cloud.script(() => ({ status: 200, json: assetAccepted }));
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET });
    ({ token } = await mintToken(fleet));
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });

  const cases: [string, string, string][] = [
    ['huge unicode notes', '/api/notes', JSON.stringify({ record_id: 'CW-1', notes: '🧨ǅ\u202e'.repeat(4000) })],
    ['null bytes in strings', '/api/notes', JSON.stringify({ record_id: 'CW-\u0000', notes: 'a\u0000b' })],
    ['lone surrogates', '/api/notes', `{"record_id":"CW-1","notes":"\\ud800\\udfff\\ud800"}`],
    ['deep nesting inside an open fingerprint section', '/api/record', `{"record_id":"CW-1","fingerprint":{"extra":${nested(200_000, '[', ']')}}}`],
    ['deep nesting as the whole body', '/api/record', nested(150_000, '{"a":', '}')],
    ['deep nesting of constructor keys', '/api/notes', nested(100_000, '{"constructor":', '}')],
    ['deeply nested diagnostics', '/api/diagnostics', nested(8_000, '[', ']')],
    ['a 1 MiB string of brackets', '/api/notes', '['.repeat(1024 * 1024 - 16)],
  ];

  it.each(cases)('never answers 5xx for %s', async (_what, path, raw) => {
    const answer = await sut.call(path, { token, raw });
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toBeTypeOf('object');
  });

  it('still answers health after the hostile bodies', async () => {
    for (const [, path, raw] of cases) await sut.call(path, { token, raw });
    expect(await sut.call('/api/health', { method: 'GET' })).toMatchObject({ status: 200, body: { ok: true } });
  });
});
