import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFName, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf, type PdfVerdict } from '../../src/cli/certificates.js';
import { keyedSignature, signContent, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { readEmbeddedCertificate, type EmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { cachingFontkit } from '../../src/domain/certificates/fonts.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { addSignaturePlaceholder, signPlaceholder } from '../../src/domain/certificates/pdf-signature.js';
import { generateSelfSignedPdfSigner } from '../../src/domain/certificates/pdf-signing-certificate.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { testFonts } from '../certificates/fixtures.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';

// Issue 28 item 1: `verify-pdf --public-key` accepted a PDF anyone signed, whose visible page said
// something else than the signed record it carried (the record's facts hidden in 2-pt white text).

/** Page images land in the gitignored test-results/, to be looked at. */
const OUT = fileURLToPath(new URL('../../../test-results/certificates/', import.meta.url));

const pdfsig = (path: string) => {
  const r = spawnSync('pdfsig', [path], { encoding: 'utf8' });
  if (r.error) throw new Error('pdfsig is required: apt-get install poppler-utils');
  return `${r.stdout}${r.stderr}`;
};
const pdfsigAccepts = (out: string) => /Signature Validation: Signature is Valid\./.test(out) && /^\s*- Total document signed$/m.test(out);
const pdfText = (path: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
const qpdfCheck = (path: string) => execFileSync('qpdf', ['--check', path], { encoding: 'utf8' });

/** A fresh self-signed PDF signer with the very name the deployment's own certificate carries. */
const forgerSigner = () => generateSelfSignedPdfSigner({ commonName: 'Erasure Cloud certificate signing', now: new Date() });

const A4: [number, number] = [595.28, 841.89];

describe('verify-pdf refuses a forged certificate, with the public key alone and with the database (issue 28)', () => {
  let cloud: CertificateCloud;
  let dir: string;
  /** Genuine PDFs of two drives, A and B, as the deployment issued them (v3 records). */
  const genuine: Record<'A' | 'B', { certificate: string; report: string; embedded: EmbeddedCertificate }> = {} as never;
  /** The same two, issued the way the code before issue 28 did: v2 records that name no PDF signer. */
  const preChange: Record<'A' | 'B', { certificate: string; report: string; embedded: EmbeddedCertificate }> = {} as never;

  const offline = (path: string): Promise<PdfVerdict> => verifyPdf(path, { 'public-key': cloud.keys.publicKeyBase64 }, () => Promise.reject(new Error('offline')));
  const withDatabase = (path: string): Promise<PdfVerdict> =>
    verifyPdf(path, {}, (check) => check({ publicKeys: cloud.keys.publicKeys, pdfCertificateOnRecord: cloud.keys.pdfCertificateOnRecord }));
  const write = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  beforeAll(async () => {
    cloud = await startCertificateCloud();
    dir = mkdtempSync(join(tmpdir(), 'forged-pdf-'));
    mkdirSync(OUT, { recursive: true });
    const jti = (await cloud.token((await cloud.account('Acme Refurb')).id)).jti;
    for (const [drive, serial] of [['A', 'SER-AAAA-0001'], ['B', 'SER-BBBB-0002']] as const) {
      const { wipe_result_id } = await submitWipe(cloud, jti, `job-forged-${drive}-0`, { drive_serial: serial });
      await cloud.drain();
      const cert = await certificateOf(cloud, wipe_result_id);
      const certificate = write(`${drive}.pdf`, (await cloud.store.get(cert.certificate_key!))!);
      const report = write(`${drive}-report.pdf`, (await cloud.store.get(cert.report_key!))!);
      genuine[drive] = { certificate, report, embedded: (await readEmbeddedCertificate(readFileSync(certificate)))! };
      preChange[drive] = await issuedBeforeTheChange(drive, genuine[drive].embedded.content as CertificateContent);
    }
  });
  afterAll(async () => {
    await cloud?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * What the code before issue 28 issued: the same record without `pdf_signer_sha256`, schema v2,
   * signed by the deployment's Ed25519 key, both PDFs signed by the deployment's PDF certificate.
   */
  async function issuedBeforeTheChange(drive: string, current: CertificateContent) {
    const { pdf_signer_sha256: _named, ...rest } = current;
    const content = { ...rest, schema: 'erasure-certificate/v2' } as CertificateContent;
    const key = await cloud.keys.signing();
    const signature = keyedSignature(key.keyId, signContent(key.privateKey, content));
    const pdfSigner = await cloud.keys.pdfSigning();
    const fonts = testFonts();
    const certificate = write(`${drive}-v2.pdf`, await renderCertificatePdf(content, { fonts, signature, pdfSigner }));
    const report = write(
      `${drive}-v2-report.pdf`,
      await renderErasureReportPdf({ certificate: content, signature, wipeResult: { job_id: `job-forged-${drive}-0` } as never, fingerprint: null, tests: null, notes: null }, { fonts, pdfSigner }),
    );
    return { certificate, report, embedded: (await readEmbeddedCertificate(readFileSync(certificate)))! };
  }

  it('a genuine certificate and a genuine certificate issued before the change both verify with --public-key and with the database', async () => {
    for (const path of [genuine.A.certificate, preChange.A.certificate, genuine.A.report]) {
      expect(pdfsigAccepts(pdfsig(path))).toBe(true);
      expect(await offline(path), path).toMatchObject({ valid: true, drive_serial: 'SER-AAAA-0001' });
      expect(await withDatabase(path), path).toMatchObject({ valid: true, drive_serial: 'SER-AAAA-0001' });
    }
    expect((genuine.A.embedded.content as CertificateContent).pdf_signer_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(preChange.A.embedded.content).not.toHaveProperty('pdf_signer_sha256');
    // An older Erasure Report prints what its record does not hold: only the database vouches for it.
    expect(await withDatabase(preChange.A.report)).toMatchObject({ valid: true });
    expect(await offline(preChange.A.report)).toMatchObject({ valid: false, reason: expect.stringContaining('cannot be checked with the public key alone') });
  });

  for (const era of ['current', 'pre-change'] as const) {
    it(`the issue's forgery (FORGED-SERIAL / Victim Bank plc, the ${era} record's facts in 2-pt white text, re-signed by a look-alike certificate) is refused`, async () => {
      const source = era === 'current' ? genuine.A : preChange.A;
      const genuineText = pdfText(source.certificate);
      for (const title of ['Certificate of Sanitization', 'Erasure Report']) {
        const path = write(`forged-${era}-${title[0]}.pdf`, await issueForgery(source.embedded, genuineText, title));
        // What made it pass before: readers show it signed, and every signed fact is in its text.
        expect(pdfsigAccepts(pdfsig(path))).toBe(true);
        expect(qpdfCheck(path)).toContain('No syntax or stream encoding errors');
        const text = pdfText(path);
        expect(text).toContain('FORGED-SERIAL');
        expect(text).toContain('SER-AAAA-0001');
        const refused = await offline(path);
        expect(refused, title).toMatchObject({ valid: false });
        expect(refused.reason).toMatch(
          era === 'current'
            ? /other than the one its signed record names/
            : title === 'Erasure Report'
              ? /cannot be checked with the public key alone/
              : /the visible page is not the certificate its signed record renders to/,
        );
        expect(await withDatabase(path)).toMatchObject({ valid: false, reason: expect.stringContaining('does not have on record') });
        if (era === 'pre-change' && title === 'Certificate of Sanitization') {
          execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', path, join(OUT, 'issue28-forgery')]);
        }
      }
    });

    it(`B's ${era} record behind A's page, re-signed by a look-alike certificate, is refused`, async () => {
      const page = era === 'current' ? genuine.A : preChange.A;
      const record = era === 'current' ? genuine.B.embedded : preChange.B.embedded;
      const path = write(`swapped-${era}.pdf`, await resign(await pageWithRecord(page.certificate, record)));
      expect(pdfsigAccepts(pdfsig(path))).toBe(true);
      expect(pdfText(path)).toContain('SER-AAAA-0001');
      const refused = await offline(path);
      expect(refused).toMatchObject({ valid: false, drive_serial: 'SER-BBBB-0002' });
      expect(refused.reason).toMatch(era === 'current' ? /other than the one its signed record names/ : /does not draw what the signed record renders to/);
      expect(await withDatabase(path)).toMatchObject({ valid: false });
    });
  }

  it('a white box over the serial of a pre-change certificate and new text on it, re-signed, is refused offline', async () => {
    const doc = await pageWithRecord(preChange.A.certificate, preChange.A.embedded);
    const page = doc.getPage(0);
    page.drawRectangle({ x: 40, y: 520, width: 520, height: 200, color: rgb(1, 1, 1) });
    page.drawText('FORGED-SERIAL', { x: 60, y: 640, size: 14, font: await embedDejaVu(doc) });
    const path = write('covered.pdf', await resign(doc));
    expect(pdfText(path)).toContain('FORGED-SERIAL');
    expect(await offline(path)).toMatchObject({ valid: false, reason: expect.stringMatching(/does not draw what the signed record renders to/) });
  });

  it('a pre-change certificate whose page objects are defined twice (forged first, the cross-reference table pointing there; genuine last), re-signed, is refused offline', async () => {
    // pdf-lib reads objects in file order and keeps the last definition; readers follow the
    // cross-reference table. So the page check compared the genuine page while readers show the forged one.
    const doc = await pageWithRecord(preChange.A.certificate, preChange.A.embedded);
    addSignaturePlaceholder(doc, { name: 'Erasure Cloud', reason: doc.getTitle() ?? '', signingTime: new Date() });
    const genuinePage = await doc.save({ useObjectStreams: false });
    const forgedDoc = await PDFDocument.load(genuinePage, { updateMetadata: false });
    const page = forgedDoc.getPage(0);
    page.drawRectangle({ x: 40, y: 520, width: 520, height: 200, color: rgb(1, 1, 1) });
    page.drawText('FORGED-SERIAL', { x: 60, y: 640, size: 14, font: await embedDejaVu(forgedDoc) });
    const forgedPage = await forgedDoc.save({ useObjectStreams: false });
    const bytes = await signPlaceholder(defineForgedObjectsFirst(genuinePage, forgedPage), forgerSigner());
    const path = write('defined-twice.pdf', bytes);
    // Readers show the forged page, signed over the whole file; the file is well formed.
    expect(pdfsigAccepts(pdfsig(path))).toBe(true);
    expect(qpdfCheck(path)).toContain('No syntax or stream encoding errors');
    expect(pdfText(path)).toContain('FORGED-SERIAL');
    // What pdf-lib sees is the genuine page: the page check alone passes it.
    const embedded = (await readEmbeddedCertificate(bytes))!;
    expect(await certificatePageDifference(bytes, embedded.content as CertificateContent, embedded.signature, testFonts())).toBeNull();
    expect(await offline(path)).toMatchObject({ valid: false, reason: expect.stringMatching(/defines an object more than once/) });
    expect(await withDatabase(path)).toMatchObject({ valid: false });
  });

  it('the genuine page moved as it is into a new file with its own record, re-signed, is refused only for its signer', async () => {
    // The page check alone accepts it: the drawing is the genuine one. What refuses it is the
    // record naming the deployment's PDF signer; before the change such a copy was the genuine
    // document under another signature, and verifies like one.
    const current = write('moved-current.pdf', await resign(await pageWithRecord(genuine.A.certificate, genuine.A.embedded)));
    expect(await offline(current)).toMatchObject({ valid: false, reason: expect.stringMatching(/other than the one its signed record names/) });
    const old = write('moved-pre-change.pdf', await resign(await pageWithRecord(preChange.A.certificate, preChange.A.embedded)));
    expect(await offline(old)).toMatchObject({ valid: true, drive_serial: 'SER-AAAA-0001' });
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', preChange.A.certificate, join(OUT, 'issue28-pre-change-genuine')]);
  });
});

async function embedDejaVu(doc: PDFDocument) {
  const fonts = testFonts();
  doc.registerFontkit(cachingFontkit(fonts) as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  return doc.embedFont(fonts.regular[0]!.bytes, { subset: true });
}

/** The forgery of issue 28 item 1: a page of the forger's own, the genuine facts hidden in it, the genuine record attached. */
async function issueForgery(record: EmbeddedCertificate, genuineText: string, title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(A4);
  const font = await embedDejaVu(doc);
  const content = record.content as CertificateContent;
  page.drawText('Certificate of Sanitization', { x: 50, y: 760, size: 24, font });
  page.drawText(`Certificate no. ${content.certificate_number}`, { x: 50, y: 720, size: 12, font });
  page.drawText('Drive serial: FORGED-SERIAL', { x: 50, y: 690, size: 14, font });
  page.drawText('Processed by: Victim Bank plc', { x: 50, y: 665, size: 14, font });
  let y = 400;
  for (const line of genuineText.split('\n').filter((l) => l.trim())) {
    page.drawText(line, { x: 50, y, size: 2, font, color: rgb(1, 1, 1) });
    y -= 2.5;
  }
  doc.setTitle(`${title} ${content.certificate_number}`);
  await attachRecord(doc, record);
  return signed(doc);
}

/** Page 1 of `pdf`, drawing and resources as they are, in a new file carrying `record`. */
async function pageWithRecord(pdf: string, record: EmbeddedCertificate): Promise<PDFDocument> {
  const from = await PDFDocument.load(readFileSync(pdf), { updateMetadata: false });
  from.getPage(0).node.delete(PDFName.of('Annots')); // the old signature's widget
  const doc = await PDFDocument.create();
  for (const p of await doc.copyPages(from, [0])) doc.addPage(p);
  doc.setTitle(from.getTitle() ?? '');
  await attachRecord(doc, record);
  return doc;
}

async function attachRecord(doc: PDFDocument, record: EmbeddedCertificate): Promise<void> {
  await doc.attach(record.json, 'certificate.json', { mimeType: 'application/json' });
  await doc.attach(new TextEncoder().encode(`${record.signature}\n`), 'certificate.sig', { mimeType: 'text/plain' });
}

async function signed(doc: PDFDocument): Promise<Uint8Array> {
  addSignaturePlaceholder(doc, { name: 'Erasure Cloud', reason: doc.getTitle() ?? '', signingTime: new Date() });
  return signPlaceholder(await doc.save({ useObjectStreams: false }), forgerSigner());
}

const resign = (doc: PDFDocument) => signed(doc);

/**
 * `genuine` (a pdf-lib save, classic xref) with each object `forged` defines differently (or
 * anew) defined once more at its start, and its cross-reference table pointing at those: readers
 * show `forged`, pdf-lib (the later definition wins) `genuine`.
 */
function defineForgedObjectsFirst(genuine: Uint8Array, forged: Uint8Array): Uint8Array {
  const g = Buffer.from(genuine).toString('latin1');
  const genuineObjects = objectsOf(g);
  const forgedObjects = objectsOf(Buffer.from(forged).toString('latin1'));
  const headerEnd = g.indexOf('\n', g.indexOf('\n') + 1) + 1;
  let prefix = '';
  const first = new Map<number, number>();
  for (const [num, body] of forgedObjects.objects) {
    if (genuineObjects.objects.get(num) === body) continue;
    first.set(num, headerEnd + prefix.length);
    prefix += `${body}\n\n`;
  }
  const body = g.slice(0, headerEnd) + prefix + g.slice(headerEnd, genuineObjects.xrefAt);
  const size = Math.max(...genuineObjects.objects.keys(), ...forgedObjects.objects.keys()) + 1;
  let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let num = 1; num < size; num++) {
    const offset = first.get(num) ?? (genuineObjects.offsets.has(num) ? genuineObjects.offsets.get(num)! + prefix.length : undefined);
    xref += offset === undefined ? '0000000000 00000 f \n' : `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  const trailer = g.slice(g.indexOf('trailer', genuineObjects.xrefAt), g.lastIndexOf('startxref')).replace(/\/Size \d+/, `/Size ${size}`);
  return Buffer.from(`${body}${xref}${trailer}startxref\n${body.length}\n%%EOF`, 'latin1');
}

/** A pdf-lib save's objects (number → `N 0 obj … endobj`), where each starts, and where its xref is. */
function objectsOf(pdf: string): { objects: Map<number, string>; offsets: Map<number, number>; xrefAt: number } {
  const xrefAt = Number(/startxref\s+(\d+)\s*%%EOF\s*$/.exec(pdf)![1]);
  const offsets = new Map<number, number>();
  let num = 0;
  for (const [, offset, kind] of pdf.slice(xrefAt, pdf.indexOf('trailer', xrefAt)).matchAll(/(\d{10}) \d{5} ([nf])/g)) {
    if (kind === 'n') offsets.set(num, Number(offset));
    num++;
  }
  const starts = [...offsets.values(), xrefAt].sort((a, b) => a - b);
  const objects = new Map<number, string>();
  for (const [n, offset] of offsets) objects.set(n, pdf.slice(offset, starts[starts.indexOf(offset) + 1]).trimEnd());
  return { objects, offsets, xrefAt };
}
