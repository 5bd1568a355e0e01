import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { addUser, reportAsset, signIn, type Browser } from '../web-helpers.js';

/**
 * The web app's search boxes (`?q=` on /devices and /assets): a substring, ignoring case, with
 * `%`, `_` and `\` taken literally, the same on SQLite (whose LIKE ignores ASCII case) and
 * PostgreSQL (whose LIKE does not).
 */
describe('web app search: case-insensitive substrings, wildcards taken literally', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let admin: Browser;
  let staff: Browser;

  beforeEach(async () => {
    cloud = await startCloud();
    account = await cloud.account('Acme Refurb');
    const vendor = await cloud.account('Erasure Ops');
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    await addUser(cloud, vendor.id, 'staff', 'ops@erasure.test');
    admin = await signIn(cloud, 'admin@acme.test');
    staff = await signIn(cloud, 'ops@erasure.test');
  });
  afterEach(() => cloud.close());

  const devices = async (who: Browser, q: string) =>
    ((await who.get(`/app/api/devices?q=${encodeURIComponent(q)}`)).json.devices as { jti: string; user_email: string }[]).map((d) => d.user_email).sort();
  const assets = async (q: string) =>
    ((await admin.get(`/app/api/assets?q=${encodeURIComponent(q)}`)).json.assets as { serial_number: string }[]).map((a) => a.serial_number).sort();

  it('finds devices by email or account name in any case', async () => {
    const ana = await cloud.token(account.id, { userEmail: 'Ana.Lopez@Acme.test' });
    await cloud.token(account.id, { userEmail: 'bo_x@acme.test' });
    await cloud.token((await cloud.account('Other Shop')).id, { userEmail: 'carl@other.test' });

    expect(await devices(admin, 'ana.lopez')).toEqual(['Ana.Lopez@Acme.test']);
    expect(await devices(admin, 'ANA.LOPEZ@ACME')).toEqual(['Ana.Lopez@Acme.test']);
    expect(await devices(staff, 'other shop')).toEqual(['carl@other.test']);
    expect(await devices(staff, 'ACME REFURB')).toEqual(['Ana.Lopez@Acme.test', 'bo_x@acme.test']);
    // An admin's search never leaves the account.
    expect(await devices(admin, 'CARL')).toEqual([]);
    // Wildcards are literal: `_` matches an underscore only, `%` nothing here.
    expect(await devices(admin, '_')).toEqual(['bo_x@acme.test']);
    expect(await devices(admin, '%')).toEqual([]);
    expect(await devices(admin, '\\')).toEqual([]);
    // The jti and the ltok_ id match exactly.
    expect(await devices(admin, ana.jti)).toEqual(['Ana.Lopez@Acme.test']);
    expect(await devices(admin, ana.prefix_id)).toEqual(['Ana.Lopez@Acme.test']);
  });

  it('finds assets by serial, model, manufacturer, CPU or drive serial in any case', async () => {
    const jti = (await cloud.token(account.id)).jti;
    const dell = await reportAsset(cloud, jti, 'CW-20261122-120000', fingerprint('4c4c4544-0042-3510-8051-b4c04f564e32', 'B5QVN32'));
    await reportAsset(
      cloud,
      jti,
      'CW-20261122-120100',
      fingerprint('11111111-2222-3333-4444-555555555555', 'HP_100', {
        system: { manufacturer: 'HP', product: 'EliteBook 840 G5', serial: 'HP_100', uuid: '11111111-2222-3333-4444-555555555555' },
        storage: [{ model: 'WDC PC SN720', serial: 'WD-19A2', size_bytes: 256_060_514_304, media_type: 'SSD', transport: 'NVMe' }],
      }),
    );

    expect(await assets('b5qvn')).toEqual(['B5QVN32']);
    expect(await assets('LATITUDE')).toEqual(['B5QVN32']);
    expect(await assets('dell inc')).toEqual(['B5QVN32']);
    expect(await assets('elitebook')).toEqual(['HP_100']);
    expect(await assets('s4dynx0m')).toEqual(['B5QVN32']);
    expect(await assets('wd-19a2')).toEqual(['HP_100']);
    expect(await assets('i7-8650u')).toEqual(['B5QVN32', 'HP_100']);
    expect(await assets('_')).toEqual(['HP_100']);
    expect(await assets('%')).toEqual([]);
    expect(await assets(dell)).toEqual(['B5QVN32']);
  });
});
