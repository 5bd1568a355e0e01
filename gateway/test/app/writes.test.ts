import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startGateway, type GatewayUnderTest } from '../support/gateway.js';
import { WRITES, assetAccepted, chassisLookupBody, recordBody } from '../support/bodies.js';
import { ACCOUNT, mintToken, newFleet } from '../support/tokens.js';
import { startFakeCloud, type FakeCloud } from '../support/upstream.js';

// Spec 4.1 write routes, CONTRACT.md route table, spec 7 "cloud rejected a write".
describe.each(WRITES)('POST $path', ({ path, internal, body, status, ok, what }) => {
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

  it(`is forwarded to ${internal}`, async () => {
    cloud.script(() => ({ status, json: ok }));
    await sut.call(path, { token, json: body });
    expect(cloud.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([`POST ${internal}`]);
  });

  it('forwards the device body plus jti and account_id from the token', async () => {
    cloud.script(() => ({ status, json: ok }));
    await sut.call(path, { token, json: body });
    expect(cloud.seen[0]?.json).toEqual({ ...body, jti, account_id: ACCOUNT });
  });

  it('signs exactly the bytes it sends, as application/json', async () => {
    cloud.script(() => ({ status, json: ok }));
    await sut.call(path, { token, json: body });
    const seen = cloud.seen[0];
    expect(seen?.signatureValid).toBe(true);
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['x-service-timestamp']).toMatch(/^\d{1,12}$/);
    expect(seen?.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it(`passes the cloud's ${status} and body through`, async () => {
    cloud.script(() => ({ status, json: ok }));
    expect(await sut.call(path, { token, json: body })).toMatchObject({ status, body: ok });
  });

  it.each([403, 404, 422, 500])('relays a cloud %i as "cloud rejected …" with the status', async (rejected) => {
    cloud.script(() => ({ status: rejected, json: { error: 'token revoked' } }));
    const answer = await sut.call(path, { token, json: body });
    expect(answer.status).toBe(rejected);
    expect(answer.body).toEqual({ error: `cloud rejected ${what}: token revoked`, status: rejected });
  });

  it('relays a rejection without an error text as the bare "cloud rejected …"', async () => {
    cloud.script(() => ({ status: 422, raw: 'nope', contentType: 'text/plain' }));
    expect((await sut.call(path, { token, json: body })).body).toEqual({ error: `cloud rejected ${what}`, status: 422 });
  });

  it('answers 503 "cloud unavailable" when the cloud refuses the service signature', async () => {
    cloud.script(() => ({ status: 401, json: { error: 'unauthorized' } }));
    expect(await sut.call(path, { token, json: body })).toMatchObject({ status: 503, body: { error: 'cloud unavailable' } });
  });

  it('answers 503 "cloud unavailable" when the cloud hangs past the timeout', async () => {
    cloud.script(() => ({ hang: true }));
    expect(await sut.call(path, { token, json: body })).toMatchObject({ status: 503, body: { error: 'cloud unavailable' } });
  });

  it('answers 502 when the cloud acknowledges with a body outside the contract', async () => {
    cloud.script(() => ({ status, json: { ok: 'yes' } }));
    expect(await sut.call(path, { token, json: body })).toMatchObject({ status: 502, body: { error: 'cloud answered with an invalid body' } });
  });

  it('answers 502 when the cloud acknowledges with non-JSON', async () => {
    cloud.script(() => ({ status, raw: 'OK', contentType: 'text/plain' }));
    expect((await sut.call(path, { token, json: body })).status).toBe(502);
  });
});

describe('POST /api/chassis_map/lookup, not found', () => {
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

  it('answers {found:false, map:null} when the cloud answers {found:false}', async () => {
    const { token } = await mintToken(fleet);
    cloud.script(() => ({ status: 200, json: { found: false } }));
    expect(await sut.call('/api/chassis_map/lookup', { token, json: chassisLookupBody })).toMatchObject({
      status: 200,
      body: { found: false, map: null },
    });
  });
});

describe('writes when the cloud cannot be reached', () => {
  const fleet = newFleet();

  it('answers 503 "cloud unavailable" when nothing listens at CLOUD_INTERNAL_URL', async () => {
    const cloud = await startFakeCloud(SECRET);
    await cloud.close();
    const sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET });
    try {
      const { token } = await mintToken(fleet);
      expect(await sut.call('/api/record', { token, json: recordBody })).toMatchObject({ status: 503, body: { error: 'cloud unavailable' } });
    } finally {
      await sut.close();
    }
  });

  it('answers 503 without contacting the cloud when INTERNAL_API_SECRET is unset', async () => {
    const cloud = await startFakeCloud(SECRET);
    cloud.script(() => ({ status: 201, json: assetAccepted }));
    const sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: undefined });
    try {
      const { token } = await mintToken(fleet);
      expect((await sut.call('/api/record', { token, json: recordBody })).status).toBe(503);
      expect(cloud.seen).toHaveLength(0);
    } finally {
      await sut.close();
      await cloud.close();
    }
  });

  it('answers 503 when the gateway signs with a secret the cloud does not share', async () => {
    const cloud = await startFakeCloud(SECRET);
    const sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: 'some-other-secret' });
    try {
      const { token } = await mintToken(fleet);
      expect((await sut.call('/api/record', { token, json: recordBody })).status).toBe(503);
      expect(cloud.seen[0]?.signatureValid).toBe(false);
    } finally {
      await sut.close();
      await cloud.close();
    }
  });
});

// Beyond the spec: the device's body is validated at the edge before anything is forwarded.
describe('POST /api/certificates/lookup, malformed', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;
  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET, timeoutMs: 300 });
    ({ token } = await mintToken(fleet));
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });

  it.each([
    ['more than 64 job ids', { job_ids: Array.from({ length: 65 }, (_, i) => `j-${i}`) }],
    ['an extra field', { job_ids: [], account_id: 'acct_other' }],
  ])('answers 400 for %s and forwards nothing', async (_name, json) => {
    expect((await sut.call('/api/certificates/lookup', { token, json })).status).toBe(400);
    expect(cloud.seen).toEqual([]);
  });
});

// Beyond the spec (issue 29): a validation report is checked at the edge like the other writes.
describe('POST /api/validation, malformed', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;
  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: fleet.publicKey, secret: SECRET, timeoutMs: 300 });
    ({ token } = await mintToken(fleet));
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });

  const valid = { validation_id: 'val-1', certificate_number: 'CW-000001', drive_serial: 'S3TANX0K123456', result: 'approved' };
  it.each([
    ['a result other than approved or rejected', { ...valid, result: 'maybe' }],
    ['no certificate number', { ...valid, certificate_number: undefined }],
    ['an extra field', { ...valid, account_id: 'acct_other' }],
  ])('answers 400 for %s and forwards nothing', async (_name, json) => {
    expect((await sut.call('/api/validation', { token, json })).status).toBe(400);
    expect(cloud.seen).toEqual([]);
  });
});
