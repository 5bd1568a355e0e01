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

const OUT_DIR = fileURLToPath(new URL('../../../test-results/certificates/', import.meta.url));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });
// DejaVu has 😀 but not these: before Symbola joined the fallback chain they drew empty boxes.
const EMOJI = ['\u{1F44D}', '\u{1F525}', '\u{2705}', '\u{1F3EB}'];

/** User text with emoji on both PDFs (issue 28, item 16): drawn with a real glyph, and extracted as the same characters. */
describe('emoji in user text on the certificate and the Erasure Report', () => {
  const fonts = testFonts();
  const content = sampleContent({ customer: `Northwind Schools ${EMOJI[3]}` });
  const signature = signContent(testKeys().privateKey, content);
  const report = { ...sampleReport(content, signature), notes: `Lid scuffed ${EMOJI[0]} battery hot ${EMOJI[1]} keyboard fine ${EMOJI[2]}` };
  const dir = mkdtempSync(join(tmpdir(), 'emoji-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the PDF and its page PNGs to look at; answers pdftotext's text and the fonts pdffonts lists. */
  const render = (name: string, bytes: Uint8Array) => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    mkdirSync(OUT_DIR, { recursive: true });
    run('pdftoppm', ['-png', '-r', '80', path, join(OUT_DIR, `emoji-${name}`)]);
    return { text: run('pdftotext', ['-enc', 'UTF-8', path, '-']), fonts: run('pdffonts', [path]) };
  };

  test('the Erasure Report draws the notes\u2019 emoji with Symbola', async () => {
    const { text, fonts: used } = render('report', await renderErasureReportPdf(report, { fonts, pdfSigner: testPdfSigner() }));
    for (const emoji of EMOJI.slice(0, 3)) expect(text).toContain(emoji);
    expect(used).toContain('Symbola');
  });

  test('the certificate draws the customer\u2019s emoji with Symbola', async () => {
    const { text, fonts: used } = render('certificate', await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() }));
    expect(text).toContain(EMOJI[3]);
    expect(used).toContain('Symbola');
  });
});
