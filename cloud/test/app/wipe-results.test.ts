import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signServiceRequest } from '@erasure/shared';
import { SECRET, startCloud, type Cloud } from '../helpers.js';

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
    jti = cloud.token(cloud.account().id).jti;
  });
  afterEach(() => cloud.close());

  const jobs = () => cloud.db.prepare('SELECT kind, status FROM jobs').all();

  it('stores a certifiable first receipt: 201 with certificate_status pending and a durable certificate job', async () => {
    const res = await cloud.post(WIPES, { jti, ...record('7b0c-0') });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ ok: true, wipe_result_id: expect.stringMatching(/^wr_[0-9a-z]{20}$/), certificate_status: 'pending' });
    expect(jobs()).toEqual([{ kind: 'certificate', status: 'pending' }]);
  });

  it('reads an absent wipe_status and validation as completed and approved: certifiable', async () => {
    const res = await cloud.post(WIPES, { jti, job_id: 'bare-0' });
    expect(res.json.certificate_status).toBe('pending');
  });

  it.each([
    ['failed', { wipe_status: 'failed' }],
    ['cancelled', { wipe_status: 'cancelled' }],
    ['rejected by validation', { validation: 'rejected' }],
  ])('stores a %s result but never certifies it', async (_name, extra) => {
    const res = await cloud.post(WIPES, { jti, ...record('x-0', extra) });
    expect(res.status).toBe(201);
    expect(res.json.certificate_status).toBeNull();
    expect(jobs()).toEqual([]);
    expect(cloud.db.prepare('SELECT COUNT(*) FROM wipe_results').pluck().get()).toBe(1);
  });

  it('answers a duplicate job_id 200 with the existing record, creating nothing', async () => {
    const first = await cloud.post(WIPES, { jti, ...record('dup-0') });
    const again = await cloud.post(WIPES, { jti, ...record('dup-0', { drive_serial: 'CHANGED' }) });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(cloud.db.prepare('SELECT drive_serial FROM wipe_results').pluck().all()).toEqual(['S4DYNX0M123456']);
    expect(jobs()).toHaveLength(1);
  });

  it('consumes no quota', async () => {
    const token = cloud.token(cloud.account('Metered').id, { quota: 1 });
    await cloud.post(WIPES, { jti: token.jti, ...record('q-0') });
    expect(cloud.db.prepare('SELECT use_count FROM license_tokens WHERE jti = ?').pluck().get(token.jti)).toBe(0);
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
    const payload = JSON.stringify({ jti, ...record('race-0') });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${base}${WIPES}`, {
          method: 'POST',
          body: payload,
          headers: { 'content-type': 'application/json', ...signServiceRequest(SECRET, payload, Math.floor(cloud.clock.now().getTime() / 1000)) },
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(cloud.db.prepare('SELECT COUNT(*) FROM wipe_results').pluck().get()).toBe(1);
    expect(jobs()).toHaveLength(1);
  });
});
