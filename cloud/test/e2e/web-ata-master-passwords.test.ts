import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildPagesIfStale, launchBrowser, openDevices as openDevicesAs, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';

/**
 * Issue 30 item 1 in the browser: an admin enters the account's ATA master passwords on /devices;
 * after saving, the page shows how many are set and their labels, never a password, and the
 * account's device gets them with its erasure policy. A technician does not see the card.
 */
const FLEET = 'Fleet-Master-2019';
const SPARE = 'Spare-Master-77';

describe('ATA master passwords on the Devices page', { timeout: 120_000 }, () => {
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

  const openDevices = (email: string) => openDevicesAs(browser, cloud.base, email);
  const devicePolicy = () => cloud.internal('/internal/tokens/erasure_policy', { jti });
  const status = () => page.locator('[data-testid="ata-master-passwords-status"]').innerText();

  it('an admin enters two master passwords and the factory-default choice; the page then shows only how many and their labels', async () => {
    await openDevices('admin@acme.test');
    await expect.poll(status).toBe('No master passwords set\nMakers’ factory-default master passwords: not tried');
    // From the top: a full-page shot of a scrolled page draws the sticky menu bar mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '62-ata-master-passwords-before');
    await page.fill('[data-testid="ata-master-password-0"]', FLEET);
    await page.fill('[data-testid="ata-master-label-0"]', 'Dell lease fleet');
    await page.click('[data-testid="ata-master-add"]');
    await page.fill('[data-testid="ata-master-password-1"]', SPARE);
    await page.check('[data-testid="ata-master-factory"]');
    await page.click('[data-testid="ata-master-save"]');
    await page.waitForSelector('text=Saved. The passwords are not shown again.');
    expect(await status()).toBe('2 master passwords set: Dell lease fleet, password 2\nMakers’ factory-default master passwords: tried too');
    // Write-only: no field holds a password any more, and the page's text has neither.
    expect(await page.inputValue('[data-testid="ata-master-password-0"]')).toBe('');
    const html = await page.content();
    expect(html).not.toContain(FLEET);
    expect(html).not.toContain(SPARE);
    expect((await devicePolicy()).json).toMatchObject({ ata_master_passwords: { passwords: [FLEET, SPARE], factory_defaults: true } });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '63-ata-master-passwords-saved');
  });

  it('a password longer than 32 characters is refused with the server’s words, and the saved ones stay', async () => {
    await page.fill('[data-testid="ata-master-password-0"]', 'x'.repeat(33));
    await page.click('[data-testid="ata-master-save"]');
    await expect.poll(() => page.locator('[data-testid="ata-master-passwords"] [role="alert"]').innerText()).toBe('master password 1 is longer than 32 characters (the ATA limit)');
    expect((await devicePolicy()).json.ata_master_passwords.passwords).toEqual([FLEET, SPARE]);
  });

  it('"Remove all" removes them, and devices get none', async () => {
    await openDevices('admin@acme.test');
    await page.click('[data-testid="ata-master-remove"]');
    await page.waitForSelector('text=All master passwords removed.');
    expect(await status()).toBe('No master passwords set\nMakers’ factory-default master passwords: not tried');
    expect((await devicePolicy()).json).not.toHaveProperty('ata_master_passwords');
  });

  it('a technician does not see the master passwords card', async () => {
    await openDevices('tech@acme.test');
    expect(await page.locator('[data-testid="ata-master-passwords"]').count()).toBe(0);
  });
});
