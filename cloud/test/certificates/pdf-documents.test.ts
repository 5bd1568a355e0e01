import { stationToolComponents } from '@erasure/shared';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFArray, PDFRef } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canonicalize, signContent, verifyBytes } from '../../src/domain/certificates/certificate-content.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { renderCertificatePdf } from '../../src/domain/certificates/render-certificate.js';
import { renderErasureReportPdf } from '../../src/domain/certificates/render-report.js';
import { MIXED_ACCOUNT, MIXED_OPERATOR, sampleContent, sampleReport, testFonts, testKeys, testPdfSigner } from './fixtures.js';

// These checks need real PDF tools; a missing one is a failure with the fix, never a skip.
function requireTool(cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
  } catch {
    throw new Error(`${cmd} is required for the PDF tests: apt-get install qpdf poppler-utils`);
  }
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

/** pdftotext output made comparable: Arabic presentation forms folded (NFKC), bidi marks dropped. */
function pdfText(path: string): string {
  return run('pdftotext', ['-enc', 'UTF-8', path, '-']).normalize('NFKC').replace(/[\u202A-\u202E\u200E\u200F]/g, '');
}

/** Every word's box from pdftotext, to prove nothing was drawn outside the page. */
function wordBoxes(path: string): { word: string; xMin: number; yMin: number; xMax: number; yMax: number }[] {
  const html = run('pdftotext', ['-bbox', path, '-']);
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    word: m[5] ?? '',
  }));
}

describe('certificate and report PDFs', () => {
  const fonts = testFonts();
  const { privateKey, publicKey } = testKeys();
  const content = sampleContent();
  const signature = signContent(privateKey, content);
  let dir = '';
  let certPath = '';
  let reportPath = '';
  let certBytes: Uint8Array = new Uint8Array();
  let reportBytes: Uint8Array = new Uint8Array();

  beforeAll(async () => {
    requireTool('qpdf', ['--version']);
    requireTool('pdftotext', ['-v']);
    dir = mkdtempSync(join(tmpdir(), 'certificates-'));
    certBytes = await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() });
    reportBytes = await renderErasureReportPdf(sampleReport(content, signature, true), { fonts, pdfSigner: testPdfSigner() });
    certPath = join(dir, 'certificate.pdf');
    reportPath = join(dir, 'report.pdf');
    writeFileSync(certPath, certBytes);
    writeFileSync(reportPath, reportBytes);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('both pass qpdf --check', () => {
    for (const path of [certPath, reportPath]) expect(run('qpdf', ['--check', path])).toContain('No syntax or stream encoding errors');
  });

  test('the certificate is exactly one page; the long-notes report paginates', () => {
    expect(run('qpdf', ['--show-npages', certPath]).trim()).toBe('1');
    expect(Number(run('qpdf', ['--show-npages', reportPath]).trim())).toBeGreaterThanOrEqual(3);
  });

  test.each(['certificate', 'report'])('the %s text carries the number, serial, account and operator in every script', (which) => {
    const text = pdfText(which === 'certificate' ? certPath : reportPath);
    expect(text).toContain('CW-000042');
    expect(text).toContain('S4ENNX0N123456');
    for (const part of MIXED_ACCOUNT.split(' / ')) expect(text).toContain(part.normalize('NFKC'));
    for (const part of MIXED_OPERATOR.split(' · ')) expect(text).toContain(part);
  });

  test('the certificate shows its title, category and verify URL', () => {
    const text = pdfText(certPath);
    expect(text).toContain('Certificate of Sanitization');
    expect(text).toContain('PURGE');
    expect(text).toContain(content.verify_url);
  });

  test('no word is drawn outside the page margins', () => {
    for (const path of [certPath, reportPath]) {
      const words = wordBoxes(path);
      expect(words.length).toBeGreaterThan(50);
      for (const w of words) {
        expect(w.xMin, w.word).toBeGreaterThanOrEqual(30);
        expect(w.xMax, w.word).toBeLessThanOrEqual(595.28 - 30);
        expect(w.yMin, w.word).toBeGreaterThanOrEqual(10);
        expect(w.yMax, w.word).toBeLessThanOrEqual(841.89 - 10);
      }
    }
  });

  test.each(['certificate', 'report'])('the %s embeds the signed record, which verifies offline', async (which) => {
    const sut = await readEmbeddedCertificate(which === 'certificate' ? certBytes : reportBytes);
    expect(sut).not.toBeNull();
    expect(Buffer.from(sut?.json ?? []).equals(Buffer.from(canonicalize(content)))).toBe(true);
    expect(sut?.content).toEqual(content);
    expect(sut?.signature).toBe(signature);
    expect(verifyBytes(publicKey, sut?.json ?? new Uint8Array(), sut?.signature ?? '')).toBe(true);
  });

  test('a tampered byte in the embedded JSON fails verification', async () => {
    const doc = await PDFDocument.load(certBytes);
    const tree = doc.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict);
    const names = tree.lookup(PDFName.of('Names'), PDFArray);
    const spec = names.lookup(1, PDFDict); // [name0, spec0, …]: certificate.json is attached first
    const ref = spec.lookup(PDFName.of('EF'), PDFDict).get(PDFName.of('F'));
    expect(ref).toBeInstanceOf(PDFRef);
    const json = Buffer.from(canonicalize(content));
    const at = json.indexOf('S4ENNX0N123456');
    json[at] = 'T'.charCodeAt(0);
    doc.context.assign(ref as PDFRef, doc.context.flateStream(json, { Type: 'EmbeddedFile', Subtype: 'application/json' }));
    const sut = await readEmbeddedCertificate(await doc.save());
    expect(new TextDecoder().decode(sut?.json)).toContain('T4ENNX0N123456');
    expect(verifyBytes(publicKey, sut?.json ?? new Uint8Array(), sut?.signature ?? '')).toBe(false);
  });

  test('a PDF without the attachments reads as null', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    expect(await readEmbeddedCertificate(await doc.save())).toBeNull();
  });

  test('metadata is set and the same content renders the same bytes', async () => {
    const doc = await PDFDocument.load(certBytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Certificate of Sanitization CW-000042');
    expect(doc.getCreator()).toBe('Erasure Cloud');
    expect(doc.getProducer()).toMatch(/Erasure Cloud/);
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-22T13:07:40.000Z');
    const again = await renderCertificatePdf(content, { fonts, signature, pdfSigner: testPdfSigner() });
    expect(Buffer.from(again).equals(Buffer.from(certBytes))).toBe(true);
  });

  test('maximal field lengths still fit the certificate on one page', async () => {
    const long = sampleContent({
      account_name: `${MIXED_ACCOUNT} `.repeat(6),
      operator: `${MIXED_OPERATOR} `.repeat(6),
      drive: { manufacturer: 'M'.repeat(200), model: 'Model '.repeat(33), serial: 'S'.repeat(200), capacity_gb: 30_720, media_type: 'SAS SSD' },
      tool: { name: 'Erasure Engine', version: '1.4.2', components: 'tool 1.0; '.repeat(100) },
      verification: { method: 'Full read-back '.repeat(10), result: 'Passed. '.repeat(250), hash: 'ab'.repeat(100) },
    });
    const bytes = await renderCertificatePdf(long, { fonts, signature: signContent(privateKey, long), pdfSigner: testPdfSigner() });
    const path = join(dir, 'long.pdf');
    writeFileSync(path, bytes);
    expect(run('qpdf', ['--show-npages', path]).trim()).toBe('1');
  });

  test('a report without fingerprint, tests or notes still renders every section', async () => {
    const bare = { ...sampleReport(content, signature), fingerprint: null, tests: null, notes: null };
    const sut = await renderErasureReportPdf({ ...bare, certificate: { ...content, source_machine: null } }, { fonts, pdfSigner: testPdfSigner() });
    const path = join(dir, 'bare.pdf');
    writeFileSync(path, sut);
    const text = pdfText(path);
    expect(text).toContain('No source machine was matched');
    expect(text).toContain('No operator notes were recorded.');
    expect(text).toContain('Not reported');
  });

  test('a hotswap wipe\u2019s report names the station bay and the chassis map it came from', async () => {
    const base = sampleReport(content, signature);
    const hotswap = { ...base, fingerprint: null, wipeResult: { ...base.wipeResult, job_id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', tool_components: stationToolComponents('erasure-agent 0.1.0', { bay: 'Bay 7', chassis: 'Supermicro 846 front' }) } };
    const sut = await renderErasureReportPdf({ ...hotswap, certificate: { ...content, source_machine: null } }, { fonts, pdfSigner: testPdfSigner() });
    const path = join(dir, 'hotswap.pdf');
    writeFileSync(path, sut);
    const text = pdfText(path);
    // Headings and labels print in capitals.
    expect(text).toContain('STATION BAY');
    expect(text).toContain('Bay 7');
    expect(text).toContain('CHASSIS MAP');
    expect(text).toContain('Supermicro 846 front');
  });

  test('an engine wipe\u2019s report has no station bay section', () => {
    expect(pdfText(reportPath)).not.toContain('STATION BAY');
  });
});
