import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { certificateOf, startCertificateCloud, submitWipe, wipeBody, type CertificateCloud } from '../certificates/pipeline.js';
import { issueCheckin } from '../helpers.js';

describe('certificate issuance on wipe result receipt (spec 3 "Certificate status", 4.2 rules 3-4)', () => {
  let sut: CertificateCloud;
  let account: Awaited<ReturnType<CertificateCloud['account']>>;
  let jti: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    account = await sut.account('Acme Refurb');
    jti = (await sut.token(account.id)).jti;
  });
  afterEach(() => sut.close());

  it('creates a pending, numbered certificate in the same request as the first receipt', async () => {
    const body = await submitWipe(sut, jti, 'job-1-0');
    expect(body.certificate_status).toBe('pending');
    const cert = await certificateOf(sut, body.wipe_result_id);
    expect(cert).toMatchObject({ certificate_number: 'CW-000001', status: 'pending', public_id: expect.stringMatching(/^cert_[0-9a-z]{20}$/) });
    const job = await sut.row<{ status: string }>(`SELECT status FROM jobs WHERE kind = 'certificate'`);
    expect(job.status).toBe('pending');
  });

  it('a duplicate job_id answers 200 and creates no second certificate, number or job', async () => {
    const first = await submitWipe(sut, jti, 'job-dup-0');
    const again = await sut.post('/internal/wipe_results', wipeBody(jti, 'job-dup-0', { drive_serial: 'OTHER' }));
    expect(again.status).toBe(200);
    expect(again.json.wipe_result_id).toBe(first.wipe_result_id);
    expect((await sut.row<{ n: number }>('SELECT count(*) AS n FROM certificates')).n).toBe(1);
    expect((await sut.row<{ n: number }>('SELECT count(*) AS n FROM jobs')).n).toBe(1);
    expect((await sut.row<{ last_value: number }>('SELECT last_value FROM certificate_sequences')).last_value).toBe(1);
    // The next certifiable result takes the next number: the duplicate consumed none.
    const next = await submitWipe(sut, jti, 'job-next-0');
    expect((await certificateOf(sut, next.wipe_result_id)).certificate_number).toBe('CW-000002');
  });

  it('non-certifiable results (failed, cancelled, rejected) get no certificate and take no number', async () => {
    for (const [jobId, extra] of [
      ['job-failed-0', { wipe_status: 'failed' }],
      ['job-cancelled-0', { wipe_status: 'cancelled' }],
      ['job-rejected-0', { validation: 'rejected' }],
    ] as const) {
      const res = await sut.post('/internal/wipe_results', wipeBody(jti, jobId, extra));
      expect(res.status).toBe(201);
      expect(res.json.certificate_status).toBeNull();
    }
    expect((await sut.row<{ n: number }>('SELECT count(*) AS n FROM certificates')).n).toBe(0);
    const ok = await submitWipe(sut, jti, 'job-ok-0');
    expect((await certificateOf(sut, ok.wipe_result_id)).certificate_number).toBe('CW-000001');
  });

  it('20 concurrent certifiable results on one account get CW-000001..CW-000020, each once', async () => {
    await issueCheckin(sut.db, jti, 'job-c-0'); // one engine run, 20 drives
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sut.post('/internal/wipe_results', wipeBody(jti, `job-c-${i}`, { drive_serial: `SER${i}` }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = (await sut.db.many<{ certificate_number: string }>('SELECT certificate_number FROM certificates ORDER BY sequence')).map((r) => r.certificate_number);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `CW-${String(i + 1).padStart(6, '0')}`));
    expect(new Set((await sut.db.many<{ wipe_result_id: number }>('SELECT wipe_result_id FROM certificates')).map((r) => r.wipe_result_id)).size).toBe(20);
  });

  it('numbers are scoped per account', async () => {
    const other = await sut.account('Other Recycler');
    const otherJti = (await sut.token(other.id)).jti;
    const a1 = await submitWipe(sut, jti, 'a-1');
    const b1 = await submitWipe(sut, otherJti, 'b-1');
    const a2 = await submitWipe(sut, jti, 'a-2');
    const numbers = await Promise.all([a1, b1, a2].map(async (r) => (await certificateOf(sut, r.wipe_result_id)).certificate_number));
    expect(numbers).toEqual(['CW-000001', 'CW-000001', 'CW-000002']);
  });
});
