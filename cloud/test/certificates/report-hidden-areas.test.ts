import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';

/** Pages go to the repo's gitignored test-results/, to be looked at. */
const OUT = fileURLToPath(new URL('../../../test-results/certificates/', import.meta.url));

// What the engine agent puts in verification_result after removing an HPA and a DCO (engine-agent/src/erase/hidden-areas.ts).
const HIDDEN =
  'Hidden areas removed before the erase: HPA removed, capacity before 1465000000 sectors (750.1 GB), after 1465144368 sectors (750.2 GB); ' +
  'DCO removed, capacity before 1465144368 sectors (750.2 GB), after 1465149168 sectors (750.2 GB). The full native capacity was erased. ' +
  'Overwrite, single pass with verification: 1 pass written and read back';

describe('the Erasure Report of a drive whose HPA and DCO were removed', () => {
  test('shows the capacity before and after each removal in its wipe result record', async () => {
    const { privateKey } = testKeys();
    const content = sampleContent({ verification: { ...sampleContent().verification, result: HIDDEN } });
    const report = sampleReport(content, signContent(privateKey, content));
    const pdf = await renderErasureReportPdf({ ...report, wipeResult: { ...report.wipeResult, verification_result: HIDDEN, drive_capacity_gb: 750 } }, { fonts: testFonts(), pdfSigner: testPdfSigner() });
    mkdirSync(OUT, { recursive: true });
    const path = join(OUT, 'report-hidden-areas.pdf');
    writeFileSync(path, pdf);
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('HPA removed, capacity before 1465000000 sectors (750.1 GB), after 1465144368 sectors (750.2 GB)');
    expect(text).toContain('DCO removed, capacity before 1465144368 sectors (750.2 GB), after 1465149168 sectors (750.2 GB)');
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', path, join(OUT, 'report-hidden-areas')]);
  });
});
