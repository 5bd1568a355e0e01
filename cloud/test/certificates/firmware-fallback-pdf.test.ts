import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';

const SCREENS_DIR = fileURLToPath(new URL('../../../test-results/screens/', import.meta.url));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

// What the engine agent sends for an NVMe drive whose Format reported success without erasing
// (issue 21): the firmware step disproved by its test patterns, then the overwrite that followed.
const TECHNIQUE = 'Overwrite, single pass with verification, after NVMe Format, User Data Erase (SES=1) failed its check';
const RESULT =
  'Firmware erase failed: overwritten. NVMe Format, User Data Erase (SES=1) reported success (format with SES=1 reported success), but 256 of 256 test patterns written before the erase were still there after it (the first at LBA 0), so the drive did not erase itself. ' +
  'Overwrite: full verification: all 512110190592 bytes read back (O_DIRECT reads after fdatasync) match the zeros of pass 1; afterwards the whole drive was discarded (TRIM, blkdiscard) so it reaches its next owner at full write speed; the discard is not part of the sanitization';
const COMPONENTS =
  'erasure-agent 1.4.2; test patterns: direct-I/O write and read-back of 256 random blocks before the firmware erase, read again after it; nvme format /dev/nvme0n1 --ses=1 --force; direct-I/O write of every LBA; blkdiscard /dev/nvme0n1';

describe('the certificate and Erasure Report of a firmware erase its test patterns disproved', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();
  const content = sampleContent({
    wipe: { method: 'NIST 800-88 R2 Clear', technique: TECHNIQUE, nist_category: 'Clear', passes_completed: 1, started_at: '2026-11-22T13:01:02Z', completed_at: '2026-11-22T13:49:12Z' },
    tool: { name: 'Erasure Engine', version: '1.4.2', components: COMPONENTS },
    verification: { method: 'Read-back, SHA-256 over the re-read bytes', result: RESULT, hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
  });
  const signature = signContent(privateKey, content);
  const dir = mkdtempSync(join(tmpdir(), 'fallback-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Renders, writes the PDF and a PNG of each page to the screens folder, returns the PDF's text. */
  const render = async (name: string, bytes: Uint8Array) => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    mkdirSync(SCREENS_DIR, { recursive: true });
    run('pdftoppm', ['-png', '-r', '80', path, join(SCREENS_DIR, name)]);
    return { path, text: run('pdftotext', ['-enc', 'UTF-8', path, '-']).replace(/\s+/g, ' ') };
  };

  test('the certificate says Clear and that the firmware erase failed and an overwrite followed, on one page', async () => {
    const { path, text } = await render('certificate-firmware-disproved', await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() }));
    expect(run('qpdf', ['--show-npages', path]).trim()).toBe('1');
    expect(text).toContain('CLEAR');
    expect(text).not.toContain('PURGE');
    // The certificate prints the first line of the result: the failed firmware step and the overwrite.
    expect(text).toMatch(/Firmware erase failed: overwritten\. /);
  });

  test('the Erasure Report prints both steps and whether the discard was done', async () => {
    const report = sampleReport(content, signature);
    const wipeResult = { ...report.wipeResult, wipe_method: 'NIST 800-88 R2 Clear', technique: TECHNIQUE, passes_completed: 1, tool_components: COMPONENTS, verification_result: RESULT };
    const { text } = await render('report-firmware-disproved', await renderErasureReportPdf({ ...report, wipeResult }, { fonts, pdfSigner: testPdfSigner() }));
    expect(text).toContain('NIST 800-88 R2 Clear');
    expect(text).toContain('256 of 256 test patterns written before the erase were still there after it');
    expect(text).toContain('nvme format /dev/nvme0n1 --ses=1 --force');
    expect(text).toContain('the whole drive was discarded (TRIM, blkdiscard)');
    expect(text).toContain('the discard is not part of the sanitization');
  });
});
