import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { s3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';
import { addUser, signIn } from '../web-helpers.js';

// Issue 33 item 2: with a bucket customers can reach (S3_PRESIGN=direct, the default), a
// certificate answers 302 to a presigned GET on the bucket itself, valid 5 minutes (spec 4.4),
// and the cloud serves none of the bytes; with S3_PRESIGN=proxy, to the cloud's own presigned
// link. The bucket is a throwaway s3rver on loopback.
describe('certificate downloads with the S3 store', () => {
  let s3: RunningS3;
  const open: CertificateCloud[] = [];
  beforeEach(async () => {
    s3 = await startS3();
  });
  afterEach(async () => {
    for (const sut of open.splice(0)) await sut.close();
    await s3.stop();
  });

  /** A cloud on the bucket with one complete certificate, and its owner signed in. */
  const withCertificate = async (presign: 'direct' | 'proxy') => {
    const sut = await startCertificateCloud({ objects: s3ObjectStore({ ...s3.settings, presign }) });
    open.push(sut);
    const account = await sut.account('Acme Refurb');
    await addUser(sut, account.id, 'technician', 'ana@acme.test');
    const owner = await signIn(sut, 'ana@acme.test');
    const wipeId = (await submitWipe(sut, (await sut.token(account.id)).jti, 'job-1-0')).wipe_result_id;
    const cert = await certificateOf(sut, wipeId);
    await sut.drain();
    return { sut, owner, certId: cert.public_id, wipeId };
  };

  it('redirects to a presigned GET on the bucket, valid 5 minutes, that serves the PDF inline, byte for byte the stored one', async () => {
    const { sut, owner, certId, wipeId } = await withCertificate('direct');
    const res = await owner.get(`/certificates/${certId}`);
    expect(res.status).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.origin).toBe(s3.settings.endpoint);
    expect(location.pathname).toMatch(new RegExp(`^/certificates/certificates/acct_\\w+/${certId}/CW-000001\\.pdf$`));
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('inline; filename="CW-000001.pdf"');
    const stored = await sut.store.get((await certificateOf(sut, wipeId)).certificate_key!);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(stored!))).toBe(true);
  });

  it('with S3_PRESIGN=proxy, redirects to the cloud’s own presigned link, for a bucket customers cannot reach', async () => {
    const { owner, certId } = await withCertificate('proxy');
    const location = new URL(String((await owner.get(`/certificates/${certId}`)).headers.location));
    expect(location.pathname).toMatch(/^\/files\/certificates\//);
    expect(location.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
