import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildPagesIfStale, launchBrowser, PASSWORD, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';

/**
 * Issue 30 item 6 in the browser: an admin changes the account's health grade table and turns on
 * the SMART short self-test on /devices; a table with the grades out of order is refused with the
 * cloud's words; the saved table reaches the account's device with its erasure policy; "Reset to
 * default" goes back to the documented table. A technician does not see the card.
 */
describe('the health grade table on the Devices page', { timeout: 120_000 }, () => {
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let jti: string;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startListeningCloud();
    const account = await cloud.account('Acme Refurbishing');
    await cloud.user(account.id, 'admin', 'admin@acme.test');
    await cloud.user(account.id, 'technician', 'tech@acme.test');
    jti = await cloud.token(account.id, 'tech@acme.test');
    browser = await launchBrowser();
    page = browser.page;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await cloud?.close();
  });

  async function openDevices(email: string) {
    await browser.context.clearCookies();
    await page.goto(`${cloud.base}/login`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
    await page.click('nav >> text=Devices');
    await page.waitForSelector('[data-testid="policy-summary"]');
  }
  const devicePolicy = () => cloud.internal('/internal/tokens/erasure_policy', { jti });
  const status = () => page.locator('[data-testid="health-grading-status"]').innerText();
  const card = () => page.locator('[data-testid="health-grading"]');

  it('shows the default table until an admin changes it', async () => {
    await openDevices('admin@acme.test');
    await expect.poll(status).toBe('The default table is in use · SMART short self-test off');
    expect(await page.inputValue('[data-testid="grade-F-reallocated_sectors"]')).toBe('100');
    expect(await page.inputValue('[data-testid="grade-C-power_on_hours"]')).toBe('40000');
    expect(await page.inputValue('[data-testid="grade-flag-self_test_failed"]')).toBe('F');
  });

  it('refuses a C threshold under the B one with the cloud’s words, and stores nothing', async () => {
    await page.fill('[data-testid="grade-C-power_on_hours"]', '5000');
    await page.click('[data-testid="health-grading-save"]');
    await expect.poll(() => card().locator('[role="alert"]').innerText()).toBe('power-on hours: the C threshold must be higher than the B threshold (a worse grade needs a worse drive)');
    expect((await devicePolicy()).json).not.toHaveProperty('health_grading');
    // From the top: a full-page shot of a scrolled page draws the sticky menu bar mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '65-health-grading-refused');
  });

  it('saves the admin’s thresholds and the self-test switch, and the account’s device gets them with its policy', async () => {
    await page.fill('[data-testid="grade-C-power_on_hours"]', '60000');
    await page.fill('[data-testid="grade-B-power_on_hours"]', '30000');
    await page.selectOption('[data-testid="grade-flag-smart_unavailable"]', '');
    await page.check('[data-testid="health-grading-self-test"]');
    await page.click('[data-testid="health-grading-save"]');
    await page.waitForSelector('text=Saved. Machines get it with their erasure policy.');
    expect(await status()).toBe('Your account’s table is in use · SMART short self-test on');
    const granted = (await devicePolicy()).json.health_grading as { rules: { metric: string; grade: string; at_least?: number }[]; smart_self_test: boolean };
    expect(granted.smart_self_test).toBe(true);
    expect(granted.rules.filter((r) => r.metric === 'power_on_hours')).toEqual([
      { metric: 'power_on_hours', grade: 'B', at_least: 30_000 },
      { metric: 'power_on_hours', grade: 'C', at_least: 60_000 },
    ]);
    expect(granted.rules.some((r) => r.metric === 'smart_unavailable')).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '66-health-grading-saved');
  });

  it('"Reset to default" goes back to the documented table, and devices get no table', async () => {
    await page.click('[data-testid="health-grading-reset"]');
    await page.waitForSelector('text=Back to the default table.');
    expect(await status()).toBe('The default table is in use · SMART short self-test off');
    expect(await page.inputValue('[data-testid="grade-C-power_on_hours"]')).toBe('40000');
    expect((await devicePolicy()).json).not.toHaveProperty('health_grading');
  });

  it('a technician does not see the card', async () => {
    await openDevices('tech@acme.test');
    expect(await card().count()).toBe(0);
  });
});

