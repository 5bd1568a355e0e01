import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startGateway, type GatewayUnderTest } from '../support/gateway.js';
import { ACCOUNT, mintToken, newFleet } from '../support/tokens.js';
import { startFakeCloud, type FakeCloud } from '../support/upstream.js';

// Issue 29 item 5: the validate mode asks, by drive serial, whether the cloud picked a drive and
// what its method left, on a route beyond the spec over the HMAC channel. An answer outside the
// contract never reaches the device as a success: it reads nothing against a guess.
describe('POST /api/validation_pick', () => {
  const fleet = newFleet();
  let cloud: FakeCloud;
  let sut: GatewayUnderTest;
  let token: string;
  let jti: string;
  const picked = { picked: true, certificate_number: 'CW-000042', lot_id: 'lot_ab12', wipe_method: 'VSITR (7 passes)', expect: { kind: 'pattern', hex: 'aa' }, validation: null };
  const notPicked = { picked: false, reason: 'Drive SER-1 was erased (certificate CW-000041) but was not picked for validation.' };

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

  it('is forwarded, signed, to /internal/validations/pick with the token’s jti, account and the serial, and the answer passed through', async () => {
    cloud.script(() => ({ status: 200, json: picked }));
    expect(await sut.call('/api/validation_pick', { token, json: { drive_serial: 'SER-2' } })).toMatchObject({ status: 200, body: picked });
    expect(cloud.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /internal/validations/pick']);
    expect(cloud.seen[0]?.json).toEqual({ jti, account_id: ACCOUNT, drive_serial: 'SER-2' });
    expect(cloud.seen[0]?.signatureValid).toBe(true);
  });

  it('passes a "not picked" answer with its reason through', async () => {
    cloud.script(() => ({ status: 200, json: notPicked }));
    expect(await sut.call('/api/validation_pick', { token, json: { drive_serial: 'SER-1' } })).toMatchObject({ status: 200, body: notPicked });
  });

  it.each([
    ['no body', undefined],
    ['no serial', {}],
    ['an empty serial', { drive_serial: '' }],
    ['another field', { drive_serial: 'S', certificate_number: 'CW-000001' }],
  ])('refuses %s with 400 and does not ask the cloud', async (_what, json) => {
    cloud.script(() => ({ status: 200, json: picked }));
    expect((await sut.call('/api/validation_pick', { token, ...(json ? { json } : {}) })).status).toBe(400);
    expect(cloud.seen).toHaveLength(0);
  });

  it.each([
    ['a picked drive without what its method left', { ...picked, expect: undefined }],
    ['a pattern that is not hex', { ...picked, expect: { kind: 'pattern', hex: 'zz' } }],
    ['an unknown expectation', { ...picked, expect: { kind: 'anything' } }],
    ['a validation that is neither approved nor rejected', { ...picked, validation: 'maybe' }],
    ['not picked without a reason', { picked: false }],
    ['extra fields', { ...picked, also: 1 }],
  ])('answers 502, never 200, when the cloud sends %s', async (_what, garbled) => {
    cloud.script(() => ({ status: 200, json: garbled }));
    expect(await sut.call('/api/validation_pick', { token, json: { drive_serial: 'S' } })).toMatchObject({ status: 502, body: { error: 'cloud answered with an invalid body' } });
  });

  it('relays a refused token as "cloud rejected validation pick" with the cloud’s status', async () => {
    cloud.script(() => ({ status: 403, json: { error: 'token revoked' } }));
    expect(await sut.call('/api/validation_pick', { token, json: { drive_serial: 'S' } })).toMatchObject({ status: 403, body: { error: 'cloud rejected validation pick: token revoked', status: 403 } });
  });

  it('is 401 without a token, and the cloud is not asked', async () => {
    expect((await sut.call('/api/validation_pick', { json: { drive_serial: 'S' } })).status).toBe(401);
    expect(cloud.seen).toHaveLength(0);
  });
});
