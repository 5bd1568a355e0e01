import { CertificatesFound, conforms } from '@erasure/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueCheckin, startCloud, type Cloud } from '../helpers.js';

const LOOKUP = '/internal/certificates/lookup';
const WIPES = '/internal/wipe_results';

// Route beyond the spec (README "Routes beyond the spec"): certificate numbers by job id.
describe('POST /internal/certificates/lookup', () => {
  let cloud: Cloud;
  let jti: string;
  beforeEach(async () => {
    cloud = await startCloud();
    jti = (await cloud.token((await cloud.account()).id)).jti;
  });
  afterEach(() => cloud.close());

  /** A wipe result of a checked-in run (`run-0` is drive 0 of check-in `run`). */
  const wipe = async (tokenJti: string, jobId: string, extra: object = {}) => {
    await issueCheckin(cloud.db, tokenJti, jobId);
    return (await cloud.post(WIPES, { jti: tokenJti, job_id: jobId, drive_serial: `S-${jobId}`, ...extra })).json as { wipe_result_id: string };
  };

  it('answers each known job id with its wipe result, CW- number and status; a failed wipe has neither number nor status', async () => {
    const a = await wipe(jti, 'run-0');
    const b = await wipe(jti, 'run-1');
    const failed = await wipe(jti, 'run-2', { wipe_status: 'failed' });
    const res = await cloud.post(LOOKUP, { jti, job_ids: ['run-1', 'run-0', 'run-2', 'never-sent'] });
    expect(res.status).toBe(200);
    expect(conforms(CertificatesFound, res.json)).toBe(true);
    expect(res.json.certificates).toEqual([
      { job_id: 'run-0', wipe_result_id: a.wipe_result_id, certificate_number: 'CW-000001', certificate_status: 'pending' },
      { job_id: 'run-1', wipe_result_id: b.wipe_result_id, certificate_number: 'CW-000002', certificate_status: 'pending' },
      { job_id: 'run-2', wipe_result_id: failed.wipe_result_id, certificate_number: null, certificate_status: null },
    ]);
  });

  it('is scoped to the token’s account: another account’s job ids read as unknown', async () => {
    await wipe(jti, 'shared-0');
    const other = (await cloud.token((await cloud.account('Other Refurb')).id)).jti;
    await wipe(other, 'mine-0');
    const res = await cloud.post(LOOKUP, { jti: other, job_ids: ['shared-0', 'mine-0'] });
    // Numbering is per account, so the other account's first certificate is CW-000001 too.
    expect(res.json.certificates).toEqual([expect.objectContaining({ job_id: 'mine-0', certificate_number: 'CW-000001' })]);
  });

  it('follows the certificate as it moves on (status from the wipe result row)', async () => {
    await wipe(jti, 'moving-0');
    await cloud.db.run("UPDATE wipe_results SET certificate_status = 'complete'");
    expect((await cloud.post(LOOKUP, { jti, job_ids: ['moving-0'] })).json.certificates[0].certificate_status).toBe('complete');
  });

  it('answers 404 for an unknown token and 403 for a token that is not active, like the other non-ladder routes', async () => {
    expect(await cloud.post(LOOKUP, { jti: 'no-such-jti', job_ids: [] })).toMatchObject({ status: 404, json: { error: 'unknown token' } });
    const revoked = (await cloud.token((await cloud.account('Revoked Refurb')).id, { status: 'revoked' })).jti;
    expect(await cloud.post(LOOKUP, { jti: revoked, job_ids: [] })).toMatchObject({ status: 403, json: { error: 'token revoked' } });
  });

  it.each([
    ['missing job_ids', {}],
    ['job_ids not an array', { job_ids: 'run-0' }],
    ['a job id not a string', { job_ids: [7] }],
    ['more than 64 job ids', { job_ids: Array.from({ length: 65 }, (_, i) => `j-${i}`) }],
  ])('answers 422 for %s', async (_name, body) => {
    expect(await cloud.post(LOOKUP, { jti, ...body })).toMatchObject({ status: 422, json: { error: 'invalid payload' } });
  });

  it('refuses an unsigned call (the internal HMAC channel)', async () => {
    const res = await cloud.app.inject({ method: 'POST', url: LOOKUP, payload: { jti, job_ids: [] } });
    expect(res.statusCode).toBe(401);
  });
});
