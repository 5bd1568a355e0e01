import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetDetail, AssetPage, AccountList, Me, conforms, newId } from '@erasure/shared';
import { mintApiKey, revokeKey } from '../../src/adapters/db/api-key-issuance.js';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { reportAsset } from '../web-helpers.js';

describe('public API /api/v1 (spec 4.3, 5.3, 7)', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let key: string;
  let jti: string;

  beforeEach(async () => {
    cloud = await startCloud();
    account = await cloud.account('Acme Refurb');
    key = (await mintApiKey(cloud, { accountId: account.id, name: 'sync', createdByUserId: null })).apiKey;
    jti = (await cloud.token(account.id, { userEmail: 'ana@example.com' })).jti;
  });
  afterEach(() => cloud.close());

  const get = async (url: string, headers: Record<string, string> = {}, apiKey: string | null = key) => {
    const res = await cloud.app.inject({
      method: 'GET',
      url,
      headers: { ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }), ...headers },
    });
    return { status: res.statusCode, text: res.body, json: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
  };

  /** Inserts assets straight into the table: fast, with chosen updated_at values. */
  async function insertAssets(accountId: number, count: number, updatedAt: (i: number) => string) {
    const ids: string[] = [];
    await cloud.db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        const id = newId('asset');
        const at = updatedAt(i);
        await tx.run(
          `INSERT INTO assets (public_id, account_id, hardware_uid, record_id, fingerprint, serial_number, first_seen_at,
                               last_booted_at, audited_at, updated_at)
           VALUES (@id, @accountId, @uid, 'CW-20261122-120000', '{}', @serial, @at, @at, @at, @at)`,
          { id, accountId, uid: `uid-${accountId}-${i}`, serial: `SN${i}`, at },
        );
        ids.push(id);
      }
    });
    return ids;
  }

  it('answers 401 with an empty body for a missing, malformed, unknown or revoked key', async () => {
    const forged = `ek_${'A'.repeat(43)}`;
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer' }, { authorization: `Basic ${key}` }, { authorization: `Bearer ${forged}` }];
    for (const headers of variants) {
      for (const url of ['/api/v1/assets', '/api/v1/assets/asset_x', '/api/v1/accounts', '/api/v1/me']) {
        const res = await get(url, headers, null);
        expect(res.status, url).toBe(401);
        expect(res.text, url).toBe('');
      }
    }
  });

  it('fails the very next request after revocation, and every one after it', async () => {
    const minted = await mintApiKey(cloud, { accountId: account.id, name: 'ci', createdByUserId: null });
    expect((await get('/api/v1/me', {}, minted.apiKey)).status).toBe(200);
    await revokeKey(cloud, minted.row.public_id);
    for (let i = 0; i < 3; i++) {
      const res = await get('/api/v1/assets', {}, minted.apiKey);
      expect(res.status).toBe(401);
      expect(res.text).toBe('');
    }
    expect((await get('/api/v1/me')).status).toBe(200);
  });

  it('lists every summary field of spec 2 from the promoted columns, typed as the contract says', async () => {
    const fp = fingerprint(undefined, undefined, {
      system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32', uuid: '4c4c4544-0042-3510-8051-b4c04f564e32', asset_tag: 'TAG-7' },
      firmware: { mode: 'UEFI', secure_boot: true },
      tpm: { version: '2.0' },
      bios: { version: '1.21.0' },
    });
    const assetId = await reportAsset(cloud, jti, 'CW-20261122-120000', fp);
    await cloud.post('/internal/assets/notes', { jti, record_id: 'CW-20261122-120000', notes: 'Hinge cracked' });
    await cloud.post('/internal/assets/tests', { jti, record_id: 'CW-20261122-120000', tests: { keyboard: { status: 'passed' } } });
    const res = await get('/api/v1/assets');
    expect(res.status).toBe(200);
    expect(conforms(AssetPage, res.json)).toBe(true);
    expect(res.json).toMatchObject({ page: 1, pages: 1, count: 1 });
    expect(res.json.assets[0]).toEqual({
      id: assetId,
      account_id: account.publicId,
      record_id: 'CW-20261122-120000',
      manufacturer: 'Dell Inc.',
      model: 'Latitude 7490',
      serial_number: 'B5QVN32',
      asset_tag: 'TAG-7',
      cpu_model: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz',
      memory_total_bytes: 17_179_869_184,
      storage_summary: '512 GB NVMe SSD SAMSUNG MZVLB512HAJQ',
      storage_serials: 'S4DYNX0M123456',
      battery_health_pct: 81,
      tpm_version: '2.0',
      firmware_mode: 'UEFI',
      secure_boot: true,
      bios_version: '1.21.0',
      engine_version: '1.4.0',
      technician: 'ana@example.com',
      notes: 'Hinge cracked',
      test_results: { keyboard: { status: 'passed' } },
      first_seen_at: '2026-11-22T12:00:00.000Z',
      audited_at: '2026-11-22T12:00:00.000Z',
      updated_at: '2026-11-22T12:00:00.000Z',
    });
    const detail = await get(`/api/v1/assets/${assetId}`);
    expect(conforms(AssetDetail, detail.json)).toBe(true);
    expect(detail.json).toEqual({ ...res.json.assets[0], fingerprint: fp, drive_health: [] });
  });

  it('reads secure_boot 0 as false, absent as null, and test_results {} when no tests ran', async () => {
    const off = await reportAsset(cloud, jti, 'CW-20261122-120000', fingerprint('u-1', 'S-1', { firmware: { secure_boot: false } }));
    const none = await reportAsset(cloud, jti, 'CW-20261122-120001', fingerprint('u-2', 'S-2'));
    const byId = Object.fromEntries((await get('/api/v1/assets')).json.assets.map((a: any) => [a.id, a]));
    expect(byId[off]).toMatchObject({ secure_boot: false, test_results: {} });
    expect(byId[none]).toMatchObject({ secure_boot: null, notes: null, asset_tag: null });
  });

  it('pages through 250 assets newest first, every id exactly once, ties broken by id', async () => {
    // Groups of ten share an updated_at, so the order depends on the id tie-breaker too.
    const ids = await insertAssets(account.id, 250, (i) => new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 10) * 60_000).toISOString());
    const seen: string[] = [];
    let pages = 0;
    for (let page = 1; ; page++) {
      const res = await get(`/api/v1/assets?page=${page}`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ page, pages: 3, count: 250 });
      seen.push(...res.json.assets.map((a: { id: string }) => a.id));
      pages = res.json.pages;
      if (page >= pages) break;
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(new Set(ids));
    const all = (await Promise.all([1, 2, 3].map((p) => get(`/api/v1/assets?page=${p}`)))).flatMap((r) => r.json.assets);
    for (let i = 1; i < all.length; i++) {
      expect(all[i - 1].updated_at >= all[i].updated_at).toBe(true);
    }
    expect((await get('/api/v1/assets?page=4')).json).toEqual({ assets: [], page: 4, pages: 3, count: 250 });
  });

  it('filters on since (at or after updated_at) in any ISO 8601 form, and on exact serial', async () => {
    await insertAssets(account.id, 5, (i) => `2026-11-2${i}T12:00:00.000Z`);
    const count = async (query: string) => (await get(`/api/v1/assets?${query}`)).json.count;
    expect(await count('since=2026-11-22T12:00:00Z')).toBe(3);
    expect(await count('since=2026-11-22T12:00:00.001Z')).toBe(2);
    expect(await count(`since=${encodeURIComponent('2026-11-22T14:00:00+02:00')}`)).toBe(3);
    expect(await count('since=2026-11-23')).toBe(2);
    expect(await count('since=2026-11-22T12:00:00.0001Z')).toBe(2);
    expect(await count('serial=SN3')).toBe(1);
    expect(await count('serial=sn3')).toBe(0);
    expect(await count('serial=SN3&since=2026-11-24T00:00:00Z')).toBe(0);
  });

  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-02-30', '2026-11-22T25:00:00Z', '1700000000', ''])(
    'answers 422 naming since, asking for ISO 8601 with an example, for since=%s',
    async (since) => {
      const res = await get(`/api/v1/assets?since=${encodeURIComponent(since)}`);
      if (since === '') return expect(res.status).toBe(422);
      expect(res.status).toBe(422);
      expect(Object.keys(res.json)).toEqual(['error']);
      expect(res.json.error).toMatch(/since/);
      expect(res.json.error).toMatch(/ISO 8601/);
      expect(res.json.error).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/);
    },
  );

  it('answers 422 for a page that is not a positive integer', async () => {
    for (const page of ['0', '-1', 'two', '1.5']) {
      const res = await get(`/api/v1/assets?page=${page}`);
      expect(res.status, page).toBe(422);
      expect(res.json).toEqual({ error: 'page must be a positive integer' });
    }
  });

  it('never widens scope: account_id of its own account (acct_ or numeric) passes, any other is 404', async () => {
    const other = await cloud.account('Other Refurb');
    await insertAssets(account.id, 2, () => '2026-11-22T12:00:00.000Z');
    await insertAssets(other.id, 3, () => '2026-11-22T12:00:00.000Z');
    expect((await get(`/api/v1/assets?account_id=${account.publicId}`)).json.count).toBe(2);
    expect((await get(`/api/v1/assets?account_id=${account.id}`)).json.count).toBe(2);
    expect((await get('/api/v1/assets')).json.count).toBe(2);
    for (const ref of [other.publicId, String(other.id), 'acct_nope', '999999', `${account.id}.0`]) {
      const res = await get(`/api/v1/assets?account_id=${encodeURIComponent(ref)}`);
      expect(res.status, ref).toBe(404);
      expect(res.json).toEqual({ error: 'Account not found' });
    }
  });

  it('answers the same 404 Asset not found for an unknown id and for another account’s asset', async () => {
    const other = await cloud.account('Other Refurb');
    const [theirs] = await insertAssets(other.id, 1, () => '2026-11-22T12:00:00.000Z');
    const unknown = await get('/api/v1/assets/asset_00000000000000000000');
    const foreign = await get(`/api/v1/assets/${theirs}`);
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    expect(foreign.json).toEqual({ error: 'Asset not found' });
  });

  it('answers 304 Not Modified for an unchanged page given its ETag, and a new ETag after a change', async () => {
    await reportAsset(cloud, jti, 'CW-20261122-120000');
    const first = await get('/api/v1/assets');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/api/v1/assets', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    cloud.clock.advance(60_000);
    await cloud.post('/internal/assets/notes', { jti, record_id: 'CW-20261122-120000', notes: 'new' });
    const changed = await get('/api/v1/assets', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const id = changed.json.assets[0].id;
    const detail = await get(`/api/v1/assets/${id}`);
    expect((await get(`/api/v1/assets/${id}`, { 'if-none-match': String(detail.headers.etag) })).status).toBe(304);
  });

  it('returns exactly the key’s one account, and /me names the key and its account', async () => {
    await cloud.account('Other Refurb');
    const accounts = await get('/api/v1/accounts');
    expect(conforms(AccountList, accounts.json)).toBe(true);
    expect(accounts.json).toEqual({
      accounts: [
        {
          id: account.publicId,
          numeric_id: account.id,
          name: 'Acme Refurb',
          active: true,
          subscription_status: 'active',
          current_period_end: null,
          created_at: '2026-11-22T12:00:00.000Z',
        },
      ],
      page: 1,
      pages: 1,
      count: 1,
    });
    const me = await get('/api/v1/me');
    expect(conforms(Me, me.json)).toBe(true);
    expect(me.json).toMatchObject({ account_id: account.publicId, account_name: 'Acme Refurb', api_key: { name: 'sync' }, user_email: null });
  });
});

describe('public API rate limit', () => {
  let cloud: Cloud;
  afterEach(() => cloud.close());

  it('counts per key in a fixed window with RateLimit-* headers, then 429 with Retry-After', async () => {
    cloud = await startCloud({ deps: { publicApiRateLimit: { limit: 3, windowMs: 60_000 } } });
    const account = await cloud.account();
    const a = (await mintApiKey(cloud, { accountId: account.id, createdByUserId: null })).apiKey;
    const b = (await mintApiKey(cloud, { accountId: account.id, createdByUserId: null })).apiKey;
    const call = (key: string) => cloud.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(a);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-reset']).toBe('60');
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await call(a);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toEqual({ error: 'rate limit exceeded' });
    expect((await call(b)).statusCode).toBe(200);
    cloud.clock.advance(60_000);
    expect((await call(a)).statusCode).toBe(200);
  });

  it('defaults to 600 requests a minute', async () => {
    cloud = await startCloud();
    const key = (await mintApiKey(cloud, { accountId: (await cloud.account()).id, createdByUserId: null })).apiKey;
    const res = await cloud.app.inject({ method: 'GET', url: '/api/v1/accounts', headers: { authorization: `Bearer ${key}` } });
    expect(res.headers['ratelimit-limit']).toBe('600');
    expect(res.headers['ratelimit-remaining']).toBe('599');
  });
});
