import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyPdf } from '../../src/cli/certificates.js';
import { certificateOf, PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { TEST_STORE } from '../support/test-store.js';
import { addUser, signIn } from '../web-helpers.js';

const SHOTS = join(process.cwd(), 'test-results', 'lot-certificate');

/** A lot's certificates in one file: the ZIP of PDFs and the merged PDF, opened with real tools. */
describe('GET /app/api/wipes/certificates: a lot\u2019s certificates at once', { timeout: 120_000 }, () => {
  let sut: CertificateCloud;
  let wipes: string[];
  let numbers: string[];
  let dir: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurb');
    await addUser(sut, account.id, 'technician', 'tech@acme.test');
    const jti = (await sut.token(account.id)).jti;
    wipes = [];
    for (const [i, serial] of ['SER-A', 'SER-B', 'SER-C'].entries()) {
      wipes.push((await submitWipe(sut, jti, `job-lot-${i}`, { drive_serial: serial })).wipe_result_id);
    }
    // A failed drive belongs to the lot too: listed on the summary, without a certificate.
    wipes.push((await submitWipe(sut, jti, 'job-lot-9', { drive_serial: 'SER-FAILED', wipe_status: 'failed' })).wipe_result_id);
    await sut.drain();
    numbers = [];
    for (const id of wipes.slice(0, 3)) numbers.push((await certificateOf(sut, id)).certificate_number);
    dir = mkdtempSync(join(tmpdir(), 'lot-'));
  }, 120_000);
  afterEach(() => sut.close());

  const download = async (ids: string[], format: string) => {
    const res = await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?format=${format}&ids=${ids.join(',')}`, headers: { cookie: (await signIn(sut, 'tech@acme.test')).cookie } });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => res.json() };
  };

  const pdfsig = (path: string) => {
    const r = spawnSync('pdfsig', [path], { encoding: 'utf8' });
    if (r.error) throw new Error('pdfsig is required: apt-get install poppler-utils');
    return `${r.stdout}${r.stderr}`;
  };
  const verify = (path: string) =>
    verifyPdf(path, {}, (check) => check({ publicKeys: sut.keys.publicKeys, pdfCertificateOnRecord: sut.keys.pdfCertificateOnRecord }));

  it('the lot certificate: one PDF signed once over the whole file, a summary listing every drive in the grid\u2019s order, each certificate attached unchanged', async () => {
    const order = [wipes[2]!, wipes[3]!, wipes[0]!, wipes[1]!];
    const res = await download(order, 'pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = join(dir, 'lot.pdf');
    writeFileSync(file, res.bytes);
    execFileSync('qpdf', ['--check', file]);
    const signatures = pdfsig(file);
    expect(signatures.match(/^Signature #\d+:/gm)).toHaveLength(1);
    expect(signatures).toMatch(/Signature Validation: Signature is Valid\./);
    expect(signatures).toMatch(/^\s*- Total document signed$/m);
    expect(signatures).not.toContain('Digest Mismatch');

    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Lot Certificate of Sanitization');
    expect(text).toMatch(/4 \(3 Pass, 1 Fail\); 3 with a certificate/);
    expect(text).toContain('Acme Refurb');
    const positions = ['SER-C', 'SER-FAILED', 'SER-A', 'SER-B'].map((serial) => text.indexOf(serial));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const number of numbers) expect(text).toContain(number);
    // Only the summary is drawn; the certificates travel as attachments, not as copied pages.
    expect(Number(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }).trim())).toBe(1);

    // Each attachment is the stored certificate, byte for byte, and verifies on its own.
    const listed = execFileSync('qpdf', ['--list-attachments', file], { encoding: 'utf8' });
    const expected = [`001 ${numbers[2]} certificate.pdf`, `003 ${numbers[0]} certificate.pdf`, `004 ${numbers[1]} certificate.pdf`];
    for (const name of [...expected, 'lot.json']) expect(listed).toContain(name);
    for (const [name, wipeIndex] of [[expected[0]!, 2], [expected[1]!, 0], [expected[2]!, 1]] as const) {
      const out = join(dir, `attached-${wipeIndex}.pdf`);
      writeFileSync(out, execFileSync('qpdf', [file, `--show-attachment=${name}`], { maxBuffer: 16 * 1024 * 1024 }));
      const cert = await certificateOf(sut, wipes[wipeIndex]!);
      const stored = await sut.store.get(cert.certificate_key!);
      expect(Buffer.compare(readFileSync(out), Buffer.from(stored!))).toBe(0);
      expect(pdfsig(out)).toMatch(/Signature Validation: Signature is Valid\./);
      expect(await verify(out)).toMatchObject({ valid: true, certificate_number: cert.certificate_number });
    }
    // pdfdetach (poppler) finds the same attachments.
    const detached = execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
    for (const name of expected) expect(detached).toContain(name);

    // verify-pdf: the lot's signature, and every attachment.
    const verdict = (await verify(file)) as unknown as { valid: boolean; kind: string; certificates: { file: string; valid: boolean }[] };
    expect(verdict).toMatchObject({ valid: true, kind: 'lot' });
    expect(verdict.certificates.map((c) => [c.file, c.valid])).toEqual(expected.map((name) => [name, true]));
    // Offline, with the public key alone: the lot's signer is the one every attached record names.
    expect(await verifyPdf(file, { 'public-key': sut.keys.publicKeyBase64 }, () => Promise.reject(new Error('offline')))).toMatchObject({ valid: true, kind: 'lot' });

    // The summary page, for a person to look at.
    mkdirSync(SHOTS, { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', file, join(SHOTS, `lot-certificate-summary-${TEST_STORE}`)]);
  });

  it('a byte changed in the lot certificate after signing fails pdfsig and verify-pdf', async () => {
    const res = await download([wipes[0]!, wipes[1]!], 'pdf');
    const bytes = Buffer.from(res.bytes);
    const at = bytes.indexOf('/Type /Pages');
    expect(at).toBeGreaterThan(0);
    const changed = Buffer.from(bytes);
    // Same length, still a well-formed PDF: only the signature can tell.
    changed.write('/Type/Pages ', at, 'latin1');
    const file = join(dir, 'changed.pdf');
    writeFileSync(file, changed);
    expect(pdfsig(file)).not.toMatch(/Signature Validation: Signature is Valid\./);
    expect(await verify(file)).toMatchObject({ valid: false, kind: 'lot' });
  });

  it("the lot's verify page speaks the lot document's language, or the one asked for; its JSON is the same in any", async () => {
    const accountId = (await sut.db.one<{ id: number }>("SELECT id FROM accounts WHERE name = 'Acme Refurb'"))!.id;
    await sut.db.run(`UPDATE accounts SET certificate_language = 'de' WHERE id = @accountId`, { accountId });
    const file = join(dir, 'lot-de.pdf');
    writeFileSync(file, (await download([wipes[0]!, wipes[3]!], 'pdf')).bytes);
    const { verify_url: url } = JSON.parse(execFileSync('qpdf', [file, '--show-attachment=lot.json'], { encoding: 'utf8' })) as { verify_url: string };
    const path = new URL(url).pathname;
    const html = { accept: 'text/html' };
    const german = (await sut.app.inject({ method: 'GET', url: path, headers: html })).body;
    expect(german).toContain('<html lang="de">');
    for (const words of ['Gültiges Los-Löschzertifikat', 'Was dieses Los umfasst', 'Bearbeitet von', 'Kein Zertifikat', 'Nicht bestanden', '✓ Gültig', 'Jedes Zertifikat verweist']) expect(german).toContain(words);
    expect(german).not.toContain('Valid lot certificate');
    const english = (await sut.app.inject({ method: 'GET', url: `${path}?lang=en`, headers: html })).body;
    expect(english).toContain('Valid lot certificate');
    expect(english).toContain('SER-FAILED</td><td>Fail</td>');
    // The JSON answer's summary is the one it always was: the page's language and facts stay out of it.
    const json = (await sut.app.inject({ method: 'GET', url: `${path}?lang=fr` })).json();
    expect(Object.keys(json.summary).sort()).toEqual(['by_method', 'by_status', 'certified', 'customers', 'drives', 'from', 'lots', 'to', 'validation']);
    // A lot made before languages were stored reads in English; a missing lot in the language asked for.
    await sut.db.run(`UPDATE lot_documents SET summary = @summary`, { summary: JSON.stringify(json.summary) });
    expect((await sut.app.inject({ method: 'GET', url: path, headers: html })).body).toContain('Valid lot certificate');
    const missing = await sut.app.inject({ method: 'GET', url: '/lots/lotdoc_0000/verify?lang=es', headers: html });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('No existe tal certificado de lote');
  });

  it('the lot certificate\u2019s verify URL answers what it covers and each certificate\u2019s own check, as JSON and as a page', async () => {
    const res = await download([wipes[0]!, wipes[3]!, wipes[1]!], 'pdf');
    const file = join(dir, 'lot-verify.pdf');
    writeFileSync(file, res.bytes);
    const manifest = JSON.parse(execFileSync('qpdf', [file, '--show-attachment=lot.json'], { encoding: 'utf8' })) as { verify_url: string; lot_document_id: string };
    expect(manifest.verify_url).toBe(`${PUBLIC_BASE_URL}/lots/${manifest.lot_document_id}/verify`);
    // The QR code's URL is printed on the page too.
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '')).toContain(manifest.verify_url);
    const path = new URL(manifest.verify_url).pathname;
    const json = (await sut.app.inject({ method: 'GET', url: path })).json();
    expect(json).toMatchObject({
      valid: true,
      lot_document_id: manifest.lot_document_id,
      account: 'Acme Refurb',
      summary: { drives: 3, certified: 2, by_status: { Pass: 2, Fail: 1 } },
      uncertified: [{ drive_serial: 'SER-FAILED', status: 'Fail' }],
    });
    expect(json.certificates.map((c: { certificate_number: string; valid: boolean }) => [c.certificate_number, c.valid])).toEqual([[numbers[0], true], [numbers[1], true]]);
    const html = await sut.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Valid lot certificate');
    for (const c of json.certificates as { certificate_id: string }[]) expect(html.body).toContain(`href="/certificates/${c.certificate_id}/verify"`);

    // A certificate of the lot changed in the database: the lot is no longer valid, and says which.
    await sut.db.run("UPDATE wipe_results SET drive_serial = 'FORGED' WHERE public_id = @id", { id: wipes[1]! });
    const after = (await sut.app.inject({ method: 'GET', url: path })).json();
    expect(after.valid).toBe(false);
    expect(after.certificates.map((c: { valid: boolean }) => c.valid)).toEqual([true, false]);
    expect((await sut.app.inject({ method: 'GET', url: '/lots/lotdoc_0000/verify' })).statusCode).toBe(404);
    expect((await sut.app.inject({ method: 'GET', url: '/lots/nope/verify' })).json()).toEqual({ valid: false, error: 'not_found' });
  });

  it('a ZIP of PDFs: the summary, then each certificate and Erasure Report, named in grid order', async () => {
    const res = await download([wipes[1]!, wipes[0]!, wipes[3]!], 'zip');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const file = join(dir, 'lot.zip');
    writeFileSync(file, res.bytes);
    const names = execFileSync('python3', ['-c', 'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); z.testzip(); print("\\n".join(z.namelist()))', file], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toEqual([
      '000 summary.pdf',
      `001 ${numbers[1]} certificate.pdf`,
      `001 ${numbers[1]} erasure report.pdf`,
      `002 ${numbers[0]} certificate.pdf`,
      `002 ${numbers[0]} erasure report.pdf`,
    ]);
    execFileSync('python3', ['-c', 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', file, dir]);
    for (const name of names) execFileSync('qpdf', ['--check', join(dir, name)]);
  });

  it('only the signed-in account\u2019s wipes; bad requests get a clear 4xx', async () => {
    const other = await sut.account('Other Refurb');
    await addUser(sut, other.id, 'admin', 'admin@other.test');
    const res = await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?format=zip&ids=${wipes[0]}`, headers: { cookie: (await signIn(sut, 'admin@other.test')).cookie } });
    expect(res.statusCode).toBe(404);
    expect((await download([], 'zip')).status).toBe(422);
    expect((await download(['not-a-wipe'], 'zip')).status).toBe(422);
    expect((await download([wipes[0]!], 'tar')).status).toBe(422);
    expect((await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?ids=${wipes[0]}` })).statusCode).toBe(401);
  });
});
