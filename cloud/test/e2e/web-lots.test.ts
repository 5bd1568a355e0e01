import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { fingerprint } from '../helpers.js';
import { addUser, PASSWORD, reportAsset } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, screenshot, SCREENS_DIR } from './web-fixture.js';

/**
 * A lot on the wipes grid (issue 23 item 4): the completed date range and every status in the
 * filters, a header that follows them, the lot's certificates downloaded through the grid's
 * menu as one ZIP of PDFs and as one merged PDF (opened with qpdf and pdftotext), the CSV's
 * Source column as the grid shows it, and the grid on a 1024 px laptop screen.
 */
describe('a lot\u2019s certificates from the wipes grid', { timeout: 90_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let dir: string;
  const wipe: Record<string, string> = {};
  const number: Record<string, string> = {};

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    const jti = (await sut.token(account.id, { userEmail: 'ana@acme.test' })).jti;
    // The first drive sat in an audited machine: its Source is that machine's model · serial.
    await reportAsset(sut, jti, 'CW-20261120-100000', fingerprint());
    const drives: [string, Record<string, unknown>][] = [
      ['A', { drive_serial: 'S4DYNX0M123456', started_at: '2026-11-20T12:00:00Z', completed_at: '2026-11-20T12:10:00Z' }],
      ['B', { drive_serial: 'SER-B', drive_model: 'ST1000DM003-1CH162', started_at: '2026-11-21T12:00:00Z', completed_at: '2026-11-21T12:30:00Z' }],
      ['C', { drive_serial: 'SER-C', drive_model: 'TOSHIBA MQ01ABD100', started_at: '2026-11-22T12:00:00Z', completed_at: '2026-11-22T12:05:00Z' }],
      ['D', { drive_serial: 'SER-FAILED', drive_model: 'WDC WD20EZRZ-00Z5HB0', started_at: '2026-11-22T12:00:00Z', completed_at: '2026-11-22T13:00:00Z', wipe_status: 'failed' }],
      ['E', { drive_serial: 'SER-E', drive_model: 'KINGSTON SA400S37', started_at: '2026-11-24T12:00:00Z', completed_at: '2026-11-24T12:20:00Z' }],
    ];
    for (const [i, [name, fields]] of drives.entries()) wipe[name] = (await submitWipe(sut, jti, `job-lot-${i}`, fields)).wipe_result_id;
    await sut.drain();
    for (const name of ['A', 'B', 'C', 'E']) number[name] = (await certificateOf(sut, wipe[name]!)).certificate_number;
    base = await sut.app.listen({ host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'lot-e2e-'));
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${base}/login`);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const serials = async () => (await page.locator('[data-testid="wipes-table"] tbody tr td:nth-child(4)').allInnerTexts()).map((t) => t.trim());
  const summary = () => page.locator('[data-testid="grid-summary"]').innerText();
  const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const zipNames = (file: string) =>
    execFileSync('python3', ['-c', 'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(z.namelist()))', file], { encoding: 'utf8' }).trim().split('\n');

  async function downloadFrom(testid: 'certificates-zip' | 'certificates-pdf', name: string): Promise<string> {
    await page.click('[data-testid="certificates-menu"] summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
    const file = join(dir, name);
    await download.saveAs(file);
    return file;
  }

  it('offers every status a wipe can have and filters by the completed date range, the header following', async () => {
    expect(await summary()).toBe('5 drive wipes · newest first');
    // No wipe of this account was cancelled, and the filter offers Cancelled all the same.
    expect(await page.locator('select[aria-label="Status"] option').allInnerTexts()).toEqual(['All statuses', 'Pass', 'Fail', 'Cancelled']);
    await page.selectOption('select[aria-label="Status"]', 'Cancelled');
    // The cloud filters the whole history (issue 31 item 1): the header counts its matches.
    await expect.poll(summary).toBe('0 wipes match · newest first');
    await page.selectOption('select[aria-label="Status"]', '');

    await page.fill('input[aria-label="Completed from"]', '2026-11-21');
    await page.fill('input[aria-label="Completed to"]', '2026-11-22');
    await page.selectOption('select[aria-label="Sort"]', 'duration_desc');
    await expect.poll(serials).toEqual(['SER-FAILED', 'SER-B', 'SER-C']);
    expect(await summary()).toBe('3 wipes match · sorted by duration');
    const query = new URL(page.url()).searchParams;
    expect([query.get('from'), query.get('to'), query.get('sort')]).toEqual(['2026-11-21', '2026-11-22', 'duration_desc']);

    // The URL keeps the range: a reload shows the same rows and the same inputs.
    await page.reload();
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
    await expect.poll(serials).toEqual(['SER-FAILED', 'SER-B', 'SER-C']);
    expect(await page.locator('input[aria-label="Completed from"]').inputValue()).toBe('2026-11-21');
    expect(await page.locator('input[aria-label="Completed to"]').inputValue()).toBe('2026-11-22');
    await page.selectOption('select[aria-label="Status"]', 'Pass');
    await expect.poll(serials).toEqual(['SER-B', 'SER-C']);
    expect(await summary()).toBe('2 wipes match · sorted by duration');
    await page.selectOption('select[aria-label="Status"]', '');
    await expect.poll(serials).toEqual(['SER-FAILED', 'SER-B', 'SER-C']);
    await screenshot(page, '20-wipes-date-range');
  });

  it('downloads the filtered rows\u2019 certificates as one ZIP of PDFs, in the grid\u2019s order', async () => {
    expect(await page.locator('[data-testid="certificates-menu"] summary').innerText()).toContain('Download certificates (3 shown)');
    await page.click('[data-testid="certificates-menu"] summary');
    await screenshot(page, '21-wipes-certificates-menu');
    // A click elsewhere closes the menu.
    await page.click('h1');
    expect(await page.locator('[data-testid="certificates-menu"]').evaluate((menu) => (menu as HTMLDetailsElement).open)).toBe(false);
    const file = await downloadFrom('certificates-zip', 'lot.zip');
    const names = zipNames(file);
    // The failed drive (first in the grid) has no certificate: it is on the summary only.
    expect(names).toEqual([
      '000 summary.pdf',
      `002 ${number.B} certificate.pdf`,
      `002 ${number.B} erasure report.pdf`,
      `003 ${number.C} certificate.pdf`,
      `003 ${number.C} erasure report.pdf`,
    ]);
    const out = join(dir, 'zip');
    execFileSync('python3', ['-c', 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', file, out]);
    for (const name of names) execFileSync('qpdf', ['--check', join(out, name)]);
    const listed = pdfText(join(out, '000 summary.pdf'));
    const positions = ['SER-FAILED', 'SER-B', 'SER-C'].map((serial) => listed.indexOf(serial));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(listed).not.toContain('SER-E');
    expect(pdfText(join(out, names[1]!))).toContain(number.B);
    expect(pdfText(join(out, names[3]!))).toContain(number.C);
  });

  it('downloads the selected rows\u2019 certificates as one signed lot certificate: a summary page, each certificate attached', async () => {
    await page.locator(`tr[data-wipe-id="${wipe.C}"] input[type="checkbox"]`).check();
    await page.locator(`tr[data-wipe-id="${wipe.B}"] input[type="checkbox"]`).check();
    expect(await page.locator('[data-testid="certificates-menu"] summary').innerText()).toContain('Download certificates (2 selected)');
    const file = await downloadFrom('certificates-pdf', 'lot.pdf');
    execFileSync('qpdf', ['--check', file]);
    expect(Number(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }).trim())).toBe(1);
    const attachments = execFileSync('qpdf', ['--list-attachments', file], { encoding: 'utf8' });
    expect(attachments).toContain(`001 ${number.B} certificate.pdf`);
    expect(attachments).toContain(`002 ${number.C} certificate.pdf`);
    const text = pdfText(file);
    for (const name of ['B', 'C']) expect(text).toContain(number[name]);
    const first = text.split('\f')[0]!;
    expect(first.indexOf('SER-B')).toBeGreaterThanOrEqual(0);
    expect(first.indexOf('SER-B')).toBeLessThan(first.indexOf('SER-C'));
    expect(text).not.toContain('SER-FAILED');
    // Page 1, the summary, to look at.
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, join(SCREENS_DIR, '24-lot-merged-pdf-page1')]);
    // The lot's verify URL (its QR code): what it covers, each certificate checked and linked.
    const { verify_url: verifyUrl } = JSON.parse(execFileSync('qpdf', [file, '--show-attachment=lot.json'], { encoding: 'utf8' })) as { verify_url: string };
    const verify = await page.context().newPage();
    await verify.setViewportSize({ width: 700, height: 1000 });
    await verify.goto(`${base}${new URL(verifyUrl).pathname}`);
    expect(await verify.locator('[data-testid="verdict"] h1').innerText()).toBe('Valid lot certificate');
    expect(await verify.locator('[data-testid="lot-certificate"]').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^${number.B}\\s+ST1000DM003-1CH162 · SER-B\\s+✓ Valid$`)),
      expect.stringMatching(new RegExp(`^${number.C}\\s+TOSHIBA MQ01ABD100 · SER-C\\s+✓ Valid$`)),
    ]);
    await verify.screenshot({ path: join(SCREENS_DIR, '24-lot-verify-page.png'), fullPage: true });
    // The same page in German, from the switch at its foot.
    await Promise.all([verify.waitForURL(/\?lang=de$/), verify.click('[data-testid="languages"] a[hreflang="de"]')]);
    expect(await verify.locator('[data-testid="verdict"] h1').innerText()).toBe('Gültiges Los-Löschzertifikat');
    expect(await verify.locator('[data-testid="lot-certificate"]').first().innerText()).toMatch(/✓ Gültig$/);
    await verify.screenshot({ path: join(SCREENS_DIR, '24b-lot-verify-page-german.png'), fullPage: true });
    await verify.goto(`${base}${new URL(verifyUrl).pathname}`);
    await Promise.all([verify.waitForURL(/\/certificates\/.+\/verify$/), verify.click(`a:has-text("${number.C}")`)]);
    expect(await verify.locator('[data-testid="verdict"] h1').innerText()).toBe('Valid certificate');
    await verify.close();
    await page.locator(`tr[data-wipe-id="${wipe.C}"] input[type="checkbox"]`).uncheck();
    await page.locator(`tr[data-wipe-id="${wipe.B}"] input[type="checkbox"]`).uncheck();
  });

  it('exports the Source column as the grid shows it: the machine\u2019s model · serial', async () => {
    await page.click('button:has-text("Clear filters")');
    await expect.poll(summary).toBe('5 drive wipes · sorted by duration');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
    const [header, ...lines] = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    const columns = header!.split(',');
    const line = lines.map((l) => l.split(',')).find((cells) => cells[0] === wipe.A)!;
    expect(line[columns.indexOf('Source')]).toBe('Latitude 7490 · B5QVN32');
    expect(await page.locator(`tr[data-wipe-id="${wipe.A}"] td:nth-child(8)`).innerText()).toBe('Latitude 7490 · B5QVN32');
    expect(line[columns.indexOf('Asset ID')]).toMatch(/^asset_/);
  });

  it('fits a 1024 px screen: the navigation wraps and the Certificate column is reachable inside the grid', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${base}/wipes`);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
    await screenshot(page, '22-wipes-1024');
    // The page itself never scrolls sideways: nothing sticks out of the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    for (const box of await Promise.all((await page.locator('nav .nav-link').all()).map((link) => link.boundingBox()))) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(1024);
    }
    const signOut = await page.locator('button:has-text("Sign out")').boundingBox();
    expect(signOut!.x + signOut!.width).toBeLessThanOrEqual(1024);

    // The Certificate column is in view as the page opens, and stays there while the grid scrolls sideways in its card.
    const within = async (selector: string) => {
      const box = (await page.locator(selector).boundingBox())!;
      return box.x >= 0 && box.x + box.width <= 1024;
    };
    const cell = `tr[data-wipe-id="${wipe.C}"] td:last-child`;
    expect(await page.locator(cell).innerText()).toContain(number.C);
    expect(await within(cell)).toBe(true);
    expect(await within('[data-testid="wipes-table"] th:last-child')).toBe(true);
    const scrolled = await page.locator('.table-wrap').evaluate((wrap) => {
      wrap.scrollLeft = wrap.scrollWidth;
      return wrap.scrollLeft;
    });
    expect(scrolled).toBeGreaterThan(0);
    expect(await within(cell)).toBe(true);
    expect(await within(`tr[data-wipe-id="${wipe.C}"] td:nth-last-child(2)`)).toBe(true);
    // The grid scrolled, the window did not.
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
    await screenshot(page, '23-wipes-1024-scrolled');
  });
});
