import { describe, expect, it } from 'vitest';
import { forwardingGateway } from '../support/forwarding.js';
import { ACCOUNT } from '../support/tokens.js';

// Issue 31 item 6: job details typed or scanned at the kiosk travel on device routes beyond the
// spec, with the same device token and HMAC forward as the rest; the cloud's refusal in plain
// words reaches the kiosk, and an answer outside the contract is never a success.
describe('POST /api/job_details and /api/job_choices', () => {
  const gw = forwardingGateway();
  const details = { record_id: 'CW-20261122-100000', customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' };
  const saved = { ok: true, asset_id: 'asset_ab12', customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' };
  const choices = { free_entry: false, customers: ['Northwind Schools'], lots: ['LOT-2026-11-077'] };


  it('forwards job details, signed, to /internal/assets/job_details with the token’s jti and account, and passes the answer through', async () => {
    gw.cloud.script(() => ({ status: 200, json: saved }));
    expect(await gw.sut.call('/api/job_details', { token: gw.token, json: details })).toMatchObject({ status: 200, body: saved });
    expect(gw.cloud.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /internal/assets/job_details']);
    expect(gw.cloud.seen[0]?.json).toEqual({ jti: gw.jti, account_id: ACCOUNT, ...details });
    expect(gw.cloud.seen[0]?.signatureValid).toBe(true);
  });

  it('forwards a bodiless lists request to /internal/job_choices', async () => {
    gw.cloud.script(() => ({ status: 200, json: choices }));
    expect(await gw.sut.call('/api/job_choices', { token: gw.token })).toMatchObject({ status: 200, body: choices });
    expect(gw.cloud.seen[0]?.url).toBe('/internal/job_choices');
    expect(gw.cloud.seen[0]?.json).toEqual({ jti: gw.jti, account_id: ACCOUNT });
  });

  it('relays the cloud’s refusal in plain words with its 422', async () => {
    const refusal = 'Lot "LOT-NOPE" is not one of this account\'s; pick one from the list, or ask an admin to allow free entry.';
    gw.cloud.script(() => ({ status: 422, json: { error: refusal } }));
    expect(await gw.sut.call('/api/job_details', { token: gw.token, json: { ...details, lot_reference: 'LOT-NOPE' } })).toMatchObject({
      status: 422,
      body: { error: `cloud rejected job details: ${refusal}`, status: 422 },
    });
  });

  it.each([
    ['no record', { lot_reference: 'L' }],
    ['another field', { ...details, lot: 'L' }],
    ['a number for a lot', { ...details, lot_reference: 7 }],
    ['a lot of 1001 characters', { ...details, lot_reference: 'L'.repeat(1001) }],
  ])('refuses %s with 400 and does not ask the cloud', async (_what, json) => {
    gw.cloud.script(() => ({ status: 200, json: saved }));
    expect((await gw.sut.call('/api/job_details', { token: gw.token, json })).status).toBe(400);
    expect(gw.cloud.seen).toHaveLength(0);
  });

  it.each([
    ['saved details without the asset', { ...saved, asset_id: undefined }, '/api/job_details', details],
    ['lists without free_entry', { customers: [], lots: [] }, '/api/job_choices', undefined],
  ])('answers 502, never 200, when the cloud sends %s', async (_what, garbled, path, json) => {
    gw.cloud.script(() => ({ status: 200, json: garbled }));
    expect(await gw.sut.call(path, { token: gw.token, ...(json ? { json } : {}) })).toMatchObject({ status: 502, body: { error: 'cloud answered with an invalid body' } });
  });
});
