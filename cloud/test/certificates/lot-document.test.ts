import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLotDocument, lotSummary, type LotDocumentDrive } from '../../src/domain/certificates/lot-document.js';
import { testFonts, testPdfSigner } from './fixtures.js';

const SHOTS = join(process.cwd(), 'test-results', 'lot-certificate');

const drive = (i: number, overrides: Partial<LotDocumentDrive> = {}): LotDocumentDrive => ({
  certificateNumber: `CW-${String(i).padStart(6, '0')}`,
  model: 'SAMSUNG MZVLB512HAJQ',
  serial: `SER-${String(i).padStart(4, '0')}`,
  capacityGb: 512,
  method: i % 3 === 0 ? 'NIST 800-88 R2 Clear' : 'NIST 800-88 R2 Purge',
  status: 'Pass',
  completedAt: `2026-11-${String(10 + (i % 10)).padStart(2, '0')}T12:00:00Z`,
  customer: 'Northwind Bank',
  lotReference: 'LOT-7',
  ...overrides,
});

describe('the lot certificate\u2019s summary', { timeout: 60_000 }, () => {
  it('counts drives by result and method, and spans the lot\u2019s completion dates', () => {
    const drives = [drive(1), drive(2), drive(3), drive(4, { status: 'Fail', certificateNumber: null, method: null, completedAt: '2026-11-25T08:00:00Z' })];
    expect(lotSummary(drives)).toEqual({
      customers: ['Northwind Bank'],
      lots: ['LOT-7'],
      from: '2026-11-11T12:00:00Z',
      to: '2026-11-25T08:00:00Z',
      drives: 4,
      certified: 0, // none carries its PDF: only an attached certificate counts
      by_status: { Pass: 3, Fail: 1 },
      by_method: { 'NIST 800-88 R2 Purge': 2, 'NIST 800-88 R2 Clear': 1, 'not recorded': 1 },
    });
  });

  it('a big lot: one line per drive with its certificate number, continued over pages, each page footed', async () => {
    const drives = Array.from({ length: 120 }, (_, i) => drive(i + 1));
    const pdf = await buildLotDocument(
      { lotDocumentId: 'lotdoc_0123abcd', verifyUrl: 'https://erasure.test/lots/lotdoc_0123abcd/verify', accountName: 'Acme Refurb', generatedAt: '2026-11-26T09:00:00Z', drives },
      { fonts: testFonts(), pdfSigner: testPdfSigner() },
    );
    const dir = mkdtempSync(join(tmpdir(), 'lot-big-'));
    try {
      const file = join(dir, 'lot.pdf');
      writeFileSync(file, pdf);
      const pages = Number(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }).trim());
      expect(pages).toBeGreaterThan(2);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const d of drives) expect(text.split(d.certificateNumber!).length - 1, d.certificateNumber!).toBe(1);
      const pageTexts = text.split('\f').filter((t) => t.trim() !== '');
      expect(pageTexts).toHaveLength(pages);
      pageTexts.forEach((t, i) => expect(t).toContain(`Lot certificate lotdoc_0123abcd · Acme Refurb · page ${i + 1}`));
      mkdirSync(SHOTS, { recursive: true });
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '2', '-l', '2', '-singlefile', file, join(SHOTS, 'lot-certificate-page2')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
