import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';

// Issue 31 item 7 part B: the Certificate of Sanitization and the Erasure Report in English, German,
// French and Spanish, from the same language-neutral signed record.

const SCREENS_DIR = fileURLToPath(new URL('../../../test-results/screens/', import.meta.url));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

/** Words each language's pages must show, and an English phrase none but English may show. */
const EXPECTED = {
  en: { certificate: ['Certificate of Sanitization', 'DIGITAL SIGNATURE', 'Completed (UTC)'.toUpperCase(), '2026-11-22'], report: ['Erasure Report', 'TIMELINE', 'Page 1 of'] },
  de: { certificate: ['Löschzertifikat', 'DIGITALE SIGNATUR', 'ABSCHLUSS (UTC)', 'auf Stufe Purge', '22.11.2026'], report: ['Löschbericht', 'ZEITABLAUF', 'Seite 1 von', 'GRÖSSE'] },
  fr: { certificate: ['Certificat d’effacement', 'SIGNATURE NUMÉRIQUE', 'FIN (UTC)', 'au niveau Purge', '22/11/2026'], report: ['Rapport d’effacement', 'CHRONOLOGIE', 'Page 1 sur'] },
  es: { certificate: ['Certificado de borrado seguro', 'FIRMA DIGITAL', 'FIN (UTC)', 'al nivel Purge', '22/11/2026'], report: ['Informe de borrado', 'CRONOLOGÍA', 'Página 1 de'] },
} as const;

describe('certificates and reports in four languages', () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();
  const dir = mkdtempSync(join(tmpdir(), 'lang-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const content = sampleContent();
  const signature = signContent(privateKey, content);

  const write = (name: string, bytes: Uint8Array, screenshot: boolean) => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    if (screenshot) {
      mkdirSync(SCREENS_DIR, { recursive: true });
      run('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '2', path, join(SCREENS_DIR, name)]);
    }
    return run('pdftotext', ['-enc', 'UTF-8', path, '-']).replace(/\s+/g, ' ');
  };

  test.each(Object.keys(EXPECTED) as (keyof typeof EXPECTED)[])('the %s certificate and report read in that language and carry the same signed record', async (language) => {
    const certificate = await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner(), language });
    const report = await renderErasureReportPdf(sampleReport(content, signature), { fonts, pdfSigner: testPdfSigner(), language });
    const screenshot = language === 'de' || language === 'fr';
    const certificateText = write(`certificate-${language}`, certificate, screenshot);
    const reportText = write(`report-${language}`, report, screenshot);
    for (const words of EXPECTED[language].certificate) expect(certificateText).toContain(words);
    for (const words of EXPECTED[language].report) expect(reportText).toContain(words);
    if (language !== 'en') {
      expect(certificateText).not.toContain('Certificate of Sanitization');
      expect(reportText).not.toContain('Erasure Report ');
    }
    // One page, whatever the language's length, and the record attached is the English one's, byte for byte.
    expect(run('qpdf', ['--show-npages', join(dir, `certificate-${language}.pdf`)]).trim()).toBe('1');
    expect((await readEmbeddedCertificate(certificate))?.content).toEqual(content);
    expect(await certificatePageDifference(certificate, content, signature, fonts)).toBeNull();
  });
});
