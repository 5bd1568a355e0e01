import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeCloud, type FakeCloud } from '../test/support/upstream.js';
import { createForwarder, forwardedBody } from './forward.js';

const SECRET = 'forward-test-secret';
const device = { jti: '6f1c2b1e-0000-4000-8000-000000000001', sub: 'acct_9' };

describe('forwardedBody', () => {
  it('adds jti and account_id (the token sub) to the device body', () => {
    expect(JSON.parse(forwardedBody({ record_id: 'CW-1' }, device) ?? '')).toEqual({ record_id: 'CW-1', jti: device.jti, account_id: 'acct_9' });
  });

  it('forwards just the token fields for a bodiless call', () => {
    expect(JSON.parse(forwardedBody(undefined, device) ?? '')).toEqual({ jti: device.jti, account_id: 'acct_9' });
  });

  it('lets the token win over any same-named device field', () => {
    expect(JSON.parse(forwardedBody({ jti: 'forged', account_id: 'acct_x' }, device) ?? '')).toMatchObject({ jti: device.jti, account_id: 'acct_9' });
  });

  it('returns undefined for a body too deep to serialise instead of throwing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(forwardedBody({ extra: deep }, device)).toBeUndefined();
  });
});

describe('createForwarder', () => {
  let cloud: FakeCloud;
  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
  });
  afterAll(() => cloud.close());
  beforeEach(() => cloud.reset());

  const withForwarder = async (options: { secret?: string | undefined; timeoutMs?: number; maxResponseBytes?: number; base?: string | string[] }, use: (f: ReturnType<typeof createForwarder>) => Promise<void>) => {
    const sut = createForwarder({
      baseUrl: options.base ?? cloud.url,
      secret: 'secret' in options ? options.secret : SECRET,
      timeoutMs: options.timeoutMs ?? 1_000,
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
    });
    try {
      await use(sut);
    } finally {
      await sut.close();
    }
  };

  it('POSTs the exact bytes it was given, signed, and returns the parsed answer', async () => {
    cloud.script(() => ({ status: 201, json: { ok: true } }));
    const json = '{"b":1, "a":"ü"}';
    await withForwarder({}, async (sut) => {
      expect(await sut.post('/internal/assets', json)).toEqual({ kind: 'answered', status: 201, body: { ok: true } });
    });
    expect(cloud.seen[0]?.raw.toString('utf8')).toBe(json);
    expect(cloud.seen[0]?.signatureValid).toBe(true);
  });

  it('signs two forwards of the same bytes in one second differently (the cloud refuses a signature twice)', async () => {
    cloud.script(() => ({ status: 200, json: { ok: true } }));
    const json = JSON.stringify({ jti: device.jti, account_id: device.sub });
    const startedAt = new Date();
    const fixed = () => startedAt;
    const sut = createForwarder({ baseUrl: cloud.url, secret: SECRET, timeoutMs: 1_000, clock: fixed });
    try {
      await sut.post('/internal/tokens/verify', json);
      await sut.post('/internal/tokens/validate', json);
    } finally {
      await sut.close();
    }
    expect(cloud.seen.map((r) => r.signatureValid)).toEqual([true, true]);
    expect(new Set(cloud.seen.map((r) => r.headers['x-service-signature'])).size).toBe(2);
  });

  it('keeps a path prefix of CLOUD_INTERNAL_URL', async () => {
    cloud.script(() => ({ status: 200, json: {} }));
    await withForwarder({ base: `${cloud.url}/edge/` }, (sut) => sut.post('/internal/assets', '{}').then(() => undefined));
    expect(cloud.seen[0]?.url).toBe('/edge/internal/assets');
  });

  it('is unavailable without a secret and sends nothing', async () => {
    await withForwarder({ secret: undefined }, async (sut) => {
      expect(await sut.post('/internal/assets', '{}')).toMatchObject({ kind: 'unavailable' });
    });
    expect(cloud.seen).toHaveLength(0);
  });

  it('reports a non-JSON answer as answered with no body', async () => {
    cloud.script(() => ({ status: 200, raw: 'not json', contentType: 'text/plain' }));
    await withForwarder({}, async (sut) => {
      expect(await sut.post('/internal/assets', '{}')).toEqual({ kind: 'answered', status: 200, body: undefined });
    });
  });

  it('stops reading an answer past the size cap', async () => {
    cloud.script(() => ({ status: 200, json: { pad: 'x'.repeat(4096) } }));
    await withForwarder({ maxResponseBytes: 1024 }, async (sut) => {
      expect(await sut.post('/internal/assets', '{}')).toEqual({ kind: 'answered', status: 200, body: undefined });
    });
  });

  it('is unavailable when the cloud does not answer within the timeout', async () => {
    cloud.script(() => ({ hang: true }));
    await withForwarder({ timeoutMs: 150 }, async (sut) => {
      expect(await sut.post('/internal/assets', '{}')).toMatchObject({ kind: 'unavailable' });
    });
  });

  it('is unavailable when nothing listens', async () => {
    const gone = await startFakeCloud(SECRET);
    await gone.close();
    await withForwarder({ base: gone.url }, async (sut) => {
      expect(await sut.post('/internal/assets', '{}')).toMatchObject({ kind: 'unavailable' });
    });
  });

  it('spreads calls round-robin over several cloud instances', async () => {
    const other = await startFakeCloud(SECRET);
    try {
      cloud.script(() => ({ status: 200, json: { from: 'a' } }));
      other.script(() => ({ status: 200, json: { from: 'b' } }));
      await withForwarder({ base: [cloud.url, other.url] }, async (sut) => {
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push(await sut.post('/internal/assets', '{}'));
        expect(answers.map((a) => (a.kind === 'answered' ? (a.body as { from: string }).from : a.kind))).toEqual(['a', 'b', 'a', 'b']);
      });
      expect(cloud.seen).toHaveLength(2);
      expect(other.seen).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it('sends a call to the next instance when one refuses the connection, so nothing was sent twice', async () => {
    const gone = await startFakeCloud(SECRET);
    await gone.close();
    cloud.script(() => ({ status: 200, json: { ok: true } }));
    await withForwarder({ base: [gone.url, cloud.url] }, async (sut) => {
      for (let i = 0; i < 3; i++) expect(await sut.post('/internal/assets', '{}')).toEqual({ kind: 'answered', status: 200, body: { ok: true } });
    });
    expect(cloud.seen).toHaveLength(3);
  });

  it('does not resend a call an instance received but did not answer in time', async () => {
    const other = await startFakeCloud(SECRET);
    try {
      cloud.script(() => ({ hang: true }));
      other.script(() => ({ status: 200, json: { ok: true } }));
      await withForwarder({ base: [cloud.url, other.url], timeoutMs: 150 }, async (sut) => {
        expect(await sut.post('/internal/tokens/validate', '{}')).toMatchObject({ kind: 'unavailable' });
      });
      expect(other.seen).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('is unavailable when no instance listens', async () => {
    const a = await startFakeCloud(SECRET);
    const b = await startFakeCloud(SECRET);
    await a.close();
    await b.close();
    await withForwarder({ base: [a.url, b.url] }, async (sut) => {
      expect(await sut.post('/internal/assets', '{}')).toMatchObject({ kind: 'unavailable' });
    });
  });
});
