import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetDetail, conforms } from '@erasure/shared';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { reportAsset } from '../web-helpers.js';
import { wornHealth } from '../support/health.js';
import { readWipeResultSource } from '../../src/adapters/db/certificate-sources.js';

const WIPES = '/internal/wipe_results';

// Issue 30 item 6: the health grade carried with the wipe result is stored beside the spec fields.
describe('wipe results with a health grade for resale', () => {
  let cloud: Cloud;
  let jti: string;
  beforeEach(async () => {
    cloud = await startCloud();
    jti = (await cloud.token((await cloud.account()).id)).jti;
  });
  afterEach(() => cloud.close());

  const stored = (jobId: string) =>
    cloud.db.one<{ health_grade: string | null; health_json: string | null }>('SELECT health_grade, health_json FROM wipe_results WHERE job_id = @jobId', { jobId });

  it('stores the grade in its own column and the health object as sent', async () => {
    const jobId = `${await cloud.checkin(jti)}-0`;
    const res = await cloud.post(WIPES, { jti, job_id: jobId, drive_serial: 'WD-WCC4N7ZK1234', health: wornHealth() });
    expect(res.status).toBe(201);
    expect(res.json.certificate_status).toBe('pending');
    const row = await stored(jobId);
    expect(row?.health_grade).toBe('C');
    expect(JSON.parse(row?.health_json ?? 'null')).toEqual(wornHealth());
    // The certificate job reads it back with the record, for the Erasure Report.
    const id = (await cloud.db.one<{ id: number }>('SELECT id FROM wipe_results WHERE job_id = @jobId', { jobId }))!.id;
    expect((await readWipeResultSource(cloud.db, id))?.record.health).toEqual(wornHealth());
  });

  it('a result without health (an older agent) is stored as before, with no grade', async () => {
    const jobId = `${await cloud.checkin(jti)}-0`;
    expect((await cloud.post(WIPES, { jti, job_id: jobId, drive_serial: 'S' })).status).toBe(201);
    expect(await stored(jobId)).toEqual({ health_grade: null, health_json: null });
  });

  it.each([
    ['a grade outside A, B, C and F', { ...wornHealth(), grade: 'E' }],
    ['more than 128 profile regions', { ...wornHealth(), profile_mbps: Array(129).fill(1) }],
    ['a reason longer than 200 characters', { ...wornHealth(), reasons: ['x'.repeat(201)] }],
  ])('answers 422 naming the health field for %s, storing nothing', async (_name, health) => {
    const res = await cloud.post(WIPES, { jti, job_id: `${await cloud.checkin(jti)}-0`, health });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^invalid wipe result at \/health/);
    expect((await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM wipe_results'))!.n).toBe(0);
  });
});

// Issue 30 item 6: the public API has no wipe results (spec 4.3 lists assets); the grade is given
// per erased drive on the asset detail, beside the spec's fields.
describe('the public API asset detail with the health grades of its erased drives', () => {
  let cloud: Cloud;
  beforeEach(async () => {
    cloud = await startCloud();
  });
  afterEach(() => cloud.close());

  it('lists each drive erased from the machine, newest result per drive, with its grade and reasons (null for a drive not graded)', async () => {
    const account = await cloud.account('Acme Refurb');
    const key = (await mintApiKey(cloud, { accountId: account.id, name: 'sync', createdByUserId: null })).apiKey;
    const { jti } = await cloud.token(account.id);
    const fp = fingerprint(undefined, undefined, {
      storage: [
        { model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456', size_bytes: 512_110_190_592 },
        { model: 'WDC WD10EZEX', serial: 'WD-OLDER', size_bytes: 1_000_204_886_016 },
      ],
    });
    const assetId = await reportAsset(cloud, jti, 'CW-20261122-120000', fp);
    const post = async (jobId: string, body: object) => expect((await cloud.post(WIPES, { jti, job_id: jobId, ...body })).status).toBe(201);
    await post('h-1', { drive_serial: 'S4DYNX0M123456', completed_at: '2026-11-22T12:00:00Z', health: { grade: 'F', reasons: ['2 write(s) failed during the erase'] } });
    await post('h-2', { drive_serial: 'S4DYNX0M123456', completed_at: '2026-11-22T13:00:00Z', health: wornHealth() });
    await post('h-3', { drive_serial: 'WD-OLDER', completed_at: '2026-11-22T12:30:00Z' });
    const res = await cloud.app.inject({ method: 'GET', url: `/api/v1/assets/${assetId}`, headers: { authorization: `Bearer ${key}` } });
    const detail = JSON.parse(res.body);
    expect(conforms(AssetDetail, detail)).toBe(true);
    expect(detail.drive_health.map((d: { drive_serial: string; health_grade: string | null; health_reasons: string[] }) => [d.drive_serial, d.health_grade, d.health_reasons])).toEqual([
      ['WD-OLDER', null, []],
      ['S4DYNX0M123456', 'C', wornHealth().reasons],
    ]);
  });
});
