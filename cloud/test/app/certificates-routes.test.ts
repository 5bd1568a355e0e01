import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addUser, signIn, type Browser } from '../web-helpers.js';
import { certificateOf, PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';

describe('certificate downloads and presigned files (spec 4.4, 5.4)', () => {
  let sut: CertificateCloud;
  let owner: Browser;
  let stranger: Browser;
  let certId: string;
  let wipeId: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurb');
    const other = await sut.account('Other Recycler');
    await addUser(sut, account.id, 'technician', 'ana@acme.test');
    await addUser(sut, other.id, 'admin', 'eve@other.test');
    owner = await signIn(sut, 'ana@acme.test');
    stranger = await signIn(sut, 'eve@other.test');
    wipeId = (await submitWipe(sut, (await sut.token(account.id)).jti, 'job-1-0')).wipe_result_id;
    certId = (await certificateOf(sut, wipeId)).public_id;
  });
  afterEach(() => sut.close());

  /** Follows a presigned Location on this app (the absolute base is PUBLIC_BASE_URL). */
  const fetchLocation = (location: string) => sut.app.inject({ method: 'GET', url: location.replace(PUBLIC_BASE_URL, '') });

  it('while pending or generating, sends the browser back with the "still generating" notice', async () => {
    const plain = await owner.get(`/certificates/${certId}`);
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe('/wipes?notice=certificate-generating');
    const fromPage = await owner.get(`/certificates/${certId}?document=report`, { referer: 'http://localhost:80/wipes?page=2' });
    expect(fromPage.status).toBe(303);
    expect(fromPage.headers.location).toBe('/wipes?page=2&notice=certificate-generating');
    const foreign = await owner.get(`/certificates/${certId}`, { referer: 'https://evil.example/x' });
    expect(foreign.headers.location).toBe('/wipes?notice=certificate-generating');
  });

  it('once complete, redirects 302 to a presigned URL that serves the PDF inline, certificate and report', async () => {
    await sut.drain();
    const res = await owner.get(`/certificates/${certId}`);
    expect(res.status).toBe(302);
    const location = String(res.headers.location);
    expect(location).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/files/certificates/acct_\\w+/${certId}/CW-000001\\.pdf\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    const expires = Number(new URL(location).searchParams.get('expires'));
    expect(expires - Math.floor(sut.clock.now().getTime() / 1000)).toBe(300);

    const file = await fetchLocation(location);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe('inline; filename="CW-000001.pdf"');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const report = await fetchLocation(String((await owner.get(`/certificates/${certId}?document=report`)).headers.location));
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-disposition']).toBe('inline; filename="CW-000001-report.pdf"');
    expect(report.rawPayload.equals(file.rawPayload)).toBe(false);
  });

  it('presigned links expire after 5 minutes (410) and refuse any tampering (403)', async () => {
    await sut.drain();
    const location = String((await owner.get(`/certificates/${certId}`)).headers.location);
    const url = new URL(location);
    const signature = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');

    const tampered = [
      location.replace(`signature=${signature}`, `signature=${flipped}`),
      location.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`),
      location.replace('CW-000001.pdf', 'CW-000001-report.pdf'),
      location.split('?')[0]!,
      location.replace(`&signature=${signature}`, ''),
      location.replace(`signature=${signature}`, 'signature=zz'),
    ];
    for (const bad of tampered) {
      const res = await fetchLocation(bad);
      expect(res.statusCode, bad).toBe(403);
      expect(res.json()).toEqual({ error: 'invalid signature' });
    }

    sut.clock.advance(300_000);
    expect((await fetchLocation(location)).statusCode).toBe(200); // valid through its last second
    sut.clock.advance(1_000);
    const late = await fetchLocation(location);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ error: 'link expired' });
  });

  it("another account's session gets 404, as for an unknown id", async () => {
    await sut.drain();
    const res = await stranger.get(`/certificates/${certId}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'not found' });
    expect((await owner.get('/certificates/cert_00000000000000000000')).status).toBe(404);
  });

  it('without a session: browsers are sent to /login (303), other clients get 401', async () => {
    await sut.drain();
    const page = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/login?next=${encodeURIComponent(`/certificates/${certId}`)}`);
    const api = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}` });
    expect(api.statusCode).toBe(401);
  });
});
