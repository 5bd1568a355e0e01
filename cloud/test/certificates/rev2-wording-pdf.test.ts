import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { buildCertificateContent } from '../../src/domain/certificates/build-content.js';
import { signContent, type CertificateContent } from '../../src/domain/certificates/certificate-content.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { pdfFiles, runTool as run } from './pdf-files.js';
import { sampleContent, sampleReport, SAMPLE_COMPONENTS, testFonts, testKeys, testPdfSigner } from './fixtures.js';

// Issue 29 item 4: NIST SP 800-88 Rev. 2 / IEEE 2883-2022 wording on a v4 certificate and report,
// the Rev. 1 Appendix G fields that still apply, and for a crypto erase what shows the key changed.

const pdfsig = (path: string) => spawnSync('pdfsig', [path], { encoding: 'utf8' }).stdout;

// What the methods branch sends for a named overwrite method on an SSD (the record renders whatever it says).
const DOD_RECORD = {
  job_id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b-1',
  drive_serial: 'S3Z9NB0K654321',
  drive_model: 'Samsung SSD 860 EVO 500GB',
  drive_capacity_gb: 500,
  wipe_method: 'DoD 5220.22-M (3 passes)',
  passes_completed: 3,
  started_at: '2026-11-22T13:01:02Z',
  completed_at: '2026-11-22T14:21:40Z',
  verification_hash: 'ab'.repeat(32),
  technique: 'IEEE 2883 Clear by overwrite through the SATA write path: direct-I/O write of every LBA, 3 passes (0x00, 0xFF, random)',
  disposition: 'sanitized',
  markings_removed: false,
  tool_components: 'erasure-agent 1.4.2; hdparm v9.65; kernel 6.1.0-27-amd64; direct-I/O write of every LBA',
  verification_result: 'Full verification: every sector of pass 3 read back as written (500,107,862,016 bytes)',
};

describe('the v4 certificate and report in NIST SP 800-88 Rev. 2 / IEEE 2883 words', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();

  const render = pdfFiles('rev2-pdf', { allPages: true });
  const certificate = async (content: CertificateContent) => {
    const signature = signContent(privateKey, content);
    return { signature, bytes: await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() }) };
  };

  test('a crypto erase certificate names the level, the standard, the Appendix G fields and what shows the key was changed, on one page', async () => {
    const content = sampleContent();
    const { bytes, signature } = await certificate(content);
    const { path, text } = render('certificate-rev2-crypto-erase', bytes);
    expect(run('qpdf', ['--check', path])).toContain('No syntax or stream encoding errors');
    expect(run('qpdf', ['--show-npages', path]).trim()).toBe('1');
    expect(pdfsig(path)).toMatch(/Signature is Valid\./);
    expect(text).toContain('was sanitized to the Purge level of NIST SP 800-88 Rev. 2 by the IEEE 2883-2022 technique recorded, verified to have completed as intended.');
    expect(text).toContain('Meets Purge (NIST SP 800-88 Rev. 2) with an IEEE 2883-2022 Purge technique for NVMe.');
    for (const label of ['MEDIA TYPE', 'MEDIA SOURCE', 'SANITIZATION LEVEL', 'TOOL USED AND VERSION', 'VERIFICATION METHOD', 'POST-SANITIZATION DISPOSITION', 'PERSON (OPERATOR)', 'SIGNED AT']) {
      expect(text).toContain(label);
    }
    expect(text).toContain('CRYPTO ERASE: COMMAND THAT CHANGED THE KEY');
    expect(text).toContain('CRYPTO ERASE: MARKER READ-BACK AFTER IT');
    expect(text).toContain('nvme sanitize /dev/nvme0n1 --sanact=4');
    expect(text).toContain('256 of 256 test patterns written before the erase were gone after it');
    expect(text).toContain('hdparm v9.65');
    // Rev. 2: the engine's read-back is verification; validation is never claimed at issue.
    expect(text).toContain('VERIFICATION (THE TECHNIQUE COMPLETED AS INTENDED) AND VALIDATION');
    expect(text).toContain('Not validated when issued');
    expect(text).not.toMatch(/NIST 800-88 CATEGORY/);
    expect(await certificatePageDifference(bytes, content, signature, fonts)).toBeNull();
  });

  test('a named overwrite method on an SSD says Clear and the standard it follows, and no key evidence', async () => {
    const content = buildCertificateContent({
      certificate: { public_id: 'cert_4k2m9x0q7w1e5r8t3y6v', certificate_number: 'CW-000043' },
      wipe: { public_id: 'wr_8h3j5k7l9z1x2c4v6b0m', record: DOD_RECORD },
      accountName: 'Ωmega Recyclers',
      operator: 'Ivan Petrov',
      machine: null,
      signedAt: '2026-11-22T14:22:00Z',
      publicBaseUrl: 'https://erasure.example.com',
      pdfSignerSha256: null,
    });
    expect(content).toMatchObject({ schema: 'erasure-certificate/v5', wipe: { nist_category: 'Clear', standard: 'US DoD 5220.22-M (NISPOM 1995) §8-306' }, crypto_erase_evidence: null });
    const { bytes } = await certificate(content);
    const { text } = render('certificate-rev2-dod-3-pass', bytes);
    expect(text).toContain('DoD 5220.22-M (3 passes)');
    expect(text).toContain('The method follows US DoD 5220.22-M (NISPOM 1995) §8-306. It meets Clear (NIST SP 800-88 Rev. 2) with an IEEE 2883-2022 Clear technique for SATA.');
    expect(text).not.toContain('PURGE');
    expect(text).not.toContain('CRYPTO ERASE');
  });

  test('a crypto erase its markers disproved, followed by an overwrite, claims Clear and no key change', () => {
    const content = buildCertificateContent({
      certificate: { public_id: 'cert_4k2m9x0q7w1e5r8t3y6w', certificate_number: 'CW-000044' },
      wipe: {
        public_id: 'wr_8h3j5k7l9z1x2c4v6b0p',
        record: { ...DOD_RECORD, wipe_method: 'HMG IS5 Enhanced', technique: 'Overwrite, 3 passes with verification, after NVMe Sanitize, Crypto Erase failed its check', tool_components: SAMPLE_COMPONENTS },
      },
      accountName: 'Ωmega Recyclers',
      operator: null,
      machine: null,
      signedAt: '2026-11-22T14:22:00Z',
      publicBaseUrl: 'https://erasure.example.com',
      pdfSignerSha256: null,
    });
    expect(content.wipe.nist_category).toBe('Clear');
    expect(content.crypto_erase_evidence).toBeNull();
  });

  test('a v3 record still renders the Rev. 1-worded page it was issued with', async () => {
    const v3 = sampleContent({ schema: 'erasure-certificate/v3' });
    const { text } = render('certificate-v3-rev1-layout', (await certificate(v3)).bytes);
    expect(text).toContain('to the NIST SP 800-88 Purge level and that the result was verified as recorded');
    expect(text).toContain('NIST 800-88 CATEGORY');
    expect(text).not.toContain('Rev. 2');
  });

  test('the Erasure Report of a v4 record uses the Rev. 2 words and prints the key evidence and the standard', async () => {
    const content = sampleContent();
    const signature = signContent(privateKey, content);
    const { path, text } = render('report-rev2-crypto-erase', await renderErasureReportPdf(sampleReport(content, signature), { fonts, pdfSigner: testPdfSigner() }));
    expect(run('qpdf', ['--check', path])).toContain('No syntax or stream encoding errors');
    expect(text).toContain('Purge (NIST SP 800-88 Rev. 2)');
    expect(text).toContain('Meets Purge (NIST SP 800-88 Rev. 2) with an IEEE 2883-2022 Purge technique for NVMe.');
    expect(text).toContain('nvme sanitize /dev/nvme0n1 --sanact=4');
    expect(text).toContain('Not validated when issued');
  });
});
