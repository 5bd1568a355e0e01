import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, startCloud, type Cloud } from '../helpers.js';
import { addUser, reportAsset, reportWipe, signIn } from '../web-helpers.js';

describe('/app/api/assets/:id lists the wipes of the machine\u2019s drives', () => {
  let cloud: Cloud;
  let jti: string;
  let assetId: string;
  let accountId: number;

  beforeEach(async () => {
    cloud = await startCloud();
    accountId = (await cloud.account('Acme Refurb')).id;
    jti = (await cloud.token(accountId, { userEmail: 'ana@example.com' })).jti;
    await addUser(cloud, accountId, 'technician', 'tech@acme.test');
    assetId = await reportAsset(cloud, jti, 'CW-20261122-120000', fingerprint());
  });
  afterEach(() => cloud.close());

  const assetWipes = async () => (await (await signIn(cloud, 'tech@acme.test')).get(`/app/api/assets/${assetId}`)).json.wipes as { id: string; serial: string; status: string }[];

  it('each drive wiped in that machine, newest first, with status and certificate cell', async () => {
    const first = await reportWipe(cloud, jti, { job_id: 'job-a-0', completed_at: '2026-11-22T10:12:30Z' });
    const second = await reportWipe(cloud, jti, { job_id: 'job-b-0', completed_at: '2026-11-23T10:12:30Z', wipe_status: 'failed' });
    const wipes = await assetWipes();
    expect(wipes.map((w) => w.id)).toEqual([second, first]);
    expect(wipes[0]).toMatchObject({ serial: 'S4DYNX0M123456', status: 'failed', certificate: { kind: 'not_issued' } });
    expect(wipes[1]).toMatchObject({ status: 'completed', certificate: { kind: 'badge' } });
  });

  it('leaves out wipes of drives that were never in this machine', async () => {
    await reportWipe(cloud, jti, { job_id: 'job-c-0', drive_serial: 'OTHER-DRIVE-1' });
    expect(await assetWipes()).toEqual([]);
  });

  it('leaves out a drive that has since moved to another machine (the grid names that one as its source)', async () => {
    await reportWipe(cloud, jti, { job_id: 'job-d-0' });
    cloud.clock.advance(60_000);
    await reportAsset(cloud, jti, 'CW-20261122-130000', fingerprint('11111111-2222-3333-4444-555555555555', 'OTHERPC'));
    expect(await assetWipes()).toEqual([]);
  });
});
