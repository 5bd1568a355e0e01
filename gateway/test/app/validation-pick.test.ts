import { describe, expect, it } from 'vitest';
import { forwardingGateway } from '../support/forwarding.js';
import { ACCOUNT } from '../support/tokens.js';

// Issue 29 item 5: the validate mode asks, by drive serial, whether the cloud picked a drive and
// what its method left, on a route beyond the spec over the HMAC channel. An answer outside the
// contract never reaches the device as a success: it reads nothing against a guess.
describe('POST /api/validation_pick', () => {
  const gw = forwardingGateway();
  const picked = { picked: true, certificate_number: 'CW-000042', lot_id: 'lot_ab12', wipe_method: 'VSITR (7 passes)', expect: { kind: 'pattern', hex: 'aa' }, validation: null };
  const notPicked = { picked: false, reason: 'Drive SER-1 was erased (certificate CW-000041) but was not picked for validation.' };


  it('is forwarded, signed, to /internal/validations/pick with the token’s jti, account and the serial, and the answer passed through', async () => {
    gw.cloud.script(() => ({ status: 200, json: picked }));
    expect(await gw.sut.call('/api/validation_pick', { token: gw.token, json: { drive_serial: 'SER-2' } })).toMatchObject({ status: 200, body: picked });
    expect(gw.cloud.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /internal/validations/pick']);
    expect(gw.cloud.seen[0]?.json).toEqual({ jti: gw.jti, account_id: ACCOUNT, drive_serial: 'SER-2' });
    expect(gw.cloud.seen[0]?.signatureValid).toBe(true);
  });

  it('passes a "not picked" answer with its reason through', async () => {
    gw.cloud.script(() => ({ status: 200, json: notPicked }));
    expect(await gw.sut.call('/api/validation_pick', { token: gw.token, json: { drive_serial: 'SER-1' } })).toMatchObject({ status: 200, body: notPicked });
  });

  it.each([
    ['no body', undefined],
    ['no serial', {}],
    ['an empty serial', { drive_serial: '' }],
    ['another field', { drive_serial: 'S', certificate_number: 'CW-000001' }],
  ])('refuses %s with 400 and does not ask the cloud', async (_what, json) => {
    gw.cloud.script(() => ({ status: 200, json: picked }));
    expect((await gw.sut.call('/api/validation_pick', { token: gw.token, ...(json ? { json } : {}) })).status).toBe(400);
    expect(gw.cloud.seen).toHaveLength(0);
  });

  it.each([
    ['a picked drive without what its method left', { ...picked, expect: undefined }],
    ['a pattern that is not hex', { ...picked, expect: { kind: 'pattern', hex: 'zz' } }],
    ['an unknown expectation', { ...picked, expect: { kind: 'anything' } }],
    ['a validation that is neither approved nor rejected', { ...picked, validation: 'maybe' }],
    ['not picked without a reason', { picked: false }],
    ['extra fields', { ...picked, also: 1 }],
  ])('answers 502, never 200, when the cloud sends %s', async (_what, garbled) => {
    gw.cloud.script(() => ({ status: 200, json: garbled }));
    expect(await gw.sut.call('/api/validation_pick', { token: gw.token, json: { drive_serial: 'S' } })).toMatchObject({ status: 502, body: { error: 'cloud answered with an invalid body' } });
  });

  it('relays a refused token as "cloud rejected validation pick" with the cloud’s status', async () => {
    gw.cloud.script(() => ({ status: 403, json: { error: 'token revoked' } }));
    expect(await gw.sut.call('/api/validation_pick', { token: gw.token, json: { drive_serial: 'S' } })).toMatchObject({ status: 403, body: { error: 'cloud rejected validation pick: token revoked', status: 403 } });
  });

  it('is 401 without a token, and the cloud is not asked', async () => {
    expect((await gw.sut.call('/api/validation_pick', { json: { drive_serial: 'S' } })).status).toBe(401);
    expect(gw.cloud.seen).toHaveLength(0);
  });
});
