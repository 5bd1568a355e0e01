import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';

// Page PNGs land here to be looked at (issue 23: before and after); test-results/ is not committed.
const OUT_DIR = fileURLToPath(new URL('../../../test-results/certificates/', import.meta.url));
const PREFIX = process.env.CERT_PNG_PREFIX ?? 'after';
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

// The small USB stick the issue was filed with: 64 MiB, so whole gigabytes on the wire say 0.
const SMALL_DRIVE_BYTES = 67_108_864;
const RESULT =
  'Passed: every one of the 131,072 sectors was read back after the final pass and matched the expected zero pattern; ' +
  'the read-back hash below was computed over the re-read bytes; no sector reported a read error, and SMART showed no new reallocations after the wipe.';

describe('certificate and Erasure Report content (issue 23)', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();
  const content = sampleContent({
    account_name: 'Demo Refurbishing',
    customer: 'Northwind Schools',
    lot_reference: 'LOT-2026-11-042',
    drive: { manufacturer: null, model: 'SanDisk Cruzer Blade', serial: '4C530001230914117354', capacity_gb: 0, media_type: 'USB flash' },
    verification: { method: 'Read-back, SHA-256 over the re-read bytes', result: RESULT, hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    // A USB stick is overwritten, not crypto erased: no key evidence (issue 29).
    wipe: { ...sampleContent().wipe, method: 'NIST 800-88 R2 Clear', technique: 'Overwrite, single pass with verification', nist_category: 'Clear', passes_completed: 1 },
    crypto_erase_evidence: null,
  });
  const signature = signContent(privateKey, content);
  const base = sampleReport(content, signature);
  const report = {
    ...base,
    wipeResult: { ...base.wipeResult, drive_model: 'SanDisk Cruzer Blade', drive_serial: '4C530001230914117354', drive_capacity_gb: 0, verification_result: RESULT },
    fingerprint: {
      ...base.fingerprint,
      storage: [{ model: 'SanDisk Cruzer Blade', serial: '4C530001230914117354', size_bytes: SMALL_DRIVE_BYTES, media_type: 'USB flash' }],
    },
  };
  const dir = mkdtempSync(join(tmpdir(), 'issue23-pdf-'));
  let certText = '';
  let reportText = '';
  let reportPages: string[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the PDF and page-1 PNG, returns pdftotext's text per page. */
  const render = (name: string, bytes: Uint8Array): string[] => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    mkdirSync(OUT_DIR, { recursive: true });
    run('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', path, join(OUT_DIR, `${PREFIX}-${name}`)]);
    return run('pdftotext', ['-enc', 'UTF-8', '-layout', path, '-']).split('\f');
  };

  beforeAll(async () => {
    certText = render('certificate', await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() })).join('\n');
    reportPages = render('report', await renderErasureReportPdf(report, { fonts, pdfSigner: testPdfSigner() }));
    reportText = reportPages.join('\n');
  });

  const flat = (s: string) => s.replace(/\s+/g, ' ');

  test('the certificate says the account processed the drive, not that it owns it', () => {
    expect(flat(certText)).toContain('processed by Demo Refurbishing');
    expect(certText).not.toContain('owned by');
  });

  test('both documents name the customer and the lot / job reference', () => {
    for (const text of [certText, reportText]) {
      expect(flat(text)).toContain('Northwind Schools');
      expect(flat(text)).toContain('LOT-2026-11-042');
    }
  });

  test('a drive under 1 GB prints as "< 1 GB", never "0 GB", and the report gives its exact bytes', () => {
    expect(certText).toContain('< 1 GB');
    expect(certText).not.toMatch(/\b0 GB/);
    expect(reportText).not.toMatch(/\b0 GB/);
    expect(reportText).not.toContain('MiB');
    expect(flat(reportPages[0] ?? '')).toContain('< 1 GB · 67,108,864 bytes');
  });

  test('the certificate prints the whole verification result, not a cut one', () => {
    expect(flat(certText)).toContain(flat(RESULT));
    // The v4 page (issue 29) carries more fields, and long ones (tool components) may be cut there
    // with "…"; the verification result is kept whole before them.
    expect(certText).not.toContain('continued in the Erasure Report');
  });

  test('the drive manufacturer is derived from the model when the record has none', () => {
    // "SanDisk" on its own, not only as the start of the model "SanDisk Cruzer Blade".
    expect(certText).toMatch(/SanDisk(?! Cruzer)/);
    expect(reportPages[0] ?? '').toMatch(/SanDisk(?! Cruzer)/);
  });

  test('the asset id is printed whole on one line', () => {
    expect(certText).toContain('asset_9q8w7e6r5t4y3u2i1o0p');
  });

  test('the wipe result table has no wire names; an appendix for auditors lists them', () => {
    const appendixAt = reportText.indexOf('APPENDIX: WIRE NAMES');
    expect(appendixAt).toBeGreaterThan(0);
    expect(reportText.slice(0, appendixAt)).not.toContain('WIRE NAME');
    expect(reportText.slice(0, appendixAt)).not.toContain('drive_capacity_gb');
    expect(reportText.slice(appendixAt)).toContain('drive_capacity_gb');
    expect(reportText.slice(appendixAt)).toContain('verification_result');
  });
});

describe('a verification result too long for the certificate', () => {
  test('is cut at a word with a pointer to the Erasure Report, which prints it in full', async () => {
    const fonts = testFonts();
    const { privateKey } = testKeys();
    const long = `${RESULT} `.repeat(4).trim();
    const content = sampleContent({ verification: { method: null, result: long, hash: null } });
    const signature = signContent(privateKey, content);
    const dir = mkdtempSync(join(tmpdir(), 'issue23-long-'));
    try {
      const certPath = join(dir, 'c.pdf');
      const reportPath = join(dir, 'r.pdf');
      writeFileSync(certPath, await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() }));
      writeFileSync(reportPath, await renderErasureReportPdf({ ...sampleReport(content, signature), certificate: content }, { fonts, pdfSigner: testPdfSigner() }));
      expect(run('qpdf', ['--show-npages', certPath]).trim()).toBe('1');
      expect(run('pdftotext', [certPath, '-']).replace(/\s+/g, ' ')).toContain('(continued in the Erasure Report, section Verification)');
      expect(run('pdftotext', [reportPath, '-']).replace(/\s+/g, ' ')).toContain(long);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
