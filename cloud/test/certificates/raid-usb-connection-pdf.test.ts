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

// What the engine agent sends (issue 30 items 3 and 5): the connection line first, then the
// erase's own verification (engine-agent/src/session/wipe-result.ts).
const RAID =
  'RAID virtual disk (MegaRAID) spanning ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB); WD4000FYYX (serial WD-WCC131234567, 4001 GB): this erases the virtual disk, not the physical drives as such. ' +
  'Overwrite: full verification: all 959119884288 bytes read back (O_DIRECT reads after fdatasync) match the zeros of pass 1';
const USB =
  'Connected through: ASMedia ASM2362 USB bridge (174c:2362); firmware erase not passed through: the bridge passes NVMe admin commands for SMART and identify only, not Format NVM or Sanitize; the plan falls back to an overwrite of every sector. ' +
  'Overwrite: full verification: all 2000398934016 bytes read back (O_DIRECT reads after fdatasync) match the zeros of pass 1';

describe('the certificate and Erasure Report of a RAID virtual disk and of a drive in a USB dock', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();
  const dir = mkdtempSync(join(tmpdir(), 'connection-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const contentFor = (result: string, model: string, serial: string) =>
    sampleContent({
      drive: { ...sampleContent().drive, model, serial },
      wipe: { method: 'NIST 800-88 R2 Clear', technique: 'Overwrite, single pass with verification', nist_category: 'Clear', passes_completed: 1, started_at: '2026-11-22T13:01:02Z', completed_at: '2026-11-22T13:49:12Z' },
      verification: { method: 'Read-back, SHA-256 over the re-read bytes', result, hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    });

  /** Renders, writes the PDF and a PNG of each page to the screens folder, returns the PDF's text. */
  const render = async (name: string, bytes: Uint8Array) => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    mkdirSync(SCREENS_DIR, { recursive: true });
    run('pdftoppm', ['-png', '-r', '80', path, join(SCREENS_DIR, name)]);
    return run('pdftotext', ['-enc', 'UTF-8', path, '-']).replace(/\s+/g, ' ');
  };

  test("a virtual disk's certificate says it is a RAID virtual disk and names the physical disks it spans", async () => {
    const content = contentFor(RAID, 'MR9361-16i', '00574c0df553f2000000349c07b26200');
    const text = await render('certificate-raid-virtual-disk', await renderCertificatePdf(content, { fonts, signature: signContent(privateKey, content), pdfSigner: testPdfSigner() }));
    // The result's head is printed even when the page leaves it one line: the marker is never cut away.
    expect(text).toContain('RESULT RAID virtual disk (MegaRAID) spanning');
  });

  test("a virtual disk's Erasure Report names each physical disk it spans, with its serial", async () => {
    const content = contentFor(RAID, 'MR9361-16i', '00574c0df553f2000000349c07b26200');
    const report = sampleReport(content, signContent(privateKey, content));
    const wipeResult = { ...report.wipeResult, verification_result: RAID };
    const text = await render('report-raid-virtual-disk', await renderErasureReportPdf({ ...report, wipeResult }, { fonts, pdfSigner: testPdfSigner() }));
    expect(text).toContain('RAID virtual disk (MegaRAID) spanning ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB); WD4000FYYX (serial WD-WCC131234567, 4001 GB): this erases the virtual disk, not the physical drives as such');
  });

  test('the Erasure Report of a bridged drive names the bridge and why the firmware erase was not used', async () => {
    const content = contentFor(USB, 'Samsung Portable SSD T7', 'S7MNNS0Y828393V');
    const report = sampleReport(content, signContent(privateKey, content));
    const wipeResult = { ...report.wipeResult, verification_result: USB };
    const text = await render('report-usb-bridge', await renderErasureReportPdf({ ...report, wipeResult }, { fonts, pdfSigner: testPdfSigner() }));
    expect(text).toContain('Connected through: ASMedia ASM2362 USB bridge (174c:2362); firmware erase not passed through');
    expect(text).toContain('not Format NVM or Sanitize');
  });
});
