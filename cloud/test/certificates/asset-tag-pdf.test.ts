import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { signContent, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { pdfFiles, runTool as run } from './pdf-files.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';
import { missingVisibleFacts } from '../../src/domain/certificates/visible-text.js';

// Issue 31 item 6: the asset tag a technician scans at the kiosk lands on both PDFs (record v5);
// a v4 record, which never had one, keeps the page it was issued with.


describe('the asset tag on the certificate and the Erasure Report', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();

  const render = pdfFiles('asset-tag-pdf');
  const certificate = async (content: CertificateContent) => {
    const signature = signContent(privateKey, content);
    return { signature, bytes: await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() }) };
  };
  const tagged = sampleContent({ customer: 'Northwind Schools', lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' });

  test('a v5 record with an asset tag prints it beside the lot, on one page, and the page verifies', async () => {
    const { bytes, signature } = await certificate(tagged);
    const { path, text } = render('certificate-asset-tag', bytes);
    expect(run('qpdf', ['--show-npages', path]).trim()).toBe('1');
    expect(text).toContain('LOT / JOB REFERENCE · ASSET TAG');
    expect(text).toContain('LOT-2026-11-077 · AT-004211');
    expect(await certificatePageDifference(bytes, tagged, signature, fonts)).toBeNull();
  });

  test('an asset tag alone, with no customer or lot, is printed too', async () => {
    const alone = sampleContent({ asset_tag: 'AT-77' });
    const { bytes, signature } = await certificate(alone);
    const { text } = render('certificate-asset-tag-alone', bytes);
    expect(text).toContain('— · AT-77');
    expect(await certificatePageDifference(bytes, alone, signature, fonts)).toBeNull();
  });

  test('the Erasure Report of a v5 record prints the asset tag in its summary', async () => {
    const signature = signContent(privateKey, tagged);
    const { text } = render('report-asset-tag', await renderErasureReportPdf(sampleReport(tagged, signature), { fonts, pdfSigner: testPdfSigner() }));
    expect(text).toContain('ASSET TAG');
    expect(text).toContain('AT-004211');
  });

  test('a v4 record, which has no asset tag, draws the page it was issued with and still verifies', async () => {
    const { asset_tag: _tag, ...v4 } = sampleContent({ schema: 'erasure-certificate/v4', customer: 'Northwind Schools', lot_reference: 'LOT-1' });
    const { bytes, signature } = await certificate(v4);
    const { text } = render('certificate-v4-no-asset-tag', bytes);
    expect(text).not.toContain('ASSET TAG');
    expect(await certificatePageDifference(bytes, v4, signature, fonts)).toBeNull();
  });

  test('a page that shows an asset tag its signed record does not hold fails the page check', async () => {
    const { bytes } = await certificate(tagged);
    const { asset_tag: _tag, ...untagged } = tagged;
    const signature = signContent(privateKey, untagged);
    expect(await certificatePageDifference(bytes, untagged, signature, fonts)).not.toBeNull();
  });
});

describe('values cut short on the v5 page keep as much text as fits', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();
  const dir = mkdtempSync(join(tmpdir(), 'clamp-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a crowded page still shows the drive model verify-pdf looks for, and its page check passes', async () => {
    // The fullest sample: a three-script account name and crypto erase evidence push values to one line each.
    const content = sampleContent();
    const signature = signContent(privateKey, content);
    const bytes = await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() });
    const path = join(dir, 'crowded.pdf');
    writeFileSync(path, bytes);
    expect(missingVisibleFacts(run('pdftotext', ['-enc', 'UTF-8', path, '-']), content)).toEqual([]);
    expect(await certificatePageDifference(bytes, content, signature, fonts)).toBeNull();
  });
});
