import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, startCloud, type Cloud } from '../helpers.js';
import { freshSigner } from '../support/fresh-signer.js';
import { NOT_ISSUED_REASON } from '../../src/domain/device/issued-job.js';

const WIPES = '/internal/wipe_results';

const record = (jobId: string, extra: object = {}) => ({
  job_id: jobId,
  drive_serial: 'S4DYNX0M123456',
  drive_model: 'SAMSUNG MZVLB512HAJQ',
  drive_capacity_gb: 512,
  wipe_method: 'NIST 800-88 R2 Purge',
  passes_completed: null,
  started_at: '2026-11-22T12:01:00Z',
  completed_at: '2026-11-22T12:03:10Z',
  verification_hash: 'a'.repeat(64),
  technique: 'NVMe Sanitize (Crypto Erase)',
  disposition: 'sanitized',
  markings_removed: true,
  tool_components: 'nvme-cli 2.8',
  verification_result: 'Verified: 1% sampled, all zero after crypto erase',
  ...extra,
});

describe('wipe results (spec 4.2 rules 3-4)', () => {
  let cloud: Cloud;
  let jti: string;
  beforeEach(async () => {
    cloud = await startCloud();
    jti = (await cloud.token((await cloud.account()).id)).jti;
  });
  afterEach(() => cloud.close());

  const jobs = () => cloud.db.many('SELECT kind, status FROM jobs');
  const wipeCount = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM wipe_results'))!.n;

  it('stores a certifiable first receipt: 201 with certificate_status pending and a durable certificate job', async () => {
    const res = await cloud.post(WIPES, { jti, ...record(`${await cloud.checkin(jti)}-0`) });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ ok: true, wipe_result_id: expect.stringMatching(/^wr_[0-9a-z]{20}$/), certificate_status: 'pending' });
    expect(await jobs()).toEqual([{ kind: 'certificate', status: 'pending' }]);
  });

  it('reads an absent wipe_status and validation as completed and approved: certifiable', async () => {
    const res = await cloud.post(WIPES, { jti, job_id: `${await cloud.checkin(jti)}-0` });
    expect(res.json.certificate_status).toBe('pending');
  });

  it.each([
    ['failed', { wipe_status: 'failed' }],
    ['cancelled', { wipe_status: 'cancelled' }],
    ['rejected by validation', { validation: 'rejected' }],
  ])('stores a %s result but never certifies it', async (_name, extra) => {
    const res = await cloud.post(WIPES, { jti, ...record(`${await cloud.checkin(jti)}-0`, extra) });
    expect(res.status).toBe(201);
    expect(res.json.certificate_status).toBeNull();
    expect(await jobs()).toEqual([]);
    expect(await wipeCount()).toBe(1);
  });

  it('answers a duplicate job_id 200 with the existing record, creating nothing', async () => {
    const jobId = `${await cloud.checkin(jti)}-0`;
    const first = await cloud.post(WIPES, { jti, ...record(jobId) });
    const again = await cloud.post(WIPES, { jti, ...record(jobId, { drive_serial: 'CHANGED' }) });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect((await cloud.db.many<{ drive_serial: string }>('SELECT drive_serial FROM wipe_results')).map((r) => r.drive_serial)).toEqual(['S4DYNX0M123456']);
    expect(await jobs()).toHaveLength(1);
  });

  it('consumes no quota', async () => {
    const token = await cloud.token((await cloud.account('Metered')).id, { quota: 1 });
    await cloud.post(WIPES, { jti: token.jti, ...record('q-0') });
    expect((await cloud.db.one<{ use_count: number }>('SELECT use_count FROM license_tokens WHERE jti = @jti', { jti: token.jti }))!.use_count).toBe(0);
  });

  it.each([
    ['missing', {}],
    ['blank', { job_id: '   ' }],
    ['not a string', { job_id: 42 }],
  ])('answers 422 missing job_id when job_id is %s', async (_name, body) => {
    const res = await cloud.post(WIPES, { jti, drive_serial: 'S', ...body });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: 'missing job_id' });
  });

  it('answers 422 naming the field for a wrongly typed field', async () => {
    const res = await cloud.post(WIPES, { jti, ...record('t-0', { drive_capacity_gb: '512 GB' }) });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^invalid wipe result at \/drive_capacity_gb/);
  });

  it('creates exactly one record for 20 parallel duplicates of one job_id over real HTTP', async () => {
    const base = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
    const payload = JSON.stringify({ jti, ...record(`${await cloud.checkin(jti)}-0`) });
    // 20 resends through the gateway: each signed afresh (the cloud accepts a signature once).
    const sign = freshSigner(SECRET);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${base}${WIPES}`, {
          method: 'POST',
          body: payload,
          headers: { 'content-type': 'application/json', ...sign(payload, Math.floor(cloud.clock.now().getTime() / 1000)) },
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(await wipeCount()).toBe(1);
    expect(await jobs()).toHaveLength(1);
  });
});

describe('wipe results and check-ins: only a check-in makes a result certifiable (issue 11)', () => {
  let cloud: Cloud;
  beforeEach(async () => {
    cloud = await startCloud();
  });
  afterEach(() => cloud.close());

  const stored = (jobId: string) =>
    cloud.db.one('SELECT certifiable, certificate_status, uncertified_reason FROM wipe_results WHERE job_id = @job_id', { job_id: jobId });
  const certificates = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM certificates'))!.n;

  it('with quota 1, made-up job_ids are stored (201) but never certified, and only the checked-in run is', async () => {
    const { jti } = await cloud.token((await cloud.account()).id, { quota: 1 });
    const jobId = await cloud.checkin(jti);
    expect((await cloud.post('/internal/tokens/validate', { jti })).json).toMatchObject({ allow: false, reason: 'quota_exceeded' });
    for (let i = 0; i < 20; i += 1) {
      const res = await cloud.post(WIPES, { jti, ...record(`made-up-${i}-0`) });
      expect(res.status).toBe(201);
      expect(res.json.certificate_status).toBeNull();
    }
    expect(await certificates()).toBe(0);
    expect(await stored('made-up-3-0')).toEqual({ certifiable: 0, certificate_status: null, uncertified_reason: NOT_ISSUED_REASON });
    for (const drive of [0, 1]) {
      expect((await cloud.post(WIPES, { jti, ...record(`${jobId}-${drive}`) })).json.certificate_status).toBe('pending');
    }
    expect(await certificates()).toBe(2);
  });

  it('an engine token must suffix the job_id per drive: the bare check-in job_id is not certified', async () => {
    const { jti } = await cloud.token((await cloud.account()).id);
    const jobId = await cloud.checkin(jti);
    expect((await cloud.post(WIPES, { jti, ...record(jobId) })).json.certificate_status).toBeNull();
    expect(await stored(jobId)).toMatchObject({ uncertified_reason: NOT_ISSUED_REASON });
  });

  it('a hotswap token reports the job_id unsuffixed: that is certified, a suffixed one is not', async () => {
    const { jti } = await cloud.token((await cloud.account()).id, { product: 'hotswap' });
    const jobId = await cloud.checkin(jti);
    expect((await cloud.post(WIPES, { jti, ...record(jobId) })).json.certificate_status).toBe('pending');
    const other = await cloud.checkin(jti);
    expect((await cloud.post(WIPES, { jti, ...record(`${other}-0`) })).json.certificate_status).toBeNull();
  });

  it("another account's check-in does not make a result certifiable", async () => {
    const theirs = await cloud.token((await cloud.account('Other')).id);
    const jobId = await cloud.checkin(theirs.jti);
    const mine = await cloud.token((await cloud.account('Mine')).id);
    expect((await cloud.post(WIPES, { jti: mine.jti, ...record(`${jobId}-0`) })).json.certificate_status).toBeNull();
    expect(await certificates()).toBe(0);
  });

  it('a failed wipe of a checked-in run is stored with its own reason', async () => {
    const { jti } = await cloud.token((await cloud.account()).id);
    const jobId = `${await cloud.checkin(jti)}-0`;
    await cloud.post(WIPES, { jti, ...record(jobId, { wipe_status: 'failed' }) });
    expect(await stored(jobId)).toEqual({ certifiable: 0, certificate_status: null, uncertified_reason: 'wipe_status failed' });
  });
});

describe('wipe results and check-ins: a check-in certifies results of its own token only (issue 20)', () => {
  let cloud: Cloud;
  afterEach(() => cloud.close());

  const certificates = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM certificates'))!.n;
  const spentToken = async (accountId: number, product: 'engine' | 'hotswap') => {
    const token = await cloud.token(accountId, { product, quota: 1 });
    await cloud.checkin(token.jti);
    return token;
  };

  const wipeCount = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM wipe_results'))!.n;
  const refusedAsAnotherTokens = { error: 'job_id was issued to another token' };

  it("an engine token whose quota is spent gets no certificate for H-N of a hotswap check-in of its account: 403, nothing stored", async () => {
    cloud = await startCloud();
    const account = (await cloud.account()).id;
    const hotswap = await cloud.token(account, { product: 'hotswap', quota: 1 });
    const hotswapJob = await cloud.checkin(hotswap.jti);
    const engine = await spentToken(account, 'engine');
    expect((await cloud.post('/internal/tokens/validate', { jti: engine.jti })).json).toMatchObject({ allow: false, reason: 'quota_exceeded' });
    for (const drive of [0, 1, 7]) {
      const res = await cloud.post(WIPES, { jti: engine.jti, ...record(`${hotswapJob}-${drive}`) });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(refusedAsAnotherTokens);
    }
    expect(await wipeCount()).toBe(0);
    expect(await certificates()).toBe(0);
  });

  it('a hotswap token with quota 0 gets no certificate for the job_id of an engine check-in of its account: 403, nothing stored', async () => {
    cloud = await startCloud();
    const account = (await cloud.account()).id;
    const engineJob = await cloud.checkin((await cloud.token(account)).jti);
    const hotswap = await cloud.token(account, { product: 'hotswap', quota: 0 });
    for (const jobId of [engineJob, `${engineJob}-0`]) {
      const res = await cloud.post(WIPES, { jti: hotswap.jti, ...record(jobId) });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(refusedAsAnotherTokens);
    }
    expect(await wipeCount()).toBe(0);
    expect(await certificates()).toBe(0);
  });

  it("another token of the same product and account does not spend this token's check-in; its own token does", async () => {
    cloud = await startCloud();
    const account = (await cloud.account()).id;
    const mine = await cloud.token(account);
    const jobId = await cloud.checkin(mine.jti);
    const other = await spentToken(account, 'engine');
    expect((await cloud.post(WIPES, { jti: other.jti, ...record(`${jobId}-0`) })).status).toBe(403);
    expect((await cloud.post(WIPES, { jti: mine.jti, ...record(`${jobId}-1`) })).json.certificate_status).toBe('pending');
    expect(await certificates()).toBe(1);
  });
});

describe('wipe results: a result from a token that did not issue the job_id does not occupy it (issue 28 item 3)', () => {
  let cloud: Cloud;
  beforeEach(async () => {
    cloud = await startCloud();
  });
  afterEach(() => cloud.close());

  const rows = (jobId: string) =>
    cloud.db.many('SELECT token_id, certifiable, certificate_status FROM wipe_results WHERE job_id = @job_id', { job_id: jobId });
  const certificates = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM certificates'))!.n;

  for (const product of ['engine', 'hotswap'] as const) {
    it(`a ${product} job_id sent first by another token of the account is refused 403; the genuine result then gets 201 and its certificate`, async () => {
      const account = (await cloud.account()).id;
      const genuine = await cloud.token(account, { product });
      const squatter = await cloud.token(account);
      const issued = await cloud.checkin(genuine.jti);
      const jobId = product === 'engine' ? `${issued}-0` : issued;

      const squat = await cloud.post(WIPES, { jti: squatter.jti, ...record(jobId, { drive_serial: 'SQUATTED' }) });
      expect(squat.status).toBe(403);
      expect(squat.json).toEqual({ error: 'job_id was issued to another token' });
      expect(await rows(jobId)).toEqual([]);

      const res = await cloud.post(WIPES, { jti: genuine.jti, ...record(jobId) });
      expect(res.status).toBe(201);
      expect(res.json.certificate_status).toBe('pending');
      expect(await rows(jobId)).toEqual([{ token_id: genuine.id, certifiable: 1, certificate_status: 'pending' }]);
      expect(await certificates()).toBe(1);
    });
  }

  it("a squatter sending the job_id after the genuine result is refused 403, not answered with the genuine record", async () => {
    const account = (await cloud.account()).id;
    const genuine = await cloud.token(account);
    const squatter = await cloud.token(account, { product: 'hotswap' });
    const jobId = `${await cloud.checkin(genuine.jti)}-0`;
    expect((await cloud.post(WIPES, { jti: genuine.jti, ...record(jobId) })).status).toBe(201);
    const squat = await cloud.post(WIPES, { jti: squatter.jti, ...record(jobId) });
    expect(squat.status).toBe(403);
    expect(squat.json).toEqual({ error: 'job_id was issued to another token' });
    expect((await cloud.post(WIPES, { jti: genuine.jti, ...record(jobId) })).status).toBe(200);
    expect(await certificates()).toBe(1);
  });

  it("a job_id no token of the account was issued is still stored (201) uncertified, and its duplicate answered 200", async () => {
    const { jti } = await cloud.token((await cloud.account()).id);
    const first = await cloud.post(WIPES, { jti, ...record('made-up-0') });
    expect(first.status).toBe(201);
    expect(first.json.certificate_status).toBeNull();
    expect((await cloud.post(WIPES, { jti, ...record('made-up-0') })).status).toBe(200);
  });
});

describe('wipe results and check-ins: the drive cap', () => {
  let cloud: Cloud;
  afterEach(() => cloud.close());

  const stored = (jobId: string) =>
    cloud.db.one('SELECT certifiable, certificate_status, uncertified_reason FROM wipe_results WHERE job_id = @job_id', { job_id: jobId });
  const certificates = async () => (await cloud.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM certificates'))!.n;

  it('one engine check-in certifies drives -0 to -255 by default; -256 on is stored uncertified with the cap as reason', async () => {
    cloud = await startCloud();
    const { jti } = await cloud.token((await cloud.account()).id);
    const jobId = await cloud.checkin(jti);
    expect((await cloud.post(WIPES, { jti, ...record(`${jobId}-255`) })).json.certificate_status).toBe('pending');
    for (const drive of [256, 9999]) {
      const res = await cloud.post(WIPES, { jti, ...record(`${jobId}-${drive}`) });
      expect(res.status).toBe(201);
      expect(res.json.certificate_status).toBeNull();
      expect(await stored(`${jobId}-${drive}`)).toEqual({
        certifiable: 0,
        certificate_status: null,
        uncertified_reason: `drive -${drive} is past the cap of 256 drives per machine (MAX_DRIVES_PER_MACHINE)`,
      });
    }
    expect(await certificates()).toBe(1);
  });

  it('the drive cap is configurable: with MAX_DRIVES_PER_MACHINE 2, drive -2 is not certified', async () => {
    cloud = await startCloud({ deps: { maxDrivesPerMachine: 2 } });
    const { jti } = await cloud.token((await cloud.account()).id);
    const jobId = await cloud.checkin(jti);
    expect((await cloud.post(WIPES, { jti, ...record(`${jobId}-1`) })).json.certificate_status).toBe('pending');
    expect((await cloud.post(WIPES, { jti, ...record(`${jobId}-2`) })).json.certificate_status).toBeNull();
    expect(await stored(`${jobId}-2`)).toMatchObject({ uncertified_reason: 'drive -2 is past the cap of 2 drives per machine (MAX_DRIVES_PER_MACHINE)' });
  });
});
