import { describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY, DEFAULT_HEALTH_GRADING } from '@erasure/shared';
import { forwardingGateway } from '../support/forwarding.js';
import { ACCOUNT } from '../support/tokens.js';

// Issue 29 item 2: the erasure policy reaches the device through the gateway, on a route beyond
// the spec (docs/integrator.md), over the HMAC channel like every forwarded call. A policy the
// contract does not describe never reaches the device as a success: the device erases nothing.
describe('POST /api/erasure_policy', () => {
  const gw = forwardingGateway();
  const granted = { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account' };


  it('is forwarded, signed, to /internal/tokens/erasure_policy with the token’s jti and account, and the policy passed through', async () => {
    gw.cloud.script(() => ({ status: 200, json: granted }));
    const answer = await gw.sut.call('/api/erasure_policy', { token: gw.token });
    expect(answer).toMatchObject({ status: 200, body: granted });
    expect(gw.cloud.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /internal/tokens/erasure_policy']);
    expect(gw.cloud.seen[0]?.json).toEqual({ jti: gw.jti, account_id: ACCOUNT });
    expect(gw.cloud.seen[0]?.signatureValid).toBe(true);
  });

  // Issue 30 item 1: the account's ATA master passwords travel with the policy, and only there.
  it('passes the account’s ATA master passwords through with the policy, and never writes them to its log', async () => {
    const withMasters = { ...granted, ata_master_passwords: { passwords: ['Fleet-Master-2019', 'x'.repeat(32)], factory_defaults: true } };
    gw.cloud.script(() => ({ status: 200, json: withMasters }));
    expect(await gw.sut.call('/api/erasure_policy', { token: gw.token })).toMatchObject({ status: 200, body: withMasters });
    expect(JSON.stringify(gw.sut.logLines())).not.toContain('Fleet-Master-2019');
  });

  it.each([
    ['a master password longer than the ATA limit of 32 characters', { passwords: ['y'.repeat(33)], factory_defaults: false }],
    ['an empty master password', { passwords: [''], factory_defaults: false }],
    ['no factory-defaults answer', { passwords: ['Fleet-Master-2019'] }],
    ['17 master passwords', { passwords: Array.from({ length: 17 }, (_, i) => `pw-${i}`), factory_defaults: false }],
  ])('answers 502 when the cloud sends %s, and the password is not in the log', async (_what, masters) => {
    gw.cloud.script(() => ({ status: 200, json: { ...granted, ata_master_passwords: masters } }));
    expect(await gw.sut.call('/api/erasure_policy', { token: gw.token })).toMatchObject({ status: 502 });
    const log = JSON.stringify(gw.sut.logLines());
    for (const p of masters.passwords) if (p.length > 0) expect(log).not.toContain(p);
  });

  // Issue 30 item 6: the account's health grade table and self-test switch travel with the policy.
  it('passes the account’s health grade table through with the policy', async () => {
    const withGrading = { ...granted, health_grading: { ...DEFAULT_HEALTH_GRADING, smart_self_test: true } };
    gw.cloud.script(() => ({ status: 200, json: withGrading }));
    expect(await gw.sut.call('/api/erasure_policy', { token: gw.token })).toMatchObject({ status: 200, body: withGrading });
  });

  it.each([
    ['a rule of an unknown metric', { rules: [{ metric: 'temperature', grade: 'C', at_least: 60 }], smart_self_test: false }],
    ['a grade A rule', { rules: [{ metric: 'crc_errors', grade: 'A', at_least: 1 }], smart_self_test: false }],
    ['a threshold that is not a whole number', { rules: [{ metric: 'crc_errors', grade: 'B', at_least: 0.5 }], smart_self_test: false }],
    ['a rule with a field the contract does not know', { rules: [{ metric: 'crc_errors', grade: 'B', at_least: 1, weight: 2 }], smart_self_test: false }],
    ['no self-test answer', { rules: [] }],
  ])('answers 502 when the cloud sends a garbled health grade table (%s): the device reads no policy against it', async (_what, grading) => {
    gw.cloud.script(() => ({ status: 200, json: { ...granted, health_grading: grading } }));
    expect(await gw.sut.call('/api/erasure_policy', { token: gw.token })).toMatchObject({ status: 502 });
  });

  it('takes no body beyond an empty object', async () => {
    gw.cloud.script(() => ({ status: 200, json: granted }));
    expect((await gw.sut.call('/api/erasure_policy', { token: gw.token, json: { erasure_policy: granted.erasure_policy } })).status).toBe(400);
    expect(gw.cloud.seen).toHaveLength(0);
  });

  it.each([
    ['a policy without allowed methods', { erasure_policy: { default_method: DEFAULT_ERASURE_POLICY.default_method, verification: 'full' }, source: 'account' }],
    ['a sample outside 1..100', { erasure_policy: { ...DEFAULT_ERASURE_POLICY, verification: { sample: 400 } }, source: 'account' }],
    ['an unknown source', { ...granted, source: 'somebody' }],
    ['extra fields', { ...granted, also: 1 }],
  ])('answers 502, never 200, when the cloud sends %s', async (_what, garbled) => {
    gw.cloud.script(() => ({ status: 200, json: garbled }));
    expect(await gw.sut.call('/api/erasure_policy', { token: gw.token })).toMatchObject({ status: 502, body: { error: 'cloud answered with an invalid body' } });
  });

  it('relays a refused token as "cloud rejected erasure policy" with the cloud’s status', async () => {
    gw.cloud.script(() => ({ status: 403, json: { error: 'token revoked' } }));
    expect(await gw.sut.call('/api/erasure_policy', { token: gw.token })).toMatchObject({ status: 403, body: { error: 'cloud rejected erasure policy: token revoked', status: 403 } });
  });

  it('is 401 without a token, and the cloud is not asked', async () => {
    expect((await gw.sut.call('/api/erasure_policy')).status).toBe(401);
    expect(gw.cloud.seen).toHaveLength(0);
  });
});
