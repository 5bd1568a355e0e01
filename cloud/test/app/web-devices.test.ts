import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

describe('/devices: ISO control column and the staff kill switch (spec 3)', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let admin: Browser;
  let staff: Browser;
  let jti: string;

  beforeEach(async () => {
    cloud = await startCloud();
    account = await cloud.account('Acme Refurb');
    const vendor = await cloud.account('Erasure Ops');
    jti = (await cloud.token(account.id, { userEmail: 'ana@acme.test', quota: 10 })).jti;
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    await addUser(cloud, vendor.id, 'staff', 'ops@erasure.test');
    admin = await signIn(cloud, 'admin@acme.test');
    staff = await signIn(cloud, 'ops@erasure.test');
  });
  afterEach(() => cloud.close());

  const control = (who: Browser, action: string, token = jti) => who.send('POST', `/app/api/devices/${token}/controls`, { action });
  const verify = () => cloud.post('/internal/tokens/verify', { jti });

  it('lists the account’s tokens with product, status, quota used and limit, last seen and the admin’s controls', async () => {
    await cloud.token((await cloud.account('Other')).id);
    await verify();
    const res = await admin.get('/app/api/devices');
    expect(res.json).toMatchObject({ scope: 'account', count: 1, page: 1, pages: 1 });
    expect(res.json.devices[0]).toMatchObject({
      jti,
      product: 'engine',
      status: 'active',
      use_count: 0,
      quota_limit: 10,
      quota_remaining: 10,
      last_seen_at: '2026-11-22T12:00:00.000Z',
      user_email: 'ana@acme.test',
      controls: ['suspend', 'revoke'],
    });
  });

  it('suspends, reinstates and revokes; the next internal verify follows at once', async () => {
    expect((await control(admin, 'suspend')).json).toMatchObject({ status: 'suspended', controls: ['reinstate', 'revoke'] });
    expect((await verify()).json).toMatchObject({ allow: false, status: 'suspended', reason: 'suspended' });
    expect((await control(admin, 'reinstate')).json.status).toBe('active');
    expect((await verify()).status).toBe(200);
    expect((await control(admin, 'revoke')).json).toMatchObject({ status: 'revoked', revoked_at: '2026-11-22T12:00:00.000Z' });
    expect((await verify()).json.reason).toBe('revoked');
    expect((await control(admin, 'revoke')).status).toBe(409);
  });

  it('lets staff pull the kill switch on any account’s token, which admins cannot lift', async () => {
    const listed = await staff.get('/app/api/devices');
    expect(listed.json.scope).toBe('all_accounts');
    expect(listed.json.devices.find((d: { jti: string }) => d.jti === jti).controls).toEqual(['disable']);

    expect((await control(staff, 'disable')).json).toMatchObject({ status: 'disabled', controls: ['lift_disable'] });
    expect((await verify()).json).toMatchObject({ allow: false, reason: 'disabled' });
    for (const action of ['reinstate', 'suspend', 'revoke', 'lift_disable']) {
      const res = await control(admin, action);
      expect(res.status, action).toBe(403);
    }
    expect((await control(admin, 'reinstate')).json).toEqual({ error: 'token disabled by staff: only staff can lift the kill switch' });
    expect((await admin.get('/app/api/devices')).json.devices[0]).toMatchObject({ status: 'disabled', controls: [] });
    expect((await verify()).json.reason).toBe('disabled');

    // Lifting leaves the token suspended: the account admin decides whether it works again.
    expect((await control(staff, 'lift_disable')).json.status).toBe('suspended');
    expect((await control(admin, 'reinstate')).json.status).toBe('active');
    expect((await verify()).status).toBe(200);
  });

  it('keeps the ISO controls to admins of the token’s own account', async () => {
    expect((await control(staff, 'suspend')).status).toBe(403);
    await addUser(cloud, account.id, 'technician', 'tech@acme.test');
    const tech = await signIn(cloud, 'tech@acme.test');
    expect((await control(tech, 'suspend')).status).toBe(403);
    expect((await tech.get('/app/api/devices')).json.devices[0].controls).toEqual([]);
    const foreign = (await cloud.token((await cloud.account('Other')).id)).jti;
    expect((await control(admin, 'suspend', foreign)).status).toBe(404);
    expect((await control(admin, 'explode')).status).toBe(422);
  });
});

describe('/api_tokens: API keys minted by account admins (spec 5.3)', () => {
  let cloud: Cloud;
  afterEach(() => cloud.close());

  it('shows a new key once, lists it without the secret, and revokes it for the very next request', async () => {
    cloud = await startCloud();
    const account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    const admin = await signIn(cloud, 'admin@acme.test');
    const minted = await admin.send('POST', '/app/api/api-keys', { name: '  ERP sync  ' });
    expect(minted.status).toBe(201);
    expect(minted.json).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'ERP sync', api_key: expect.stringMatching(/^ek_[\w-]{43}$/) });
    expect(minted.json.key_prefix).toBe(minted.json.api_key.slice(0, 10));
    const stored = await cloud.db.one<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(stored)).not.toContain(minted.json.api_key);

    const listed = await admin.get('/app/api/api-keys');
    expect(listed.json.can_manage).toBe(true);
    expect(listed.text).not.toContain(minted.json.api_key);
    expect(listed.json.keys[0]).toMatchObject({ id: minted.json.id, created_by: 'admin@acme.test', revoked_at: null });

    const api = () => cloud.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${minted.json.api_key}` } });
    expect((await api()).json()).toMatchObject({ user_email: 'admin@acme.test', account_id: account.publicId });
    expect((await admin.get('/app/api/api-keys')).json.keys[0].last_used_at).toBe('2026-11-22T12:00:00.000Z');
    const revoked = await admin.send('POST', `/app/api/api-keys/${minted.json.id}/revoke`);
    expect(revoked.json.revoked_at).toBe('2026-11-22T12:00:00.000Z');
    const after = await api();
    expect(after.statusCode).toBe(401);
    expect(after.body).toBe('');

    const otherAdmin = await cloud.account('Other');
    await addUser(cloud, otherAdmin.id, 'admin', 'admin@other.test');
    const stranger = await signIn(cloud, 'admin@other.test');
    expect((await stranger.send('POST', `/app/api/api-keys/${minted.json.id}/revoke`)).status).toBe(404);
    expect((await stranger.get('/app/api/api-keys')).json.keys).toEqual([]);
  });
});
