import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setLotExportProgress } from '../../src/adapters/db/lot-exports.js';
import { wipeGridReaderOnce } from '../../src/adapters/db/wipes-grid.js';
import { drainLotExportJobs, LOT_EXPORT_WORKER_DEFAULTS } from '../../src/jobs/lot-export-worker.js';
import { testFonts } from '../certificates/fixtures.js';
import { certificateOf, PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, PASSWORD } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, SCREENS_DIR } from './web-fixture.js';

/**
 * Every certificate the grid's filters match, more than a page holds (issue 31 item 2): the
 * menu starts a background lot export, the page shows its progress line, then a download link.
 */
describe('the wipes grid prepares the certificates of every match in the background', { timeout: 180_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let dir: string;
  const numbers: string[] = [];
  const FILLER = 110;

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    const jti = (await sut.token(account.id, { userEmail: 'ana@acme.test' })).jti;
    // Three certified drives, then more failed ones than a page of 100 holds (fast: no certificate to render).
    for (let i = 0; i < 3; i++) {
      const id = (await submitWipe(sut, jti, `job-cert-${i}`, { drive_serial: `CERT-${i}`, completed_at: '2026-11-21T12:10:00Z' })).wipe_result_id;
      await sut.drain();
      numbers.push((await certificateOf(sut, id)).certificate_number);
    }
    for (let i = 0; i < FILLER; i++) await submitWipe(sut, jti, `job-fail-${i}`, { drive_serial: `FAIL-${i}`, wipe_status: 'failed' });
    base = await sut.app.listen({ host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'lot-export-e2e-'));
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${base}/login`);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
  }, 180_000);

  /** The top of the page, where the header, the menu and the progress line are (the grid runs long below). */
  const screenshot = (p: Page, name: string) => p.screenshot({ path: join(SCREENS_DIR, `${name}.png`), clip: { x: 0, y: 0, width: 1440, height: 320 } });

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows "Preparing the certificates of N drives… done of N", then a link to the ZIP of every match', async () => {
    const total = FILLER + 3;
    await expect.poll(() => page.locator('[data-testid="certificates-menu"] summary').innerText()).toBe(`Download certificates (${total} matching) ▾`);
    await page.click('[data-testid="certificates-menu"] summary');
    await page.click('[data-testid="lot-export-zip"]');
    const progress = page.locator('[data-testid="lot-export-progress"]');
    await expect.poll(() => progress.innerText()).toContain(`Preparing the certificates of ${total} drives… 0 of ${total}`);

    // The worker is part way through (as its progress writes say), and the page follows.
    const row = await sut.row<{ id: number }>('SELECT id FROM lot_exports');
    await setLotExportProgress(sut.db, row.id, { status: 'running', done: 40, now: sut.clock.now().toISOString() });
    await expect.poll(() => progress.innerText()).toContain(`Preparing the certificates of ${total} drives… 40 of ${total}`);
    await screenshot(page, 'wipes-lot-export-progress');

    await drainLotExportJobs({
      ...LOT_EXPORT_WORKER_DEFAULTS,
      db: sut.db,
      clock: sut.clock,
      store: sut.store,
      wipeGrid: wipeGridReaderOnce(sut.db),
      fonts: testFonts,
      pdfSigning: () => sut.keys.pdfSigning(),
      publicBaseUrl: PUBLIC_BASE_URL,
    });
    const ready = page.locator('[data-testid="lot-export-ready"]');
    await expect.poll(() => ready.innerText()).toContain(`The ZIP for ${total} drives is ready.`);
    await screenshot(page, 'wipes-lot-export-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lot-export-download"]')]);
    const file = join(dir, 'lot.zip');
    await download.saveAs(file);
    const names = execFileSync('python3', ['-c', 'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(z.namelist()))', file], { encoding: 'utf8' }).trim().split('\n');
    expect(names[0]).toBe('000 summary.pdf');
    // Every match's certificate and report: the three certified drives (the failed ones have none).
    for (const number of numbers) expect(names.filter((name) => name.includes(number))).toHaveLength(2);
    expect(names).toHaveLength(1 + 2 * numbers.length);
  });
});
