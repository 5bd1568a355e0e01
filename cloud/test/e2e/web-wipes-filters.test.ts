import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildPagesIfStale, launchBrowser, screenshot, SCREENS_DIR, signIn, startListeningCloud, type RunningCloud } from './web-fixture.js';

/**
 * The wipes grid searched on the server (issue 31 item 1), in Debian's Chromium against a real
 * listening cloud: a history of more than one page, where the wipe searched for is not on the
 * page in view; the header counts the whole history; the URL holds the view, so a link
 * reproduces it and Back and Forward step through the filters. The CSV holds every match, or
 * says plainly that there are more than one file may hold.
 */
describe('wipes grid filters in a real browser', { timeout: 90_000 }, () => {
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const TOTAL = 150;
  const wipes: { serial: string; status: string; customer: string }[] = [];

  beforeAll(async () => {
    buildPagesIfStale();
    // One CSV holds 100 rows here: the whole history (150) is over the cap, a filtered part is not.
    cloud = await startListeningCloud({ wipesCsvMaxRows: 100 });
    const acme = await cloud.account('Acme Refurbishing');
    await cloud.user(acme.id, 'admin', 'admin@acme.test');
    // Each test token checks in 50 times at most: four of them, two per customer.
    const tokens = [];
    for (const email of ['ana@acme.test', 'bo@acme.test']) {
      tokens.push({ jti: await cloud.token(acme.id, email, 'engine', { customer: 'Northwind Schools', lotReference: 'LOT-42' }), customer: 'Northwind Schools' });
      tokens.push({ jti: await cloud.token(acme.id, email, 'engine', { customer: 'Contoso', lotReference: 'LOT-7' }), customer: 'Contoso' });
    }
    for (let i = 0; i < TOTAL; i++) {
      const token = tokens[i % tokens.length]!;
      // The first wipe reported is the oldest: on the last page of the grid, newest first.
      const serial = i === 0 ? 'NEEDLE-77' : `SN-${String(i).padStart(4, '0')}`;
      const status = i % 5 === 0 ? 'failed' : 'completed';
      const issued = (await cloud.internal('/internal/tokens/validate', { jti: token.jti })).json.job_id as string;
      const res = await cloud.internal('/internal/wipe_results', {
        jti: token.jti,
        job_id: `${issued}-0`,
        drive_model: i % 3 === 0 ? 'ST1000DM003-1CH162' : 'SAMSUNG MZVLB512HAJQ',
        drive_serial: serial,
        drive_capacity_gb: 512,
        wipe_method: 'NIST 800-88 R2 Purge',
        started_at: '2026-03-02T10:00:00Z',
        completed_at: new Date(Date.UTC(2026, 2, 2, 10, 30) + i * 60_000).toISOString(),
        wipe_status: status,
      });
      if (res.status !== 201 && res.status !== 200) throw new Error(`wipe report failed: ${res.status} ${JSON.stringify(res.json)}`);
      wipes.push({ serial, status, customer: token.customer });
    }
    browser = await launchBrowser();
    page = browser.page;
    await signIn(browser, cloud.base, 'admin@acme.test');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cloud?.close();
  });

  const summary = () => page.locator('[data-testid="grid-summary"]').innerText();
  const footer = () => page.locator('[data-testid="row-count"]').innerText();
  const serials = async () => (await page.locator('[data-testid="wipes-table"] tbody tr td:nth-child(4)').allInnerTexts()).map((t) => t.trim());
  const query = () => Object.fromEntries(new URL(page.url()).searchParams);
  const count = (keep: (w: (typeof wipes)[number]) => boolean) => wipes.filter(keep).length;

  it('counts the whole history and finds by search a wipe that is not on the page in view', async () => {
    await page.goto(`${cloud.base}/wipes`);
    await expect.poll(summary).toBe(`${TOTAL} drive wipes · newest first`);
    expect(await footer()).toBe(`Showing 1–100 of ${TOTAL}`);
    expect(await serials()).not.toContain('NEEDLE-77');

    await page.fill('input[aria-label="Search"]', 'needle');
    await expect.poll(serials).toEqual(['NEEDLE-77']);
    expect(await summary()).toBe('1 wipe matches · newest first');
    expect(query()).toEqual({ q: 'needle' });
  });

  it('filters the whole history by status and customer, each a step Back and Forward walk through', async () => {
    await page.fill('input[aria-label="Search"]', '');
    await expect.poll(query).toEqual({});
    await page.selectOption('select[aria-label="Status"]', 'failed');
    const failed = count((w) => w.status === 'failed');
    await expect.poll(summary).toBe(`${failed} wipes match · newest first`);
    await page.selectOption('select[aria-label="Customer"]', 'Contoso');
    const both = count((w) => w.status === 'failed' && w.customer === 'Contoso');
    await expect.poll(summary).toBe(`${both} wipes match · newest first`);
    expect(query()).toEqual({ status: 'failed', customer: 'Contoso' });
    await screenshot(page, 'wipes-server-filters');

    await page.goBack();
    await expect.poll(query).toEqual({ status: 'failed' });
    await expect.poll(summary).toBe(`${failed} wipes match · newest first`);
    expect(await page.locator('select[aria-label="Customer"]').inputValue()).toBe('');
    await page.goForward();
    await expect.poll(summary).toBe(`${both} wipes match · newest first`);
    expect(await page.locator('select[aria-label="Customer"]').inputValue()).toBe('Contoso');
  });

  it('reproduces a view from its link, page included, in a fresh tab', async () => {
    const completed = count((w) => w.status === 'completed');
    const link = `${cloud.base}/wipes?status=completed&sort=completed_asc&page=2`;
    const tab = await browser.context.newPage();
    try {
      await tab.goto(link);
      await expect.poll(() => tab.locator('[data-testid="grid-summary"]').innerText()).toBe(`${completed} wipes match · oldest first`);
      expect(await tab.locator('[data-testid="row-count"]').innerText()).toBe(`Showing 101–${completed} of ${completed}`);
      expect(await tab.locator('select[aria-label="Status"]').inputValue()).toBe('completed');
      expect(await tab.locator('select[aria-label="Sort"]').inputValue()).toBe('completed_asc');
      // The oldest completed wipes are on page 1; page 2 ends with the newest.
      const last = wipes.filter((w) => w.status === 'completed').at(-1)!.serial;
      expect((await tab.locator('[data-testid="wipes-table"] tbody tr td:nth-child(4)').allInnerTexts()).at(-1)?.trim()).toBe(last);
      await screenshot(tab, 'wipes-server-filters-link');
      await tab.click('button:has-text("← Previous")');
      await expect.poll(() => new URL(tab.url()).searchParams.get('page')).toBe(null);
      await expect.poll(() => tab.locator('[data-testid="row-count"]').innerText()).toBe(`Showing 1–100 of ${completed}`);
      await tab.goBack();
      await expect.poll(() => tab.locator('[data-testid="row-count"]').innerText()).toBe(`Showing 101–${completed} of ${completed}`);
    } finally {
      await tab.close();
    }
  });

  it('exports every match as CSV, and says so plainly when more match than one CSV may hold', async () => {
    await page.goto(`${cloud.base}/wipes`);
    await expect.poll(() => page.locator('[data-testid="csv-cap-note"]').innerText()).toBe(
      `${TOTAL} wipes match, and one CSV export holds at most 100. Narrow the filters (a date range, a customer) to export them in parts.`,
    );
    expect(await page.locator('[data-testid="csv-too-many"]').isDisabled()).toBe(true);
    // The window only: the note and the header are what this shows (the page is 100 rows long).
    await page.screenshot({ path: join(SCREENS_DIR, 'wipes-csv-over-cap.png') });

    await page.selectOption('select[aria-label="Customer"]', 'Contoso');
    const contoso = wipes.filter((w) => w.customer === 'Contoso');
    await expect.poll(summary).toBe(`${contoso.length} wipes match · newest first`);
    expect(await page.locator('[data-testid="csv-cap-note"]').count()).toBe(0);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
    const lines = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    // Every Contoso wipe of the history, newest first.
    expect(lines).toHaveLength(contoso.length + 1);
    expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(contoso.map((w) => w.serial).reverse());
  });
});
