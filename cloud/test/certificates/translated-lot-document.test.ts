import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { signContent } from '../../src/domain/certificates/certificate-content.js';
import { LANGUAGES, wordingFor, type Language } from '../../src/domain/certificates/i18n/wording.js';
import { CELL, HEADER, PAD_X } from '../../src/domain/certificates/layout-blocks.js';
import { contentWidth, textWidth } from '../../src/domain/certificates/layout.js';
import { buildLotDocument, layoutLotSummary, LOT_MANIFEST_NAME, lotColumns, type LotDocumentDrive } from '../../src/domain/certificates/lot-document.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { sampleContent, testFonts, testKeys, testPdfSigner } from './fixtures.js';

// The lot certificate in the account's language (issue 31 item 7, the lot document's pages):
// every label, heading, status word and date in that language; the attached certificates unchanged.

const SCREENS_DIR = fileURLToPath(new URL('../../../test-results/screens/', import.meta.url));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Words each language's lot pages must show (title, summary labels, table headers, closing, status, dates). */
const EXPECTED: Record<Language, string[]> = {
  en: ['Lot Certificate of Sanitization', 'Scan to verify this lot', 'Processed by', 'DRIVES IN THIS LOT', 'CERTIFICATE', 'Pass', 'Fail', 'not recorded', 'VALIDATION SAMPLING', 'This document is signed once', '2026-11-11 to 2026-11-25', 'Lot certificate lotdoc_lang · Acme Refurb · page 1'],
  de: ['Los-Löschzertifikat', 'Zum Prüfen des Loses scannen', 'Bearbeitet von', 'LAUFWERKE IN DIESEM LOS', 'ZERTIFIKAT', 'GRÖSSE', 'Bestanden', 'Nicht bestanden', 'nicht erfasst', 'VALIDIERUNGSSTICHPROBE', 'Dieses Dokument ist einmal als Ganzes signiert', '11.11.2026 bis 25.11.2026', 'Los-Zertifikat lotdoc_lang · Acme Refurb · Seite 1'],
  fr: ['Certificat d’effacement du lot', 'Scanner pour vérifier ce lot', 'Traité par', 'DISQUES DE CE LOT', 'CERTIFICAT', 'CAPACITÉ', 'Réussi', 'Échec', 'non enregistré', 'ÉCHANTILLONNAGE DE VALIDATION', 'Ce document est signé une seule fois', 'du 11/11/2026 au 25/11/2026', 'Certificat de lot lotdoc_lang · Acme Refurb · page 1'],
  es: ['Certificado de borrado seguro del lote', 'Escanee para verificar este lote', 'Procesado por', 'UNIDADES DE ESTE LOTE', 'CERTIFICADO', 'TAMAÑO', 'Superado', 'Fallido', 'no registrado', 'MUESTREO DE VALIDACIÓN', 'Este documento se firma una sola vez', 'del 11/11/2026 al 25/11/2026', 'Certificado de lote lotdoc_lang · Acme Refurb · página 1'],
};

/** English words of the lot page that no other language's page may show. */
const ENGLISH_ONLY = ['Lot Certificate of Sanitization', 'Scan to verify', 'Processed by', 'DRIVES IN THIS LOT', 'with a certificate', 'not recorded', 'This document is signed once'];

describe('the lot certificate in four languages', { timeout: 120_000 }, () => {
  const fonts = testFonts();
  const { privateKey } = testKeys();
  const dir = mkdtempSync(join(tmpdir(), 'lot-lang-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Three certified drives (their certificates in different languages, as an account's may be), one failed. */
  const drives = async (): Promise<LotDocumentDrive[]> => {
    const made: LotDocumentDrive[] = [];
    for (const [i, language] of (['en', 'de', 'fr'] as const).entries()) {
      const content = sampleContent({ certificate_number: `CW-00000${i + 1}` });
      const pdf = await renderCertificatePdf(content, { fonts, signature: signContent(privateKey, content), pdfSigner: testPdfSigner(), language });
      made.push({
        certificateNumber: content.certificate_number, certificateId: `cert_${i + 1}`, certificatePdf: pdf,
        model: 'SAMSUNG MZVLB512HAJQ', serial: `SER-000${i + 1}`, capacityGb: 2000, method: 'NIST 800-88 R2 Purge',
        status: 'Pass', completedAt: `2026-11-1${i + 1}T12:00:00Z`, customer: 'Northwind Bank', lotReference: 'LOT-7',
      });
    }
    made.push({ certificateNumber: null, model: 'WDC WD10EZEX', serial: 'SER-0004', capacityGb: 1000, method: null, status: 'Fail', completedAt: '2026-11-25T08:00:00Z', customer: 'Northwind Bank', lotReference: 'LOT-7' });
    return made;
  };
  const validation = [{ name: 'Northwind Bank · LOT-7', ratePercent: 2.5, certified: 3, sampleSize: 2, passed: 1, failed: 0, needsAttention: false }];

  test.each(LANGUAGES)('the %s lot document reads in that language, is validly signed, and carries each certificate unchanged', async (language) => {
    const lot = await drives();
    const pdf = await buildLotDocument(
      { lotDocumentId: 'lotdoc_lang', verifyUrl: 'https://erasure.test/lots/lotdoc_lang/verify', accountName: 'Acme Refurb', generatedAt: '2026-11-26T09:00:00Z', drives: lot, validation, language },
      { fonts, pdfSigner: testPdfSigner() },
    );
    const path = join(dir, `lot-${language}.pdf`);
    writeFileSync(path, pdf);
    const text = run('pdftotext', ['-enc', 'UTF-8', path, '-']).replace(/\s+/g, ' ');
    for (const words of EXPECTED[language]) expect(text, language).toContain(words);
    if (language !== 'en') for (const words of ENGLISH_ONLY) expect(text, language).not.toContain(words);

    expect(spawnSync('pdfsig', [path], { encoding: 'utf8' }).stdout).toMatch(/Signature is Valid\./);

    const out = join(dir, `attached-${language}`);
    mkdirSync(out);
    run('pdfdetach', ['-saveall', '-o', out, path]);
    const files = readdirSync(out).filter((f) => f !== LOT_MANIFEST_NAME).sort();
    expect(files).toHaveLength(3);
    files.forEach((file, i) => expect(sha256(readFileSync(join(out, file))), file).toBe(sha256(lot[i]!.certificatePdf!)));

    if (language === 'de' || language === 'fr') {
      mkdirSync(SCREENS_DIR, { recursive: true });
      run('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', path, join(SCREENS_DIR, `lot-certificate-${language}`)]);
    }
  });

  // Headers are drawn on one line, unwrapped: one wider than its column runs into the next one's.
  // A result word wider than its cell is cut mid-word. Both are fixed by the wording, so checked by it.
  test.each(LANGUAGES)('the %s table headers and result words fit their columns', (language) => {
    const w = wordingFor(language);
    const total = contentWidth(layoutLotSummary({ lotDocumentId: 'lotdoc_fit', verifyUrl: 'https://erasure.test/', accountName: 'A', generatedAt: '2026-11-26T09:00:00Z', drives: [] }, fonts));
    const columns = lotColumns(w);
    for (const column of columns) expect(textWidth(fonts, column.header.toUpperCase(), HEADER), column.header).toBeLessThanOrEqual(column.width * total - PAD_X);
    const result = columns[columns.length - 1]!;
    for (const key of ['lot.status.pass', 'lot.status.fail', 'lot.status.cancelled'] as const) {
      for (const word of `${w.t(key)},`.split(' ')) expect(textWidth(fonts, word, CELL), word).toBeLessThanOrEqual(result.width * total - 2 * PAD_X);
    }
  });
});
