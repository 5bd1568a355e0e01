import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import type { Branding } from '../../src/domain/branding/branding.js';
import { checkLogo } from '../../src/domain/branding/branding.js';
import { signContent, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { paintDocument } from '../../src/domain/certificates/pdf-document.js';
import { layoutCertificatePage, renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { pdfFiles, runTool as run } from './pdf-files.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';
import { testLogoPng } from './logo-fixture.js';

// Issue 31 item 7: an account's logo and company details at the top of its certificate and
// report, beside its name; the page still redraws from the signed record (plus the attached
// branding) operation for operation, and the signer stays the deployment.


const logo = (() => {
  const checked = checkLogo(testLogoPng());
  if (!checked.ok) throw new Error(checked.error);
  return checked.value;
})();
const BRANDING: Branding = {
  details: { company_name: 'Acme Refurbishing GmbH', address_lines: ['Hafenstraße 12', '20457 Hamburg, Germany'], contact: 'certs@acme.test · +49 40 123456' },
  logo,
};

/** The sample as a v3 record: the Rev. 1 page, without the fields v4 added. */
function v3Content(): CertificateContent {
  const { wipe, crypto_erase_evidence: _e, validation_status: _v, ...rest } = sampleContent();
  const { standard: _s, ...v3Wipe } = wipe;
  return { ...rest, schema: 'erasure-certificate/v3', wipe: v3Wipe };
}

describe('a branded certificate and report', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();

  const render = pdfFiles('branding-pdf');

  test.each([
    ['a v4 record (Rev. 2 page)', sampleContent()],
    ['a v3 record (Rev. 1 page)', v3Content()],
  ])('%s: logo and details at the top, on one page, signed by the deployment, and the page redraws from the record', async (_name, content) => {
    const signature = signContent(privateKey, content);
    const bytes = await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner(), branding: BRANDING });
    const name = content.schema.endsWith('v4') ? 'certificate-branded' : 'certificate-branded-v3';
    const { path, text } = render(name, bytes);
    expect(run('qpdf', ['--show-npages', path]).trim()).toBe('1');
    expect(spawnSync('pdfsig', [path], { encoding: 'utf8' }).stdout).toMatch(/Signature is Valid\./);
    for (const line of ['Acme Refurbishing GmbH', 'Hafenstraße 12 · 20457 Hamburg, Germany', 'certs@acme.test · +49 40 123456']) expect(text).toContain(line);
    // The signer stays the deployment; the product's name left the header for the account's.
    expect(text).toMatch(/SIGNED BY .*Erasure Cloud/);
    expect(text).not.toContain('ERASURE CLOUD');
    expect(run('pdfimages', ['-list', path])).toMatch(/\n\s+1\s+0 image\s+240\s+80 /);
    expect(await certificatePageDifference(bytes, content, signature, fonts)).toBeNull();
  });

  test('a page drawn with a branding the file does not carry is not the genuine page', async () => {
    const content = sampleContent();
    const signature = signContent(privateKey, content);
    // The branded drawing, without the attachment that says what it was drawn with.
    const frame = layoutCertificatePage(content, { fonts, signature, branding: BRANDING });
    const bytes = await paintDocument(frame, content, signature, { title: 'x', subject: 'x', keywords: [] }, testPdfSigner(), null);
    expect(await certificatePageDifference(bytes, content, signature, fonts)).toBe('the page does not draw what the signed record renders to in any of its languages (en, de, fr, es)');
    // And the other way round: an unbranded page that claims a branding.
    const plain = await paintDocument(layoutCertificatePage(content, { fonts, signature }), content, signature, { title: 'x', subject: 'x', keywords: [] }, testPdfSigner(), BRANDING);
    expect(await certificatePageDifference(plain, content, signature, fonts)).toBe('the page does not draw what the signed record renders to in any of its languages (en, de, fr, es)');
  });

  test('a v2 record with a branding attached is refused: nothing would vouch for it', async () => {
    const content = sampleContent({ schema: 'erasure-certificate/v2' } as Partial<CertificateContent>);
    const signature = signContent(privateKey, content);
    const bytes = await paintDocument(layoutCertificatePage(content, { fonts, signature, branding: BRANDING }), content, signature, { title: 'x', subject: 'x', keywords: [] }, testPdfSigner(), BRANDING);
    expect(await certificatePageDifference(bytes, content, signature, fonts)).toMatch(/certificates of its record version never had/);
  });

  test('the Erasure Report opens with the logo and details above its title', async () => {
    const content = sampleContent();
    const signature = signContent(privateKey, content);
    const bytes = await renderErasureReportPdf(sampleReport(content, signature), { fonts, pdfSigner: testPdfSigner(), branding: BRANDING });
    const { text } = render('report-branded', bytes);
    expect(text.indexOf('Acme Refurbishing GmbH')).toBeLessThan(text.indexOf('Erasure Report'));
    expect(text).toContain('Hafenstraße 12 · 20457 Hamburg, Germany');
  });
});
