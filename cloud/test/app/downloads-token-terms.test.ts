import { afterEach, describe, expect, it } from 'vitest';
import { devicePublicKey, generateDeviceKeyPair, verifyDeviceToken } from '@erasure/shared';
import type { TokenTermsDefaults } from '../../src/domain/devices/token-terms.js';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

/**
 * Issue 20 (2): only account admins mint device tokens on /downloads, and a minted token gets
 * the quota and lifetime of the account's terms: the deployment's finite defaults until an admin
 * chooses, unlimited only when an admin says so.
 */
describe('/downloads: device tokens minted by account admins on the account’s terms', () => {
  const keys = generateDeviceKeyPair();
  let cloud: Cloud;
  afterEach(() => cloud?.close());

  async function start(extra: { tokenDefaults?: TokenTermsDefaults } = {}): Promise<{ admin: Browser; tech: Browser; publicId: string }> {
    cloud = await startCloud({ deps: { deviceTokenPrivateKey: keys.privateKey, ...extra } });
    const account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    await addUser(cloud, account.id, 'technician', 'tech@acme.test');
    return { admin: await signIn(cloud, 'admin@acme.test'), tech: await signIn(cloud, 'tech@acme.test'), publicId: account.publicId };
  }

  /** The form POST the page makes; answers the response and the minted token's row. */
  async function mint(who: Browser, product = 'hotswap') {
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/app/api/downloads/device-token',
      headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `product=${product}&_csrf=${who.csrf}`,
    });
    const jti = res.headers['x-token-jti'] as string | undefined;
    const row = jti
      ? await cloud.db.one<{ user_email: string; product: string; status: string; quota_limit: number | null; expires_at: string }>(
          'SELECT user_email, product, status, quota_limit, expires_at FROM license_tokens WHERE jti = @jti',
          { jti },
        )
      : undefined;
    return { res, jti, row };
  }

  const tokenCount = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM license_tokens'))!.n;
  const daysFromNow = (days: number) => new Date(cloud.clock.now().getTime() + days * 86_400_000).toISOString();

  it('refuses a technician with 403 and mints nothing', async () => {
    const { tech } = await start();
    const { res } = await mint(tech);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'requires the admin role' });
    expect(await tokenCount()).toBe(0);
  });

  it('hands an admin the signed device-token file for the account', async () => {
    const { admin, publicId } = await start();
    const { res, row } = await mint(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="device-token"');
    const check = await verifyDeviceToken(devicePublicKey(keys.publicKey), res.body.trim(), cloud.clock.now());
    expect(check).toMatchObject({ ok: true, sub: publicId, jti: res.headers['x-token-jti'] });
    expect(row).toMatchObject({ user_email: 'admin@acme.test', product: 'hotswap', status: 'active' });
  });

  it('gives a token minted before the account chose terms the finite default: 100 check-ins for 90 days', async () => {
    const { admin } = await start();
    const { row } = await mint(admin);
    expect(row).toMatchObject({ quota_limit: 100, expires_at: daysFromNow(90) });
  });

  it('takes the deployment’s defaults from its configuration', async () => {
    const { admin } = await start({ tokenDefaults: { quotaLimit: 7, lifetimeDays: 14 } });
    expect((await admin.get('/app/api/downloads')).json.token_terms).toEqual({ quota: 7, lifetime_days: 14, source: 'default' });
    expect((await mint(admin)).row).toMatchObject({ quota_limit: 7, expires_at: daysFromNow(14) });
  });

  it('gives a minted token the quota and lifetime the account’s admin set', async () => {
    const { admin } = await start();
    const saved = await admin.send('PUT', '/app/api/downloads/token-settings', { quota: 25, lifetime_days: 30 });
    expect(saved.json).toEqual({ quota: 25, lifetime_days: 30, source: 'account' });
    const { jti, row } = await mint(admin, 'engine');
    expect(row).toMatchObject({ quota_limit: 25, expires_at: daysFromNow(30) });
    // The quota holds at check-in: the 26th is denied.
    for (let i = 0; i < 25; i++) await cloud.checkin(jti!);
    expect((await cloud.post('/internal/tokens/validate', { jti })).json).toMatchObject({ allow: false, reason: 'quota_exceeded' });
  });

  it('mints an unlimited token only after an admin chose "unlimited" explicitly', async () => {
    const { admin } = await start();
    for (const quota of [null, 0, '', 'none']) {
      const refused = await admin.send('PUT', '/app/api/downloads/token-settings', { quota, lifetime_days: 30 });
      expect(refused.status, String(quota)).toBe(422);
      expect(refused.json.error).toMatch(/quota must be a whole number from 1 to 1000000, or "unlimited"/);
    }
    expect((await mint(admin)).row?.quota_limit).toBe(100);
    expect((await admin.send('PUT', '/app/api/downloads/token-settings', { quota: 'unlimited', lifetime_days: 365 })).json).toEqual({ quota: 'unlimited', lifetime_days: 365, source: 'account' });
    expect((await mint(admin)).row).toMatchObject({ quota_limit: null, expires_at: daysFromNow(365) });
  });

  it('refuses a lifetime out of bounds with 422', async () => {
    const { admin } = await start();
    for (const lifetime_days of [0, 366, 3650, '30', null]) {
      const res = await admin.send('PUT', '/app/api/downloads/token-settings', { quota: 10, lifetime_days });
      expect(res.status, String(lifetime_days)).toBe(422);
      expect(res.json.error).toBe('lifetime_days must be a whole number from 1 to 365');
    }
  });

  it('lets only admins change the terms; technicians read them', async () => {
    const { tech } = await start();
    expect((await tech.send('PUT', '/app/api/downloads/token-settings', { quota: 'unlimited', lifetime_days: 365 })).status).toBe(403);
    expect((await tech.get('/app/api/downloads')).json).toMatchObject({ can_mint: false, token_terms: { quota: 100, lifetime_days: 90, source: 'default' } });
  });

  it('keeps each account’s terms to itself', async () => {
    const { admin } = await start();
    await admin.send('PUT', '/app/api/downloads/token-settings', { quota: 'unlimited', lifetime_days: 365 });
    const other = await cloud.account('Other Refurb');
    await addUser(cloud, other.id, 'admin', 'admin@other.test');
    const otherAdmin = await signIn(cloud, 'admin@other.test');
    expect((await mint(otherAdmin)).row).toMatchObject({ quota_limit: 100, expires_at: daysFromNow(90) });
  });

  it('requires the CSRF token to mint', async () => {
    const { admin } = await start();
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/app/api/downloads/device-token',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'product=engine',
    });
    expect(res.statusCode).toBe(403);
    expect(await tokenCount()).toBe(0);
  });

  it('mints a token with its own certificate language when the form names one, and refuses one not offered (422)', async () => {
    const { admin } = await start();
    const language = async (payload: string) => {
      const res = await cloud.app.inject({
        method: 'POST',
        url: '/app/api/downloads/device-token',
        headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${payload}&_csrf=${admin.csrf}`,
      });
      const jti = res.headers['x-token-jti'] as string | undefined;
      return { status: res.statusCode, json: res.statusCode === 200 ? undefined : res.json(), row: jti ? await cloud.db.one('SELECT certificate_language FROM license_tokens WHERE jti = @jti', { jti }) : undefined };
    };
    expect(await language('product=engine&language=de')).toMatchObject({ status: 200, row: { certificate_language: 'de' } });
    expect(await language('product=engine&language=')).toMatchObject({ status: 200, row: { certificate_language: null } });
    expect(await language('product=engine&language=it')).toMatchObject({ status: 422, json: { error: expect.stringMatching(/language must be one of en, de, fr, es/) }, row: undefined });
  });

  it('says minting is unavailable without DEVICE_TOKEN_PRIVATE_KEY', async () => {
    cloud = await startCloud();
    await addUser(cloud, (await cloud.account()).id, 'admin', 'admin@acme.test');
    const admin = await signIn(cloud, 'admin@acme.test');
    expect((await admin.get('/app/api/downloads')).json.minting_available).toBe(false);
    const res = await admin.send('POST', '/app/api/downloads/device-token', { product: 'engine' });
    expect(res.status).toBe(503);
    expect(res.json.error).toMatch(/minting is unavailable/);
  });
});
