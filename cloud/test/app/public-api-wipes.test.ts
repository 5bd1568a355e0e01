import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conforms, PublicWipe, WipePage } from '@erasure/shared';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import { setCertificateStatus } from '../../src/adapters/db/certificates.js';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { reportAsset, reportWipe } from '../web-helpers.js';

/**
 * `GET /api/v1/wipes` and `/api/v1/wipes/{id}` (issue 31 item 5): the assets' shape and sync
 * rules (spec 4.3: `{…, page, pages, count}`, last change first, `since`, `page`), the wipes
 * grid's filters, the same API key, scope and rate limit as the other public routes.
 */
describe('public API: wipes', () => {
  let cloud: Cloud;
  let account: Awaited<ReturnType<Cloud['account']>>;
  let key: string;
  let jti: string;

  beforeEach(async () => {
    cloud = await startCloud({ deps: { publicApiRateLimit: { limit: 1000, windowMs: 60_000 } } });
    account = await cloud.account('Acme Refurb');
    key = (await mintApiKey(cloud, { accountId: account.id, name: 'erp', createdByUserId: null })).apiKey;
    jti = (await cloud.token(account.id, { userEmail: 'ana@acme.test', customer: 'Contoso', lot: 'LOT-7' })).jti;
  });
  afterEach(() => cloud.close());

  const get = async (url: string, apiKey: string | null = key) => {
    const res = await cloud.app.inject({ method: 'GET', url, headers: apiKey === null ? {} : { authorization: `Bearer ${apiKey}` } });
    return { status: res.statusCode, text: res.body, json: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
  };

  it('lists the account’s wipes with their certificates, as the grid shows them, in the contract', async () => {
    const assetId = await reportAsset(cloud, jti, 'CW-20261122-120000', fingerprint());
    cloud.clock.advance(1000);
    const certified = await reportWipe(cloud, jti, { job_id: 'job-a-0' });
    cloud.clock.advance(1000);
    const failed = await reportWipe(cloud, jti, { job_id: 'job-b-0', drive_serial: 'Z1D5K2XX', drive_model: 'ST1000DM003-1CH162', wipe_status: 'failed' });
    const other = await cloud.account('Other');
    await reportWipe(cloud, (await cloud.token(other.id)).jti, { job_id: 'theirs-0' });

    const res = await get('/api/v1/wipes');
    expect(res.status).toBe(200);
    expect(conforms(WipePage, res.json)).toBe(true);
    expect(res.json).toMatchObject({ page: 1, pages: 1, count: 2 });
    expect(res.json.wipes.map((w: { id: string }) => w.id)).toEqual([failed, certified]);
    const number = (await cloud.db.one<{ certificate_number: string; public_id: string }>(
      'SELECT c.certificate_number, c.public_id FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id WHERE w.public_id = @certified',
      { certified },
    ))!;
    expect(res.json.wipes[1]).toEqual({
      id: certified,
      account_id: account.publicId,
      job_id: 'job-a-0',
      drive_serial: 'S4DYNX0M123456',
      drive_model: 'SAMSUNG MZVLB512HAJQ',
      drive_vendor: 'Samsung',
      drive_capacity_gb: 512,
      media_type: 'SSD',
      wipe_method: 'NIST 800-88 R2 Purge',
      passes_completed: null,
      started_at: '2026-11-22T10:00:00Z',
      completed_at: '2026-11-22T10:12:30Z',
      duration_seconds: 750,
      wipe_status: 'completed',
      validation: null,
      source: { kind: 'asset', asset_id: assetId },
      technician: 'ana@acme.test',
      customer: 'Contoso',
      lot_reference: 'LOT-7',
      asset_tag: null,
      certificate: { status: 'pending', id: number.public_id, number: number.certificate_number },
      health_grade: null,
      health_reasons: [],
      created_at: '2026-11-22T12:00:01.000Z',
      updated_at: '2026-11-22T12:00:01.000Z',
    });
    expect(res.json.wipes[0]).toMatchObject({ id: failed, wipe_status: 'failed', certificate: null, source: { kind: 'none' } });

    const one = await get(`/api/v1/wipes/${certified}`);
    expect(one.status).toBe(200);
    expect(conforms(PublicWipe, one.json)).toBe(true);
    expect(one.json).toEqual(res.json.wipes[1]);
    // Another account's wipe and none at all cannot be told apart.
    const theirs = (await cloud.db.one<{ public_id: string }>("SELECT public_id FROM wipe_results WHERE job_id = 'theirs-0'"))!.public_id;
    expect(await get(`/api/v1/wipes/${theirs}`)).toMatchObject({ status: 404, json: { error: 'Wipe not found' } });
    expect(await get('/api/v1/wipes/wr_nope')).toMatchObject({ status: 404, json: { error: 'Wipe not found' } });
  });

  it('syncs as the assets do: since the cursor, a certificate issued moves the wipe, every page read', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      cloud.clock.advance(1000);
      ids.push(await reportWipe(cloud, jti, { job_id: `job-${i}-0`, drive_serial: `SER-${i}` }));
    }
    // Page after page, last change first, every wipe once.
    const first = await get('/api/v1/wipes');
    expect(first.json).toMatchObject({ page: 1, pages: 2, count: 105 });
    const second = await get('/api/v1/wipes?page=2');
    expect([...first.json.wipes, ...second.json.wipes].map((w: { id: string }) => w.id)).toEqual([...ids].reverse());

    // The next run's cursor: this run's start. Since then one wipe arrived and one got its certificate.
    cloud.clock.advance(60_000);
    const cursor = cloud.clock.now().toISOString();
    cloud.clock.advance(1000);
    const fresh = await reportWipe(cloud, jti, { job_id: 'job-new-0' });
    cloud.clock.advance(1000);
    const certificate = (await cloud.db.one<{ id: number }>(
      'SELECT c.id FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id WHERE w.public_id = @id',
      { id: ids[3] },
    ))!;
    await cloud.db.transaction((tx) => setCertificateStatus(tx, certificate.id, 'complete', cloud.clock.now().toISOString()));
    const changed = await get(`/api/v1/wipes?account_id=${account.publicId}&since=${encodeURIComponent(cursor)}`);
    expect(changed.json).toMatchObject({ page: 1, pages: 1, count: 2 });
    expect(changed.json.wipes.map((w: { id: string; certificate: { status: string } }) => [w.id, w.certificate.status])).toEqual([
      [ids[3], 'complete'],
      [fresh, 'pending'],
    ]);
  });

  it('takes the wipes grid’s filters, q included, and refuses a malformed one with 422', async () => {
    await reportWipe(cloud, jti, { job_id: 'job-a-0', drive_serial: 'NEEDLE-1' });
    await reportWipe(cloud, jti, { job_id: 'job-b-0', drive_serial: 'HAY-1', wipe_status: 'failed' });
    await reportWipe(cloud, (await cloud.token(account.id, { customer: 'Northwind' })).jti, { job_id: 'job-c-0', drive_serial: 'HAY-2' });
    const serials = async (query: string) => (await get(`/api/v1/wipes?${query}`)).json.wipes.map((w: { drive_serial: string }) => w.drive_serial);
    expect(await serials('q=needle')).toEqual(['NEEDLE-1']);
    expect(await serials('status=failed')).toEqual(['HAY-1']);
    expect(await serials('customer=Northwind')).toEqual(['HAY-2']);
    expect(await serials('customer=Contoso&status=completed&from=2026-11-22&to=2026-11-22')).toEqual(['NEEDLE-1']);
    expect(await serials('from=2026-11-23')).toEqual([]);
    expect(await get('/api/v1/wipes?status=shredded')).toMatchObject({ status: 422, json: { error: 'status must be one of completed, failed, cancelled' } });
    expect(await get('/api/v1/wipes?since=yesterday')).toMatchObject({ status: 422, json: { error: 'since must be an ISO 8601 timestamp, for example 2026-11-22T13:07:12Z' } });
    expect(await get('/api/v1/wipes?page=0')).toMatchObject({ status: 422, json: { error: 'page must be a positive integer' } });
    expect(await get('/api/v1/wipes?account_id=acct_someone_else')).toMatchObject({ status: 404, json: { error: 'Account not found' } });
  });

  it('needs a live API key (401, empty body) and counts against its rate limit, as the other public routes', async () => {
    for (const url of ['/api/v1/wipes', '/api/v1/wipes/wr_x']) {
      const res = await get(url, null);
      expect([res.status, res.text], url).toEqual([401, '']);
    }
    const limited = await startCloud({ deps: { publicApiRateLimit: { limit: 2, windowMs: 60_000 } } });
    try {
      const other = await limited.account('Limited');
      const limitedKey = (await mintApiKey(limited, { accountId: other.id, name: 'erp', createdByUserId: null })).apiKey;
      const call = () => limited.app.inject({ method: 'GET', url: '/api/v1/wipes', headers: { authorization: `Bearer ${limitedKey}` } });
      expect((await call()).headers['ratelimit-limit']).toBe('2');
      expect((await call()).statusCode).toBe(200);
      const third = await call();
      expect(third.statusCode).toBe(429);
      expect(JSON.parse(third.body)).toEqual({ error: 'rate limit exceeded' });
    } finally {
      await limited.close();
    }
  });
});
