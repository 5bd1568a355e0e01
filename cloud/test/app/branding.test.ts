import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyPdf } from '../../src/cli/certificates.js';
import { embeddedFiles } from '../../src/domain/certificates/embedded-certificate.js';
import { PDFDocument } from 'pdf-lib';
import { testJpegHeader, testLogoPng } from '../certificates/logo-fixture.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { adminAndTechnician, type Browser } from '../web-helpers.js';

// Issue 31 item 7: an account's admins upload its logo and company details; certificates issued
// from then on carry both (certificate, report, verify page) beside the account's name, still
// signed by the deployment, and verify-pdf still finds them valid.
const URL = '/app/api/branding';
const DETAILS = { company_name: 'Acme Refurbishing GmbH', address_lines: ['Hafenstraße 12', '20457 Hamburg, Germany'], contact: 'certs@acme.test · +49 40 123456' };

describe('the branding of an account on its certificates', () => {
  let cloud: CertificateCloud;
  let account: Awaited<ReturnType<CertificateCloud['account']>>;
  let admin: Browser;
  let technician: Browser;
  let jti: string;
  let dir: string;

  beforeEach(async () => {
    cloud = await startCertificateCloud();
    account = await cloud.account('Acme Refurb');
    jti = (await cloud.token(account.id)).jti;
    ({ admin, technician } = await adminAndTechnician(cloud, account.id));
    dir = mkdtempSync(join(tmpdir(), 'branding-'));
  });
  afterEach(async () => {
    await cloud.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = async (who: Browser, bytes: Uint8Array, type = 'image/png') => {
    const res = await cloud.app.inject({ method: 'PUT', url: `${URL}/logo`, headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, 'content-type': type }, payload: Buffer.from(bytes) });
    return { status: res.statusCode, json: res.json() as any };
  };
  const storedObjects = async () => (await cloud.db.many<{ logo_key: string | null }>('SELECT logo_key FROM account_brandings')).map((r) => r.logo_key);
  const write = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const verify = (path: string) => verifyPdf(path, {}, (check) => check({ publicKeys: cloud.keys.publicKeys, pdfCertificateOnRecord: cloud.keys.pdfCertificateOnRecord }));
  const pdfText = (path: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  const issue = async (jobId: string) => {
    const { wipe_result_id } = await submitWipe(cloud, jti, jobId);
    await cloud.drain();
    const cert = await certificateOf(cloud, wipe_result_id);
    return { cert, certificate: (await cloud.store.get(cert.certificate_key!))!, report: (await cloud.store.get(cert.report_key!))! };
  };

  it('is empty until an admin saves details and uploads a logo; both read back, the logo from the object store', async () => {
    expect((await admin.get(URL)).json.branding).toEqual({ company_name: null, address_lines: [], contact: null, logo: null, updated_at: null });
    const saved = await admin.send('PUT', URL, DETAILS);
    expect(saved).toMatchObject({ status: 200, json: { branding: DETAILS } });
    const logo = testLogoPng();
    const uploaded = await upload(admin, logo);
    expect(uploaded).toMatchObject({ status: 200, json: { branding: { ...DETAILS, logo: { type: 'png' } } } });
    const [key] = await storedObjects();
    expect(key).toMatch(new RegExp(`^branding/${account.publicId}/logo-[0-9a-f]{64}\\.png$`));
    expect(Buffer.from((await cloud.store.get(key!))!)).toEqual(Buffer.from(logo));
    const served = await cloud.app.inject({ method: 'GET', url: uploaded.json.branding.logo.href, headers: { cookie: admin.cookie } });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload).toEqual(Buffer.from(logo));
    // A JPEG is accepted by its bytes too.
    expect(await upload(admin, testJpegHeader(300, 100), 'image/jpeg')).toMatchObject({ status: 200, json: { branding: { logo: { type: 'jpeg' } } } });
  });

  it('is admins’ only: a technician can neither read nor change it (403), and nothing is written', async () => {
    expect((await technician.get(URL)).status).toBe(403);
    expect((await technician.send('PUT', URL, DETAILS)).status).toBe(403);
    expect((await upload(technician, testLogoPng())).status).toBe(403);
    expect((await technician.send('DELETE', URL)).status).toBe(403);
    expect(await storedObjects()).toEqual([]);
  });

  it.each([
    ['a GIF', new Uint8Array(Buffer.from('GIF89a\x10\x00\x10\x00\x80\x00\x00', 'latin1')), 'image/gif', 422, /not a PNG or JPEG image/],
    ['a text file sent as a PNG', new Uint8Array(Buffer.from('hello, this is not an image')), 'image/png', 422, /not a PNG or JPEG image/],
    ['an empty file', new Uint8Array(), 'image/png', 422, /the logo is empty/],
    ['a PNG over 512 KB', (() => { const b = new Uint8Array(600 * 1024); b.set(testLogoPng()); return b; })(), 'image/png', 413, /the logo is 600 KB; at most 512 KB is accepted/],
    ['a PNG signature with no header after it', testLogoPng().subarray(0, 20), 'image/png', 422, /PNG header cannot be read/],
    ['a PNG whose data is cut off', testLogoPng().subarray(0, 60), 'image/png', 422, /PNG data cannot be read/],
    ['a PNG of 5000×80 pixels', testLogoPng(5000, 80), 'image/png', 422, /the logo is 5000×80 pixels; each side must be between 16 and 4096/],
    ['a JPEG of 8×8 pixels', testJpegHeader(8, 8), 'image/jpeg', 422, /the logo is 8×8 pixels/],
  ])('refuses %s with a clear 4xx and stores nothing', async (_name, bytes, type, status, message) => {
    const res = await upload(admin, bytes, type);
    expect(res.status).toBe(status);
    expect(res.json.error).toMatch(message);
    expect(await storedObjects()).toEqual([]);
  });

  it('refuses a logo sent as text/plain (415) and a body over the upload limit (413)', async () => {
    const text = await cloud.app.inject({ method: 'PUT', url: `${URL}/logo`, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'text/plain' }, payload: 'x' });
    expect(text.statusCode).toBe(415);
    expect((await upload(admin, new Uint8Array(3 * 1024 * 1024))).status).toBe(413);
    expect(await storedObjects()).toEqual([]);
  });

  it.each([
    ['no company name', { address_lines: [] }, /company_name is required/],
    ['a line break in the name', { company_name: 'Acme\nEvil' }, /company_name must not contain control characters/],
    ['four address lines', { company_name: 'Acme', address_lines: ['a', 'b', 'c', 'd'] }, /at most 3 lines/],
    ['a contact of 161 characters', { company_name: 'Acme', contact: 'x'.repeat(161) }, /contact must be at most 160 characters/],
    ['a list', [], /expected a JSON object/],
  ])('refuses details with %s (400) and stores nothing', async (_name, body, message) => {
    const res = await admin.send('PUT', URL, body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect(await storedObjects()).toEqual([]);
  });

  it('puts the logo and details on the certificate, the report and the verify page; the signer stays the deployment and verify-pdf says valid', async () => {
    const before = await issue('job-branding-1-0');
    await admin.send('PUT', URL, DETAILS);
    await upload(admin, testLogoPng());
    const after = await issue('job-branding-2-0');

    // Issued before the branding: as it was, no branding attached, still valid.
    expect(embeddedFiles(await PDFDocument.load(before.certificate)).has('issuer-branding.json')).toBe(false);
    expect((await verify(write('before.pdf', before.certificate))).valid).toBe(true);

    const certificatePath = write('branded-certificate.pdf', after.certificate);
    const reportPath = write('branded-report.pdf', after.report);
    for (const path of [certificatePath, reportPath]) {
      const text = pdfText(path);
      expect(text).toContain('Acme Refurbishing GmbH');
      expect(text).toContain('Hafenstraße 12 · 20457 Hamburg, Germany');
      expect(text).toContain('certs@acme.test · +49 40 123456');
      expect(await verify(path)).toMatchObject({ valid: true, account: 'Acme Refurb' });
      // The logo is drawn: the page carries one image.
      expect(execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' })).toMatch(/\n\s+1\s+0 image\s+240\s+80 /);
    }
    // The signer is the deployment, and the signed record does not carry the branding.
    expect(pdfText(certificatePath)).toMatch(/SIGNED BY .*Erasure Cloud/);
    expect(JSON.parse(after.cert.content!)).not.toHaveProperty('branding');
    expect(Object.keys(JSON.parse(after.cert.content!)).sort()).toEqual(Object.keys(JSON.parse(before.cert.content!)).sort());
    expect(spawnSync('pdfsig', [certificatePath], { encoding: 'utf8' }).stdout).toMatch(/Signature is Valid\./);

    const page = await cloud.app.inject({ method: 'GET', url: `/certificates/${after.cert.public_id}/verify`, headers: { accept: 'text/html' } });
    expect(page.body).toContain('data-testid="issuer"');
    expect(page.body).toContain(`src="data:image/png;base64,${Buffer.from(testLogoPng()).toString('base64')}"`);
    expect(page.body).toContain('<strong>Acme Refurbishing GmbH</strong><br>Hafenstraße 12<br>20457 Hamburg, Germany<br>certs@acme.test · +49 40 123456');
  });

  it('"Remove branding" takes both away: later certificates carry the product’s header again', async () => {
    await admin.send('PUT', URL, DETAILS);
    await upload(admin, testLogoPng());
    const removed = await admin.send('DELETE', URL);
    expect(removed.json.branding).toMatchObject({ company_name: null, logo: null });
    const { certificate } = await issue('job-branding-3-0');
    expect(embeddedFiles(await PDFDocument.load(certificate)).has('issuer-branding.json')).toBe(false);
    expect(pdfText(write('unbranded.pdf', certificate))).toContain('ERASURE CLOUD');
  });
});
