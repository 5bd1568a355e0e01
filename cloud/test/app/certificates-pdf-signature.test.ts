import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRef, rgb, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateSigningKey } from '../../src/adapters/certificate-keys.js';
import { verifyPdf, type PdfVerdict } from '../../src/cli/certificates.js';
import { certificateFingerprint } from '../../src/domain/certificates/pdf-signing-certificate.js';
import { checkPdfSignature } from '../../src/domain/certificates/pdf-signature.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import type { CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { testFonts, testPdfSigner } from '../certificates/fixtures.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';

// Issue 20 item 4: the page a customer reads must be the page the deployment signed.

const pdfsig = (path: string) => {
  const r = spawnSync('pdfsig', [path], { encoding: 'utf8' });
  if (r.error) throw new Error('pdfsig is required: apt-get install poppler-utils');
  return `${r.stdout}${r.stderr}`;
};
const pdfText = (path: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
/** What pdfsig prints for a good signature over the whole file (any other output is a failure). */
const pdfsigAccepts = (out: string) => /Signature Validation: Signature is Valid\./.test(out) && /^\s*- Total document signed$/m.test(out);

describe('PDF signature of certificates and reports', () => {
  let cloud: CertificateCloud;
  let dir: string;
  let certificatePath: string;
  let reportPath: string;
  let jti: string;
  const verify = (path: string, flags: Record<string, string | boolean> = {}): Promise<PdfVerdict> =>
    verifyPdf(path, flags, (check) => check({ publicKeys: cloud.keys.publicKeys, pdfCertificateOnRecord: cloud.keys.pdfCertificateOnRecord }));
  const write = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  beforeAll(async () => {
    cloud = await startCertificateCloud();
    dir = mkdtempSync(join(tmpdir(), 'pades-'));
    jti = (await cloud.token((await cloud.account('Acme Refurb')).id)).jti;
    const { wipe_result_id } = await submitWipe(cloud, jti, 'job-pades-1-0');
    await cloud.drain();
    const cert = await certificateOf(cloud, wipe_result_id);
    certificatePath = write('certificate.pdf', (await cloud.store.get(cert.certificate_key!))!);
    reportPath = write('report.pdf', (await cloud.store.get(cert.report_key!))!);
  });
  afterAll(async () => {
    await cloud?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a genuine certificate and report: pdfsig says the signature is valid over the total document, verify-pdf says valid', async () => {
    for (const path of [certificatePath, reportPath]) {
      const out = pdfsig(path);
      expect(out).toContain('Signature Type: ETSI.CAdES.detached');
      expect(pdfsigAccepts(out), out).toBe(true);
      expect(execFileSync('qpdf', ['--check', path], { encoding: 'utf8' })).toContain('No syntax or stream encoding errors');
      expect(await verify(path)).toMatchObject({ valid: true });
    }
    // Page 1 of each, for a person to look at.
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', certificatePath, join(tmpdir(), 'pades-certificate')]);
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', reportPath, join(tmpdir(), 'pades-report')]);
  });

  it('a new page added to a signed certificate fails pdfsig and verify-pdf', async () => {
    const doc = await PDFDocument.load(readFileSync(certificatePath), { updateMetadata: false });
    const page = doc.addPage();
    page.drawText('Certificate CW-999999 FORGED-SERIAL', { x: 50, y: 700, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
    const path = write('forged-new-page.pdf', await doc.save({ useObjectStreams: false }));
    expect(pdfText(path)).toContain('FORGED-SERIAL');
    expect(pdfsigAccepts(pdfsig(path))).toBe(false);
    expect(await verify(path)).toMatchObject({ valid: false });
  });

  it('an incremental update that changes the page text fails pdfsig (not the total document) and verify-pdf', async () => {
    const path = write('forged-incremental.pdf', await incrementalForgery(readFileSync(certificatePath)));
    expect(pdfText(path)).toContain('FORGED-SERIAL');
    const out = pdfsig(path);
    expect(out).not.toMatch(/^\s*- Total document signed$/m);
    expect(pdfsigAccepts(out)).toBe(false);
    expect(await verify(path)).toMatchObject({ valid: false, reason: 'the signature does not cover the whole document' });
  });

  it('a text edit in place, inside the signed bytes, fails pdfsig and verify-pdf', async () => {
    const original = readFileSync(certificatePath);
    const path = write('forged-text-edit.pdf', editTextInPlace(original));
    expect(readFileSync(path).length).toBe(original.length);
    expect(pdfText(path)).not.toBe(pdfText(certificatePath)); // the visible text did change
    const out = pdfsig(path);
    expect(out).not.toContain('Signature is Valid.');
    expect(await verify(path)).toMatchObject({ valid: false, reason: 'the document was changed after it was signed' });
  });

  it('the genuine record moved into a new PDF whose page reads another number and serial is refused', async () => {
    const embedded = (await readEmbeddedCertificate(readFileSync(certificatePath)))!;
    const genuine = embedded.content as CertificateContent;
    const forgedPage = { ...genuine, certificate_number: 'CW-999999', drive: { ...genuine.drive, serial: 'FORGED-SERIAL' } };
    const fonts = testFonts();
    // Signed by a certificate the deployment never used: readers would show "valid" for it.
    const rendered = await renderCertificatePdf(forgedPage, { fonts, signature: embedded.signature, pdfSigner: testPdfSigner() });
    const doc = await PDFDocument.load(rendered, { updateMetadata: false });
    // Swap the attachment back to the genuine record: the page says CW-999999, the record CW-…1.
    const moved = await PDFDocument.create();
    doc.getPage(0).node.delete(PDFName.of('Annots')); // the old signature's widget: only the drawing moves
    for (const p of await moved.copyPages(doc, [0])) moved.addPage(p);
    await moved.attach(embedded.json, 'certificate.json', { mimeType: 'application/json' });
    await moved.attach(new TextEncoder().encode(`${embedded.signature}\n`), 'certificate.sig', { mimeType: 'text/plain' });
    const unsigned = write('moved-unsigned.pdf', await moved.save({ useObjectStreams: false }));
    expect(pdfText(unsigned)).toContain('CW-999999');
    expect(await verify(unsigned)).toMatchObject({ valid: false, reason: 'the PDF is not signed' });
    expect(await verify(unsigned, { 'public-key': cloud.keys.publicKeyBase64 })).toMatchObject({ valid: false });

    // Re-signed whole by another certificate: refused as not the deployment's; with only the
    // Ed25519 key offline, refused because the record names the deployment's PDF signer (issue 28).
    const { addSignaturePlaceholder, signPlaceholder } = await import('../../src/domain/certificates/pdf-signature.js');
    const resigned = await PDFDocument.load(await moved.save({ useObjectStreams: false }));
    addSignaturePlaceholder(resigned, { name: 'forger', reason: 'forged', signingTime: new Date() });
    const path = write('moved-resigned.pdf', await signPlaceholder(await resigned.save({ useObjectStreams: false }), testPdfSigner()));
    expect(pdfsigAccepts(pdfsig(path))).toBe(true);
    expect(await verify(path)).toMatchObject({ valid: false, reason: expect.stringContaining('this verifier does not have on record') });
    const offline = await verify(path, { 'public-key': cloud.keys.publicKeyBase64 });
    expect(offline.valid).toBe(false);
    expect(offline.reason).toMatch(/^the PDF was signed with a certificate \(SHA-256 [0-9a-f]{64}\) other than the one its signed record names/);
  });

  it('after a rotation, new PDFs are signed with a new certificate and one signed before still verifies', async () => {
    const before = checkPdfSignature(readFileSync(certificatePath));
    await rotateSigningKey(cloud.db, new Date().toISOString());
    const { wipe_result_id } = await submitWipe(cloud, jti, 'job-pades-2-0');
    await cloud.drain();
    const cert = await certificateOf(cloud, wipe_result_id);
    const after = write('after-rotation.pdf', (await cloud.store.get(cert.certificate_key!))!);
    const now = checkPdfSignature(readFileSync(after));
    if (!before.ok || !now.ok) throw new Error('both PDFs must carry a valid signature');
    expect(certificateFingerprint(now.signerCertificate)).not.toBe(certificateFingerprint(before.signerCertificate));
    expect(await verify(after)).toMatchObject({ valid: true });
    expect(await verify(certificatePath)).toMatchObject({ valid: true });
    // Offline too: the record signed before names the PDF certificate of then, which signed it.
    expect(await verify(certificatePath, { 'public-key': cloud.keys.publicKeyBase64 })).toMatchObject({ valid: true });
    expect(pdfsigAccepts(pdfsig(after))).toBe(true);
  });
});

/**
 * Appends an incremental update (new objects, a new xref section and trailer with /Prev) that
 * draws forged text on page 1, leaving every signed byte as it was.
 */
async function incrementalForgery(signed: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(signed, { updateMetadata: false });
  const firstNew = doc.context.largestObjectNumber + 1;
  const page = doc.getPage(0);
  page.drawRectangle({ x: 40, y: 690, width: 520, height: 40, color: rgb(1, 1, 1) });
  page.drawText('CW-999999 FORGED-SERIAL', { x: 50, y: 700, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  await doc.flush();
  const changed = doc.context.enumerateIndirectObjects().filter(([ref]) => ref.objectNumber >= firstNew || ref === page.ref);
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(Buffer.from(signed).toString('latin1'))![1]);
  const parts: Buffer[] = [Buffer.from(signed), Buffer.from('\n')];
  let offset = signed.length + 1;
  const offsets: [number, number][] = [];
  for (const [ref, object] of changed) {
    const body = new Uint8Array(object.sizeInBytes());
    object.copyBytesInto(body, 0);
    const chunk = Buffer.concat([Buffer.from(`${ref.objectNumber} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    offsets.push([ref.objectNumber, offset]);
    parts.push(chunk);
    offset += chunk.length;
  }
  const xref = ['xref', ...offsets.flatMap(([n, at]) => [`${n} 1`, `${String(at).padStart(10, '0')} 00000 n `])].join('\n');
  const info = doc.context.trailerInfo.Info as PDFRef;
  const root = doc.context.trailerInfo.Root as PDFRef;
  const trailer = `trailer\n<< /Size ${doc.context.largestObjectNumber + 1} /Root ${root.toString()} /Info ${info.toString()} /Prev ${prev} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(`${xref}\n${trailer}`));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * A hex editor's forgery: page 1's content stream inflated, two text strings of the same length
 * swapped (the page now reads differently), deflated again into the same number of bytes, so
 * the file keeps its length and every offset.
 */
function editTextInPlace(signed: Buffer): Buffer {
  const text = signed.toString('latin1');
  const doc = { text };
  const streams = [...doc.text.matchAll(/\/Filter \/FlateDecode[^>]*>>\s*stream\n/g)];
  for (const match of streams) {
    const start = match.index + match[0].length;
    const length = Number(/\/Length (\d+)/.exec(match[0])?.[1] ?? NaN);
    if (!Number.isFinite(length)) continue;
    let content: string;
    try {
      content = inflateSync(signed.subarray(start, start + length)).toString('latin1');
    } catch {
      continue;
    }
    const shows = [...content.matchAll(/<([0-9A-Fa-f]{8,})> Tj/g)];
    const pair = shows.flatMap((a) => shows.filter((b) => b[1]!.length === a[1]!.length && b[1] !== a[1]).map((b) => [a, b] as const))[0];
    if (!pair) continue;
    const [a, b] = pair;
    const edited = content.replace(`<${a[1]}> Tj`, '\u0000').replace(`<${b[1]}> Tj`, `<${a[1]}> Tj`).replace('\u0000', `<${b[1]}> Tj`);
    const packed = deflateSync(Buffer.from(edited, 'latin1'), { level: 9 });
    if (packed.length > length) continue;
    const out = Buffer.from(signed);
    Buffer.concat([packed, Buffer.alloc(length - packed.length)]).copy(out, start);
    return out;
  }
  throw new Error('no content stream with two text strings of the same length');
}
