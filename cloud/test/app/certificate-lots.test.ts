import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, signIn } from '../web-helpers.js';

/** A lot's certificates in one file: the ZIP of PDFs and the merged PDF, opened with real tools. */
describe('GET /app/api/wipes/certificates: a lot\u2019s certificates at once', () => {
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
  });
  afterEach(() => sut.close());

  const download = async (ids: string[], format: string) => {
    const res = await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?format=${format}&ids=${ids.join(',')}`, headers: { cookie: (await signIn(sut, 'tech@acme.test')).cookie } });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => res.json() };
  };

  it('a merged PDF: a summary page listing every drive in the grid\u2019s order, then each certificate', async () => {
    const order = [wipes[2]!, wipes[3]!, wipes[0]!, wipes[1]!];
    const res = await download(order, 'pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = join(dir, 'lot.pdf');
    writeFileSync(file, res.bytes);
    execFileSync('qpdf', ['--check', file]);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    const summary = text.split('\f')[0]!;
    expect(summary).toContain('4 drives, 3 with a certificate');
    const positions = ['SER-C', 'SER-FAILED', 'SER-A', 'SER-B'].map((serial) => summary.indexOf(serial));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const number of numbers) expect(text).toContain(number);
    const pages = Number(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }).trim());
    expect(pages).toBe(1 + 3);
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
