import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { addSignaturePlaceholder, checkPdfSignature, signPlaceholder } from './pdf-signature.js';
import { certificateFingerprint, generateSelfSignedPdfSigner, type PdfSigner } from './pdf-signing-certificate.js';

async function signedPdf(signer: PdfSigner, pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`page ${i + 1}`, { x: 20, y: 100 });
  addSignaturePlaceholder(doc, { name: 'test', reason: 'test', signingTime: new Date('2026-01-01T00:00:00Z') });
  return signPlaceholder(await doc.save({ useObjectStreams: false }), signer);
}

describe('PDF signature (PAdES)', () => {
  let signer: PdfSigner;
  let pdf: Uint8Array;
  beforeAll(async () => {
    signer = generateSelfSignedPdfSigner({ commonName: 'unit test', now: new Date('2026-01-01T00:00:00Z') });
    pdf = await signedPdf(signer);
  });

  it('holds over the whole file and names the certificate that made it', () => {
    const check = checkPdfSignature(pdf);
    expect(check.ok && certificateFingerprint(check.signerCertificate)).toBe(certificateFingerprint(signer.certificates[0]!));
  });

  it('signs the same bytes twice the same way (re-renders stay identical)', async () => {
    expect(Buffer.from(await signedPdf(signer)).equals(Buffer.from(pdf))).toBe(true);
  });

  it('fails when bytes are appended after signing', () => {
    const longer = new Uint8Array([...pdf, ...new TextEncoder().encode('\n% appended\n')]);
    expect(checkPdfSignature(longer)).toEqual({ ok: false, reason: 'the signature does not cover the whole document' });
  });

  it('fails when a signed byte changes', () => {
    const edited = new Uint8Array(pdf);
    const at = Buffer.from(edited).indexOf('/MediaBox [ 0 0 200 200 ]');
    expect(at).toBeGreaterThan(0);
    edited[at + 19] = '9'.charCodeAt(0); // the page is now 900 points wide
    expect(checkPdfSignature(edited)).toEqual({ ok: false, reason: 'the document was changed after it was signed' });
  });

  it('fails on a PDF that carries a second signature', async () => {
    const again = await PDFDocument.load(pdf, { updateMetadata: false });
    addSignaturePlaceholder(again, { name: 'other', reason: 'other', signingTime: new Date('2026-01-02T00:00:00Z') });
    const twice = await signPlaceholder(await again.save({ useObjectStreams: false }), signer);
    expect(checkPdfSignature(twice)).toEqual({ ok: false, reason: 'the PDF carries more than one signature' });
  });

  it('fails on a PDF without a signature', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    expect(checkPdfSignature(await doc.save())).toEqual({ ok: false, reason: 'the PDF is not signed' });
  });
});
