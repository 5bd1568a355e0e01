import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacSignature } from '@erasure/shared';
import { SECRET, fingerprint, startCloud, type Cloud } from '../helpers.js';

const ROUTES = [
  '/internal/tokens/verify',
  '/internal/tokens/validate',
  '/internal/assets',
  '/internal/assets/notes',
  '/internal/assets/tests',
  '/internal/wipe_results',
  '/internal/chassis_maps',
  '/internal/chassis_maps/lookup',
];

describe('hostile input never yields a 5xx', () => {
  let cloud: Cloud;
  let jti: string;
  beforeAll(async () => {
    cloud = await startCloud();
    jti = (await cloud.token((await cloud.account()).id)).jti;
  });
  afterAll(() => cloud.close());

  const sendRaw = (url: string, payload: string) => {
    const timestamp = String(Math.floor(cloud.clock.now().getTime() / 1000));
    return cloud.app.inject({
      method: 'POST',
      url,
      payload,
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': timestamp,
        'x-service-signature': hmacSignature(SECRET, timestamp, payload),
      },
    });
  };

  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const bodies: [string, string][] = [
    ['malformed JSON', '{"jti": '],
    ['prototype poisoning', '{"jti":"x","__proto__":{"admin":true}}'],
    ['constructor poisoning', '{"jti":"x","constructor":{"prototype":{"admin":true}}}'],
    ['an array', '[1,2,3]'],
    ['a bare string', '"jti"'],
    ['null', 'null'],
    ['deep nesting', deep(5000)],
    ['null bytes and control characters', JSON.stringify({ jti: '\u0000\u0001', record_id: '\u0000', notes: '\u0000' })],
  ];

  it.each(ROUTES)('%s answers 4xx JSON to every hostile body', async (url) => {
    for (const [name, payload] of bodies) {
      const res = await sendRaw(url, payload);
      expect(res.statusCode, `${name}`).toBeLessThan(500);
      expect(() => JSON.parse(res.body), name).not.toThrow();
    }
  });

  it.each([1_000, 4_000, 100_000])('answers 422 with a clear error to a fingerprint nested %i levels deep on assets and chassis maps', async (depth) => {
    const extra = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const fp = JSON.stringify(fingerprint()).replace(/}$/, `,"extra":${extra}}`);
    const asset = await sendRaw('/internal/assets', `{"jti":"${jti}","record_id":"CW-deep","engine_version":"1","fingerprint":${fp}}`);
    expect({ status: asset.statusCode, json: JSON.parse(asset.body) }).toEqual({ status: 422, json: { error: 'body nested too deeply (at most 64 levels)' } });
    const map = await sendRaw(
      '/internal/chassis_maps',
      `{"jti":"${jti}","record_id":"CW-deep","engine_version":"1","fingerprint":${fp},"map":{"name":"R","bays":[{"lane":"1","label":"A"}]}}`,
    );
    expect({ status: map.statusCode, json: JSON.parse(map.body) }).toEqual({ status: 422, json: { error: 'body nested too deeply (at most 64 levels)' } });
    expect((await cloud.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM assets WHERE record_id = 'CW-deep'"))!.n).toBe(0);
  });

  it('stores a fingerprint nested 60 levels deep (real ones are 4–5)', async () => {
    const extra = JSON.parse(`${'{"a":'.repeat(58)}1${'}'.repeat(58)}`);
    const res = await cloud.post('/internal/assets', { jti, record_id: 'CW-60', engine_version: '1', fingerprint: fingerprint(undefined, undefined, { extra }) });
    expect(res.status).toBe(201);
  });

  it('refuses a NUL character anywhere in a body with 422 on every store, storing nothing', async () => {
    // PostgreSQL's text cannot hold U+0000; SQLite could, but both stores answer alike.
    const withNul = [
      { jti, record_id: 'CW-nul', notes: 'a\u0000b' },
      { jti, record_id: 'CW-nul', fingerprint: fingerprint(undefined, undefined, { extra: { ['k\u0000']: 1 } }) },
      { jti, record_id: 'CW-nul', fingerprint: fingerprint(undefined, undefined, { extra: { deep: ['x\u0000'] } }) },
    ];
    for (const body of withNul) {
      const res = await sendRaw('/internal/assets', JSON.stringify(body));
      expect({ status: res.statusCode, json: JSON.parse(res.body) }).toEqual({ status: 422, json: { error: 'invalid payload' } });
    }
    expect((await cloud.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM assets WHERE record_id = 'CW-nul'"))!.n).toBe(0);
  });

  it('stores hostile strings verbatim as data, never as SQL or markup', async () => {
    const nasty = `'); DROP TABLE assets; -- <script>alert(1)</script> ${'𝕏'.repeat(500)} \u202e`;
    const res = await cloud.post('/internal/assets', {
      jti,
      record_id: 'CW-20261122-120000',
      fingerprint: fingerprint(nasty.slice(0, 100), nasty.slice(0, 100), { extra: { text: nasty } }),
    });
    expect(res.status).toBe(201);
    const notes = await cloud.post('/internal/assets/notes', { jti, record_id: 'CW-20261122-120000', notes: nasty });
    expect(notes.status).toBe(200);
    expect((await cloud.db.one<{ notes: string }>("SELECT notes FROM assets WHERE record_id = 'CW-20261122-120000'"))!.notes).toBe(nasty);
  });

  it('refuses an oversized body with 413 and keeps answering', async () => {
    const res = await sendRaw('/internal/assets', JSON.stringify({ jti, record_id: 'x', fingerprint: { blob: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(res.statusCode).toBe(413);
    expect((await cloud.post('/internal/tokens/verify', { jti })).status).toBe(200);
  });

  it('still answers after all of it', async () => {
    expect((await cloud.post('/internal/tokens/verify', { jti })).status).toBe(200);
  });
});
