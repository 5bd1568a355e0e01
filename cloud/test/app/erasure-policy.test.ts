import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';
import { runAdmin } from '../../src/cli/admin.js';
import { startCloud, type Cloud } from '../helpers.js';
import { adminAndTechnician, type Browser } from '../web-helpers.js';

// Issue 29 item 2, "Who chooses": the account's erasure policy (admins only, checked against the
// shared schema and catalogue), a device token's own policy overriding it, and the route beyond
// the spec that hands the policy in force to the device.
const A_METHOD = 'nist-800-88-clear';
const ANOTHER_METHOD = 'zeros';
const CONTRACT_METHOD = 'dod-5220.22-m-3';

describe('erasure policy of an account and of a device token', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let admin: Browser;
  let technician: Browser;
  let jti: string;

  beforeEach(async () => {
    cloud = await startCloud();
    account = await cloud.account('Acme Refurb');
    jti = (await cloud.token(account.id)).jti;
    ({ admin, technician } = await adminAndTechnician(cloud, account.id));
  });
  afterEach(() => cloud.close());

  const policy = { default_method: A_METHOD, verification: { sample: 10 }, allowed_methods: [A_METHOD, ANOTHER_METHOD] };
  const devicePolicy = (token = jti) => cloud.post('/internal/tokens/erasure_policy', { jti: token, account_id: account.publicId });

  it('is the built-in default until an admin sets one, and a device gets that default', async () => {
    expect((await technician.get('/app/api/erasure-policy')).json).toMatchObject({ erasure_policy: DEFAULT_ERASURE_POLICY, source: 'default', can_edit: false });
    expect(await devicePolicy()).toMatchObject({ status: 200, json: { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'default' } });
  });

  it('is set by an admin, stored, and handed to the account’s devices', async () => {
    const saved = await admin.send('PUT', '/app/api/erasure-policy', policy);
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ erasure_policy: policy, source: 'account', can_edit: true });
    expect((await technician.get('/app/api/erasure-policy')).json).toMatchObject({ erasure_policy: policy, source: 'account' });
    expect(await devicePolicy()).toMatchObject({ status: 200, json: { erasure_policy: policy, source: 'account' } });
  });

  it('cannot be changed by a technician (403), and nothing is written', async () => {
    const refused = await technician.send('PUT', '/app/api/erasure-policy', policy);
    expect(refused.status).toBe(403);
    expect((await devicePolicy()).json).toMatchObject({ source: 'default' });
  });

  it.each([
    ['an unknown method id', { ...policy, default_method: 'shred-with-fire', allowed_methods: ['shred-with-fire'] }, /unknown erasure method: shred-with-fire/],
    ['a default method not among the allowed ones', { ...policy, allowed_methods: [ANOTHER_METHOD] }, /is not among the allowed methods/],
    ['a sample of 0 per cent', { ...policy, verification: { sample: 0 } }, /from 1 to 100/],
    ['a sample of 101 per cent', { ...policy, verification: { sample: 101 } }, /from 1 to 100/],
    ['no allowed method', { ...policy, allowed_methods: [] }, /allowed/],
    ['an unknown verification level', { ...policy, verification: 'half' }, /verification/],
    ['a body that is not a policy', 'dod', /must be an object/],
  ])('refuses %s with a clear 400 and keeps the stored policy', async (_what, body, message) => {
    await admin.send('PUT', '/app/api/erasure-policy', policy);
    const refused = await admin.send('PUT', '/app/api/erasure-policy', body);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(message);
    expect((await devicePolicy()).json).toMatchObject({ erasure_policy: policy, source: 'account' });
  });

  it('of a token (a customer’s contract) overrides the account’s, and null follows the account again', async () => {
    await admin.send('PUT', '/app/api/erasure-policy', policy);
    const contract = { default_method: CONTRACT_METHOD, verification: 'every-pass', allowed_methods: [CONTRACT_METHOD] };
    const set = await admin.send('PUT', `/app/api/devices/${jti}/erasure-policy`, { erasure_policy: contract });
    expect(set).toMatchObject({ status: 200, json: { erasure_policy: contract, source: 'token' } });
    expect(await devicePolicy()).toMatchObject({ status: 200, json: { erasure_policy: contract, source: 'token' } });
    expect((await admin.get('/app/api/devices')).json.devices[0]).toMatchObject({ jti, erasure_policy: contract });
    // Another token of the account still follows the account's policy.
    const other = (await cloud.token(account.id)).jti;
    expect((await devicePolicy(other)).json).toMatchObject({ erasure_policy: policy, source: 'account' });

    const cleared = await admin.send('PUT', `/app/api/devices/${jti}/erasure-policy`, { erasure_policy: null });
    expect(cleared).toMatchObject({ status: 200, json: { erasure_policy: null, source: 'account' } });
    expect((await devicePolicy()).json).toMatchObject({ erasure_policy: policy, source: 'account' });
  });

  it('of a token is refused when invalid (400), for a technician (403) and for another account’s token (404)', async () => {
    const bad = await admin.send('PUT', `/app/api/devices/${jti}/erasure-policy`, { erasure_policy: { ...policy, verification: { sample: 500 } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/from 1 to 100/);
    expect((await technician.send('PUT', `/app/api/devices/${jti}/erasure-policy`, { erasure_policy: policy })).status).toBe(403);
    const foreign = (await cloud.token((await cloud.account('Other')).id)).jti;
    expect((await admin.send('PUT', `/app/api/devices/${foreign}/erasure-policy`, { erasure_policy: policy })).status).toBe(404);
    expect((await devicePolicy()).json).toMatchObject({ source: 'default' });
  });

  it('is minted onto a token with mint-device-token --erasure-method, and a bad flag mints nothing', async () => {
    const deps = { db: cloud.db, clock: cloud.clock, deviceTokenPrivateKey: Buffer.alloc(32, 7).toString('base64') };
    const minted = (await runAdmin(deps, 'mint-device-token', { account: account.publicId, 'erasure-method': CONTRACT_METHOD, verification: 'sample:25' })) as { jti: string; erasure_policy: unknown };
    const expected = { default_method: CONTRACT_METHOD, verification: { sample: 25 }, allowed_methods: [CONTRACT_METHOD] };
    expect(minted.erasure_policy).toEqual(expected);
    expect((await devicePolicy(minted.jti)).json).toEqual({ erasure_policy: expected, source: 'token' });

    const before = (await admin.get('/app/api/devices')).json.count as number;
    await expect(runAdmin(deps, 'mint-device-token', { account: account.publicId, 'erasure-method': 'shred-with-fire' })).rejects.toThrow(/unknown erasure method/);
    await expect(runAdmin(deps, 'mint-device-token', { account: account.publicId, verification: 'full' })).rejects.toThrow(/--erasure-method/);
    expect((await admin.get('/app/api/devices')).json.count).toBe(before);
  });

  it('is refused to a device whose token is not active (403) or unknown (404)', async () => {
    const revoked = (await cloud.token(account.id, { status: 'revoked' })).jti;
    expect(await devicePolicy(revoked)).toMatchObject({ status: 403, json: { error: 'token revoked' } });
    expect(await devicePolicy('00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, json: { error: 'unknown token' } });
  });
});
