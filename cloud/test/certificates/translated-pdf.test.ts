import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { certificatePageDifference } from '../../src/domain/certificates/page-check.js';
import { layoutCertificatePage, renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { LANGUAGES } from '../../src/domain/certificates/i18n/wording.js';
import { ADDRESS_LINE_MAX, ADDRESS_LINES_MAX, COMPANY_NAME_MAX, CONTACT_MAX, type Branding } from '../../src/domain/branding/branding.js';
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

  // Every value is cut to its lines, so the page's height is bounded whatever the record holds: a
  // certificate that did not fit one page in its language could never be issued.
  test('a record with every value far past its cell and the longest branding fits one page in each language, and verifies', async () => {
    const long = (n: number) => `${'Wide words '.repeat(Math.ceil(n / 11))}`.slice(0, n);
    const sample = sampleContent();
    const crowded = sampleContent({
      account_name: long(400),
      operator: long(400),
      customer: long(400),
      lot_reference: long(400),
      asset_tag: long(400),
      disposition: long(400),
      validation_status: long(400),
      drive: { ...sample.drive, manufacturer: long(400), model: long(400), serial: long(400), media_type: long(400) },
      wipe: { ...sample.wipe, method: long(400), technique: long(400), standard: long(400) },
      tool: { name: long(400), version: long(400), components: long(2000) },
      verification: { method: long(400), result: long(2000), hash: long(400) },
      source_machine: { manufacturer: long(400), model: long(400), serial: long(400), asset_id: long(400) },
      crypto_erase_evidence: { command: long(400), marker_readback: long(2000) },
    });
    const branding: Branding = {
      details: { company_name: long(COMPANY_NAME_MAX), address_lines: Array.from({ length: ADDRESS_LINES_MAX }, () => long(ADDRESS_LINE_MAX)), contact: long(CONTACT_MAX) },
      logo: null,
    };
    const crowdedSignature = signContent(privateKey, crowded);
    for (const language of LANGUAGES) {
      expect(layoutCertificatePage(crowded, { fonts, signature: crowdedSignature, branding, language }).pages, language).toHaveLength(1);
    }
    const german = await renderCertificatePdf(crowded, { fonts, signature: crowdedSignature, pdfSigner: testPdfSigner(), branding, language: 'de' });
    expect(await certificatePageDifference(german, crowded, crowdedSignature, fonts)).toBeNull();
  });
});
