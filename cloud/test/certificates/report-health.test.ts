import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WireDriveHealth } from '@erasure/shared';
import { describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { wornHealth } from '../support/health.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';

/** Pages go to the repo's gitignored test-results/, to be looked at. */
const OUT = fileURLToPath(new URL('../../../test-results/certificates/', import.meta.url));

async function reportText(name: string, health: WireDriveHealth | undefined) {
  const { privateKey } = testKeys();
  const content = sampleContent();
  const report = sampleReport(content, signContent(privateKey, content));
  const pdf = await renderErasureReportPdf({ ...report, wipeResult: { ...report.wipeResult, ...(health ? { health } : {}) } }, { fonts: testFonts(), pdfSigner: testPdfSigner() });
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `${name}.pdf`);
  writeFileSync(path, pdf);
  return { path, text: execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ') };
}

// Issue 30 item 6: the grade, its reasons, SMART before/after and a speed-profile chart on the report.
describe('the Erasure Report of a drive graded for resale', () => {
  test('shows the grade in plain words, each reason, SMART before and after, and the speed profile', async () => {
    const { path, text } = await reportText('report-health', wornHealth());
    expect(text).toContain('HEALTH FOR RESALE');
    expect(text).toContain('Grade C: worn');
    for (const reason of wornHealth().reasons) expect(text).toContain(reason);
    expect(text).toMatch(/Reallocated sectors 8 8/);
    expect(text).toMatch(/Power-on hours 23,410 23,412/);
    expect(text).toContain('Write speed over 100 regions of about 5.0 GB each, start to end of the drive: median');
    expect(text).toContain('Red bars: regions under 30% of the median');
    expect(text).toContain('slowest 29.8 MB/s; 0 write error(s), 0 retried write(s)');
    expect(text).toContain('SMART short self-test, run before the erase: passed (Completed without error).');
    // The pages with the section and its chart, to be looked at (the chart is drawn, not text).
    const pages = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }).split('\f');
    const first = pages.findIndex((p) => p.includes('HEALTH FOR RESALE')) + 1;
    const last = pages.findIndex((p) => p.includes('Write speed over')) + 1;
    execFileSync('pdftoppm', ['-png', '-r', '90', '-f', String(first), '-l', String(last), path, join(OUT, 'report-health')]);
  });

  test('a failed self-test shows with its LBA beside the rule that made the drive F; one that did not finish or is not supported says so and is not graded', async () => {
    const failed = {
      ...wornHealth(),
      grade: 'F' as const,
      reasons: ['the SMART short self-test failed at LBA 104870168 (rule: SMART short self-test failed gives F)', ...wornHealth().reasons],
      self_test: { outcome: 'failed' as const, failing_lba: 104870168, detail: 'Completed: read failure' },
    };
    const { path, text } = await reportText('report-health-self-test-failed', failed);
    expect(text).toContain('Grade F: do not resell');
    expect(text).toContain('the SMART short self-test failed at LBA 104870168 (rule: SMART short self-test failed gives F)');
    expect(text).toContain('SMART short self-test, run before the erase: FAILED at LBA 104870168 (Completed: read failure).');
    const pages = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }).split('\f');
    const first = pages.findIndex((p) => p.includes('HEALTH FOR RESALE')) + 1;
    execFileSync('pdftoppm', ['-png', '-r', '90', '-f', String(first), '-l', String(first), path, join(OUT, 'report-health-self-test-failed')]);
    const slow = await reportText('report-health-self-test-timed-out', { ...wornHealth(), self_test: { outcome: 'timed_out' as const, detail: 'the short self-test did not finish within 5 min and was aborted' } });
    expect(slow.text).toContain('SMART short self-test, run before the erase: did not finish in time, and was not graded (the short self-test did not finish within 5 min and was aborted).');
    const bridge = await reportText('report-health-self-test-unsupported', { ...wornHealth(), self_test: { outcome: 'not_supported' as const, detail: 'Self-tests not supported' } });
    expect(bridge.text).toContain('not supported by the drive or its connection, and not graded (Self-tests not supported).');
  });

  test('a drive without health (an older agent) renders as before: no health section', async () => {
    const { text } = await reportText('report-no-health', undefined);
    expect(text).not.toContain('HEALTH FOR RESALE');
    expect(text).not.toContain('Grade ');
    expect(text).toContain('WIPE RESULT RECORD');
  });
});
