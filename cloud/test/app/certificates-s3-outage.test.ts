import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { s3ObjectStore, type S3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { addUser, signIn } from '../web-helpers.js';
import { certificateOf, PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';

/** Issue 33 item 3: the bucket down while certificates are due; nothing is lost. */
describe('certificates while the S3 store is down', () => {
  let sut: CertificateCloud;
  let s3: RunningS3;
  let bucket: S3ObjectStore;
  let jti: string;
  beforeEach(async () => {
    s3 = await startS3();
    // Proxy downloads: the links these tests follow are the cloud's own /files links (S3_PRESIGN=proxy).
    bucket = s3ObjectStore({ ...s3.settings, presign: 'proxy' });
    sut = await startCertificateCloud({ objects: bucket });
    const account = await sut.account('Acme Refurb');
    await addUser(sut, account.id, 'technician', 'ana@acme.test');
    jti = (await sut.token(account.id)).jti;
  });
  afterEach(async () => {
    bucket.close();
    await s3.stop();
    await sut.close();
  });

  it('the jobs fail their attempt and wait with backoff; once the store is back every certificate exists exactly once', async () => {
    const wipes = [await submitWipe(sut, jti, 'job-a-0'), await submitWipe(sut, jti, 'job-a-1')];
    await s3.pause();
    expect(await sut.drain()).toBe(2);
    const waiting = await sut.db.many<{ status: string; attempts: number; run_at: string; last_error: string }>('SELECT * FROM jobs');
    expect(waiting.map((j) => [j.status, j.attempts])).toEqual([
      ['pending', 1],
      ['pending', 1],
    ]);
    expect(waiting.every((j) => j.last_error.length > 0)).toBe(true);
    for (const wipe of wipes) expect((await certificateOf(sut, wipe.wipe_result_id)).status).toBe('generating');

    await s3.resume();
    sut.clock.advance(Math.max(...waiting.map((j) => Date.parse(j.run_at))) - sut.clock.now().getTime());
    expect(await sut.drain()).toBe(2);
    const done = await sut.db.many<{ certificate_key: string; status: string }>('SELECT certificate_key, status FROM certificates');
    expect(done.map((c) => c.status)).toEqual(['complete', 'complete']);
    expect(new Set(done.map((c) => c.certificate_key)).size).toBe(2);
    for (const c of done) expect(Buffer.from((await bucket.get(c.certificate_key))!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await sut.drain()).toBe(0);
  });

  it("while the store is down the wipe row shows the certificate Generating and the log says the bucket did not answer", async () => {
    const wipe = await submitWipe(sut, jti, 'job-c-0');
    await s3.pause();
    const warnings: { details: { certificate?: string; retry_at?: string | null }; message: string }[] = [];
    expect(await sut.drain({ log: { warn: (details, message) => warnings.push({ details, message }) } })).toBe(1);

    const { certificate_number: number } = await certificateOf(sut, wipe.wipe_result_id);
    const job = await sut.row<{ run_at: string; last_error: string }>('SELECT run_at, last_error FROM jobs');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.details).toMatchObject({ certificate: number, retry_at: job.run_at });
    const store = `S3 bucket "${s3.settings.bucket}" at ${s3.settings.endpoint}`;
    expect(warnings[0]!.message).toContain(`certificate ${number} attempt 1 failed, retried at ${job.run_at}: object store ${store} did not take the PDFs:`);
    expect(job.last_error).toContain(`object store ${store} did not take the PDFs:`);

    // As the web app reads it: on its way, not failed and not "not issued".
    const web = await signIn(sut, 'ana@acme.test');
    const grid = await web.get('/app/api/wipes');
    const row = (grid.json.rows as { id: string; certificate: unknown }[]).find((r) => r.id === wipe.wipe_result_id);
    expect(row?.certificate).toEqual({ kind: 'badge', label: 'Generating' });
    const sent = await web.get(`/certificates/${(await certificateOf(sut, wipe.wipe_result_id)).public_id}`);
    expect([sent.status, String(sent.headers.location)]).toEqual([303, expect.stringContaining('certificate-generating')]);
  });

  it('a presigned link to an object gone from the bucket answers 404, and 503 while the bucket is down, never a 500', async () => {
    const wipe = await submitWipe(sut, jti, 'job-b-0');
    await sut.drain();
    const { certificate_key: key } = await sut.row<{ certificate_key: string }>('SELECT certificate_key FROM certificates');
    const link = (await signIn(sut, 'ana@acme.test')).get(`/certificates/${(await certificateOf(sut, wipe.wipe_result_id)).public_id}`);
    const location = String((await link).headers.location).replace(PUBLIC_BASE_URL, '');
    expect((await sut.app.inject({ method: 'GET', url: location })).statusCode).toBe(200);
    await s3.pause();
    const down = await sut.app.inject({ method: 'GET', url: location });
    expect([down.statusCode, down.json()]).toEqual([503, { error: 'object store unavailable' }]);
    await s3.resume();
    await bucket.remove(key);
    const gone = await sut.app.inject({ method: 'GET', url: location });
    expect([gone.statusCode, gone.json()]).toEqual([404, { error: 'not found' }]);
  });
});
