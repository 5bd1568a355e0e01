import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startGateway, type GatewayUnderTest } from '../support/gateway.js';
import { verifyAllow } from '../support/bodies.js';
import { algNoneToken, claims, handSignedEdDsa, hs256WithPublicKey, mintToken, newFleet } from '../support/tokens.js';
import { startFakeCloud, type FakeCloud } from '../support/upstream.js';

const UNAUTHORIZED = { status: 401, body: { error: 'unauthorized' } };
const now = () => Math.floor(Date.now() / 1000);

// Spec 5.1 and spec 7 rows 1 and 2; CONTRACT.md: exp enforced with 60 s leeway.
describe('device token at the gateway', () => {
  const fleet = newFleet();
  const stranger = newFleet();
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
  beforeEach(() => {
    cloud.reset();
    cloud.script(() => ({ status: 200, json: verifyAllow }));
  });

  it('forwards a request carrying a valid token', async () => {
    const { token } = await mintToken(fleet);
    expect(await sut.call('/api/verify', { token })).toMatchObject({ status: 200, body: { allow: true } });
  });

  it('answers 401 when the Authorization header is missing', async () => {
    expect(await sut.call('/api/verify')).toMatchObject(UNAUTHORIZED);
    expect(cloud.seen).toHaveLength(0);
  });

  it.each([
    ['an empty bearer', 'Bearer '],
    ['a bare scheme', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a one-part token', 'Bearer abc'],
    ['a five-part token', 'Bearer a.b.c.d.e'],
    ['base64 noise', 'Bearer eyJub3BlIjp0cnVlfQ.eyJub3BlIjp0cnVlfQ.AAAA'],
    ['an oversized token', `Bearer ${'a'.repeat(6000)}.b.c`],
  ])('answers 401 for a malformed JWS: %s', async (_what, authorization) => {
    expect(await sut.call('/api/verify', { authorization })).toMatchObject(UNAUTHORIZED);
    expect(cloud.seen).toHaveLength(0);
  });

  it('answers 401 for a token signed by another Ed25519 key', async () => {
    const { token } = await mintToken(stranger);
    expect(await sut.call('/api/verify', { token })).toMatchObject(UNAUTHORIZED);
  });

  it('answers 401 for an unsigned alg:none token', async () => {
    expect(await sut.call('/api/verify', { token: algNoneToken(claims()) })).toMatchObject(UNAUTHORIZED);
  });

  it('answers 401 for an HS256 token keyed with the public key bytes', async () => {
    expect(await sut.call('/api/verify', { token: hs256WithPublicKey(fleet, claims()) })).toMatchObject(UNAUTHORIZED);
  });

  it('answers 401 for a token whose signature was tampered with', async () => {
    const { token } = await mintToken(fleet);
    const [head, , signature] = token.split('.');
    const otherClaims = Buffer.from(JSON.stringify(claims({ sub: 'acct_other' }))).toString('base64url');
    const forged = `${head}.${otherClaims}.${signature}`;
    expect(await sut.call('/api/verify', { token: forged })).toMatchObject(UNAUTHORIZED);
  });

  it('answers 401 for a token expired beyond the 60 s leeway', async () => {
    const { token } = await mintToken(fleet, { expiresAt: now() - 120 });
    expect(await sut.call('/api/verify', { token })).toMatchObject(UNAUTHORIZED);
  });

  it('accepts a token expired within the 60 s leeway', async () => {
    const { token } = await mintToken(fleet, { expiresAt: now() - 20 });
    expect((await sut.call('/api/verify', { token })).status).toBe(200);
  });

  it('answers 401 for a token without exp', async () => {
    const token = handSignedEdDsa(fleet.privateKey, claims({ exp: undefined }));
    expect(await sut.call('/api/verify', { token })).toMatchObject(UNAUTHORIZED);
  });

  it('answers 400 invalid_token for a verified token without jti, without calling the cloud', async () => {
    const token = handSignedEdDsa(fleet.privateKey, claims({ jti: undefined }));
    expect(await sut.call('/api/verify', { token })).toMatchObject({ status: 400, body: { allow: false, reason: 'invalid_token' } });
    expect(cloud.seen).toHaveLength(0);
  });

  it('checks the token before the body: an unauthenticated invalid body is 401, not 400', async () => {
    expect(await sut.call('/api/record', { json: { record_id: 7 } })).toMatchObject(UNAUTHORIZED);
    expect(await sut.call('/api/record', { raw: '{"broken' })).toMatchObject(UNAUTHORIZED);
  });

  it('requires the token on diagnostics like every other route', async () => {
    expect(await sut.call('/api/diagnostics', { json: { note: 'hi' } })).toMatchObject(UNAUTHORIZED);
  });

  it.each(['/api/checkin', '/api/record', '/api/notes', '/api/tests', '/api/wipe_result', '/api/chassis_map', '/api/chassis_map/lookup', '/api/certificates/lookup', '/api/validation', '/api/job_details', '/api/job_choices'])(
    'answers 401 on %s without a token',
    async (path) => {
      expect(await sut.call(path, { json: {} })).toMatchObject(UNAUTHORIZED);
    },
  );
});

describe('device token at a gateway without DEVICE_TOKEN_PUBKEY', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;

  beforeAll(async () => {
    cloud = await startFakeCloud(SECRET);
    sut = await startGateway({ cloudUrl: cloud.url, publicKey: undefined, secret: SECRET });
  });
  afterAll(async () => {
    await sut.close();
    await cloud.close();
  });

  it('answers 401 to a token that would otherwise be valid', async () => {
    const { token } = await mintToken(fleet);
    expect(await sut.call('/api/verify', { token })).toMatchObject(UNAUTHORIZED);
    expect(cloud.seen).toHaveLength(0);
  });

  it('still answers health', async () => {
    expect((await sut.call('/api/health', { method: 'GET' })).status).toBe(200);
  });
});
