import { generateKeyPairSync } from 'node:crypto';
import { PDFDocument, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { cachingFontkit } from '../../src/domain/certificates/fonts.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { sampleContent, testFonts, testPdfSigner } from './fixtures.js';

// Issue 28: the certificate's page is regenerated from its signed record and compared as drawn.

describe('certificate page check', () => {
  const content = sampleContent(); // account and operator in Greek, Japanese, Arabic and Cyrillic
  const signature = signContent(generateKeyPairSync('ed25519').privateKey, content);

  it('a certificate in every script regenerates to the very page it was rendered with', async () => {
    const pdf = await renderCertificatePdf(content, { fonts: testFonts(), signature, pdfSigner: testPdfSigner() });
    expect(await certificatePageDifference(pdf, content, signature, testFonts())).toBeNull();
  });

  it('one more glyph in white 2-pt text, a signature of another record, or an annotation that draws, is a different page', async () => {
    const pdf = await renderCertificatePdf(content, { fonts: testFonts(), signature, pdfSigner: testPdfSigner() });
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    doc.registerFontkit(cachingFontkit(testFonts()) as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
    doc.getPage(0).drawText('X', { x: 10, y: 10, size: 2, color: rgb(1, 1, 1), font: await doc.embedFont(testFonts().regular[0]!.bytes) });
    expect(await certificatePageDifference(await doc.save(), content, signature, testFonts())).toMatch(/does not draw what the signed record renders to/);

    const other = signContent(generateKeyPairSync('ed25519').privateKey, content);
    expect(await certificatePageDifference(pdf, content, other, testFonts())).toMatch(/does not draw/); // its fingerprint is printed

    const annotated = await PDFDocument.load(pdf, { updateMetadata: false });
    const page = annotated.getPage(0);
    const note = annotated.context.register(annotated.context.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [50, 600, 400, 640], Contents: 'FORGED-SERIAL', DA: '/Helv 14 Tf 0 g' }));
    page.node.addAnnot(note);
    expect(await certificatePageDifference(await annotated.save(), content, signature, testFonts())).toMatch(/annotation that draws over it \(FreeText\)/);
  });

  // Issue 31 item 7 part B: the record is language-neutral, the page is drawn in one of four languages.
  it.each(['de', 'fr', 'es'] as const)('a certificate drawn in %s regenerates to the very page it was rendered with', async (language) => {
    const pdf = await renderCertificatePdf(content, { fonts: testFonts(), signature, pdfSigner: testPdfSigner(), language });
    expect(await certificatePageDifference(pdf, content, signature, testFonts())).toBeNull();
  });

  it('a translated page with one glyph added matches no language and fails closed', async () => {
    const pdf = await renderCertificatePdf(content, { fonts: testFonts(), signature, pdfSigner: testPdfSigner(), language: 'de' });
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    doc.registerFontkit(cachingFontkit(testFonts()) as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
    doc.getPage(0).drawText('X', { x: 10, y: 10, size: 2, color: rgb(1, 1, 1), font: await doc.embedFont(testFonts().regular[0]!.bytes) });
    expect(await certificatePageDifference(await doc.save(), content, signature, testFonts())).toMatch(/does not draw what the signed record renders to in any of its languages \(en, de, fr, es\)/);
  });

  it('a v3 record keeps the English page it was issued with, whatever language is asked for', async () => {
    const v3 = { ...content, schema: 'erasure-certificate/v3' as const };
    const v3Signature = signContent(generateKeyPairSync('ed25519').privateKey, v3);
    const english = await renderCertificatePdf(v3, { fonts: testFonts(), signature: v3Signature, pdfSigner: testPdfSigner() });
    const asked = await renderCertificatePdf(v3, { fonts: testFonts(), signature: v3Signature, pdfSigner: testPdfSigner(), language: 'fr' });
    expect(await certificatePageDifference(asked, v3, v3Signature, testFonts())).toBeNull();
    expect(await certificatePageDifference(english, v3, v3Signature, testFonts())).toBeNull();
  });
});
