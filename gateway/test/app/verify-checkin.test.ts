import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startGateway, type GatewayUnderTest } from '../support/gateway.js';
import { validateAllow, verifyAllow } from '../support/bodies.js';
import { ACCOUNT, mintToken, newFleet } from '../support/tokens.js';
import { startFakeCloud, type FakeCloud } from '../support/upstream.js';

const UNAVAILABLE = { status: 503, body: { allow: false, reason: 'validation_unavailable' } };
const revokedDeny = { allow: false, status: 'revoked', reason: 'revoked', quota_remaining: 0 };
const notFound = { allow: false, status: 'unknown', reason: 'not_found' };

// Spec 4.1 rules 1-3 and spec 7 rows 3-4, for both ladder routes.
describe.each([
  { path: '/api/verify', internal: '/internal/tokens/verify', allow: verifyAllow, expected: { allow: true, account: 'Acme Recyclers', quota_remaining: 12 } },
  {
    path: '/api/checkin',
    internal: '/internal/tokens/validate',
    allow: validateAllow,
    expected: { allow: true, job_id: validateAllow.job_id, quota_remaining: 11 },
  },
])('POST $path', ({ path, internal, allow, expected }) => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;
  let jti: string;

  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET, timeoutMs: 300 });
    ({ token, jti } = await mintToken(fleet));
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });
  beforeEach(() => cloud.reset());

  it(`is forwarded to ${internal} with jti and account_id, signed over the exact bytes`, async () => {
    cloud.script(() => ({ status: 200, json: allow }));
    await sut.call(path, { token });
    expect(cloud.seen).toHaveLength(1);
    const [seen] = cloud.seen;
    expect(seen).toMatchObject({ method: 'POST', url: internal, signatureValid: true, json: { jti, account_id: ACCOUNT } });
    expect(seen?.headers['content-type']).toBe('application/json');
  });

  it('passes the allow through in the gateway shape, without the cloud status field', async () => {
    cloud.script(() => ({ status: 200, json: allow }));
    const answer = await sut.call(path, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expected);
  });

  it('accepts no body at all (devices send none)', async () => {
    cloud.script(() => ({ status: 200, json: allow }));
    expect((await sut.call(path, { token })).status).toBe(200);
  });

  it('accepts an empty body sent with the JSON content type', async () => {
    cloud.script(() => ({ status: 200, json: allow }));
    expect((await sut.call(path, { token, raw: '', contentType: 'application/json' })).status).toBe(200);
  });

  it('accepts {} as the body', async () => {
    cloud.script(() => ({ status: 200, json: allow }));
    expect((await sut.call(path, { token, json: {} })).status).toBe(200);
  });

  it('refuses a body with fields as invalid payload', async () => {
    expect(await sut.call(path, { token, json: { jti: 'smuggled' } })).toMatchObject({ status: 400, body: { error: 'invalid payload' } });
    expect(cloud.seen).toHaveLength(0);
  });

  it('passes a 403 denial through with its reason', async () => {
    cloud.script(() => ({ status: 403, json: revokedDeny }));
    expect(await sut.call(path, { token })).toMatchObject({ status: 403, body: { allow: false, reason: 'revoked' } });
  });

  it('passes a 404 not_found denial through', async () => {
    cloud.script(() => ({ status: 404, json: notFound }));
    expect(await sut.call(path, { token })).toMatchObject({ status: 404, body: { allow: false, reason: 'not_found' } });
  });

  it('answers a denial the cloud sent with a non-4xx status as 403', async () => {
    cloud.script(() => ({ status: 200, json: { ...revokedDeny, reason: 'quota_exceeded', status: 'active' } }));
    expect(await sut.call(path, { token })).toMatchObject({ status: 403, body: { allow: false, reason: 'quota_exceeded' } });
  });

  it('answers 503 validation_unavailable when the cloud answers 500', async () => {
    cloud.script(() => ({ status: 500, json: { error: 'internal server error' } }));
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable when the cloud answers non-JSON', async () => {
    cloud.script(() => ({ status: 200, raw: '<html>oops</html>', contentType: 'text/html' }));
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable when the cloud answers truncated JSON', async () => {
    cloud.script(() => ({ status: 200, raw: '{"allow":tr' }));
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable when the cloud allow has the wrong shape', async () => {
    cloud.script(() => ({ status: 200, json: { allow: true } }));
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable when a denial carries a reason outside the spec', async () => {
    cloud.script(() => ({ status: 403, json: { ...revokedDeny, reason: 'because' } }));
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable when the cloud refuses the service signature (401)', async () => {
    cloud.script(() => ({ status: 401, json: { error: 'unauthorized' } }));
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable when the cloud hangs past the timeout', async () => {
    cloud.script(() => ({ hang: true }));
    const started = Date.now();
    expect(await sut.call(path, { token })).toMatchObject(UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('POST /api/checkin specifics', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;

  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET });
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });

  it('answers 503 validation_unavailable for a cloud allow without job_id (spec 3, device gating)', async () => {
    const { token } = await mintToken(fleet);
    const { job_id: _dropped, ...withoutJob } = validateAllow;
    cloud.script(() => ({ status: 200, json: withoutJob }));
    expect(await sut.call('/api/checkin', { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable for a cloud allow with an empty job_id', async () => {
    const { token } = await mintToken(fleet);
    cloud.script(() => ({ status: 200, json: { ...validateAllow, job_id: '' } }));
    expect(await sut.call('/api/checkin', { token })).toMatchObject(UNAVAILABLE);
  });

  it('answers 503 validation_unavailable for a verify-shaped allow (account, no job_id)', async () => {
    const { token } = await mintToken(fleet);
    cloud.script(() => ({ status: 200, json: verifyAllow }));
    expect(await sut.call('/api/checkin', { token })).toMatchObject(UNAVAILABLE);
  });
});

describe('ladder routes when the cloud cannot be reached', () => {
  const fleet = newFleet();

  it('answers 503 validation_unavailable when nothing listens at CLOUD_INTERNAL_URL', async () => {
    const cloud = await startFakeCloud(SECRET);
    await cloud.close();
    const sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET });
    try {
      const { token } = await mintToken(fleet);
      expect(await sut.call('/api/verify', { token })).toMatchObject(UNAVAILABLE);
      expect(await sut.call('/api/checkin', { token })).toMatchObject(UNAVAILABLE);
    } finally {
      await sut.close();
    }
  });

  it('answers 503 validation_unavailable without contacting the cloud when INTERNAL_API_SECRET is unset', async () => {
    const cloud = await startFakeCloud(SECRET);
    const sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: undefined });
    try {
      const { token } = await mintToken(fleet);
      expect(await sut.call('/api/verify', { token })).toMatchObject(UNAVAILABLE);
      expect(await sut.call('/api/checkin', { token })).toMatchObject(UNAVAILABLE);
      expect(cloud.seen).toHaveLength(0);
    } finally {
      await sut.close();
      await cloud.close();
    }
  });
});
