import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildPagesIfStale, launchBrowser, openDevices as openDevicesAs, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';

/**
 * Issue 29 item 2 in the browser: the account's erasure policy on /devices, edited by an admin
 * (a refusal shown as the server words it), read-only for a technician, and a device token's own
 * policy (a customer's contract) set from its row. Each change is checked where a device reads it.
 */
describe('the erasure policy on the Devices page', { timeout: 120_000 }, () => {
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let account: { id: number; publicId: string };
  let jti: string;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startListeningCloud();
    account = await cloud.account('Acme Refurbishing');
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

  it('an admin sets the default method, a 10% sample and the allowed methods, and devices get that policy', async () => {
    await openDevices('admin@acme.test');
    await page.selectOption('[data-testid="policy-form-default"]', 'dod-5220.22-m-3');
    await page.selectOption('[data-testid="policy-form-verification"]', 'sample');
    await page.fill('[data-testid="policy-form-sample"]', '10');
    // Allowed: DoD 3-pass and NIST Clear only.
    for (const box of await page.locator('[data-testid="policy-form"] input[type="checkbox"]').all()) {
      const id = await box.getAttribute('data-method');
      await box.setChecked(id === 'dod-5220.22-m-3' || id === 'nist-800-88-clear');
    }
    await page.click('[data-testid="policy-form-save"]');
    await page.waitForSelector('text=Saved: machines checking in from now on erase with this policy.');
    expect(await page.locator('[data-testid="policy-summary"]').innerText()).toBe(
      'Default method: DoD 5220.22-M (3 passes)\nVerification: 10% of each drive read back (sampled)\nTechnicians may choose: NIST 800-88 R2 Clear, DoD 5220.22-M (3 passes)',
    );
    expect((await devicePolicy()).json).toEqual({
      erasure_policy: { default_method: 'dod-5220.22-m-3', verification: { sample: 10 }, allowed_methods: ['nist-800-88-clear', 'dod-5220.22-m-3'] },
      source: 'account',
    });
    await screenshot(page, '60-erasure-policy-admin');
  });

  it('a sample outside 1..100 is refused with the server’s words, and the stored policy stays', async () => {
    await page.fill('[data-testid="policy-form-sample"]', '150');
    await page.click('[data-testid="policy-form-save"]');
    await expect.poll(() => page.locator('[data-testid="erasure-policy"] [role="alert"]').innerText()).toBe('verification sample must be a whole number of per cent from 1 to 100');
    expect((await devicePolicy()).json.erasure_policy.verification).toEqual({ sample: 10 });
    await screenshot(page, '61-erasure-policy-refused');
  });

  it('an admin gives a token a customer’s contract from its row, which the device then gets instead', async () => {
    await openDevices('admin@acme.test');
    const row = page.locator(`tr[data-jti="${jti}"]`);
    expect(await row.locator('[data-testid="token-policy"]').innerText()).toBe('Account policy');
    await row.locator('[data-testid="token-policy-edit"]').click();
    await page.selectOption('[data-testid="token-policy-form-default"]', 'hmg-is5-enhanced');
    await page.selectOption('[data-testid="token-policy-form-verification"]', 'every-pass');
    for (const box of await page.locator('[data-testid="token-policy-form"] input[type="checkbox"]').all()) {
      await box.setChecked((await box.getAttribute('data-method')) === 'hmg-is5-enhanced');
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '62-erasure-policy-token-editor');
    await page.click('[data-testid="token-policy-form-save"]');
    await expect.poll(() => row.locator('[data-testid="token-policy"]').innerText()).toBe('Contract: HMG IS5 Enhanced\nevery pass read back');
    expect((await devicePolicy()).json).toEqual({
      erasure_policy: { default_method: 'hmg-is5-enhanced', verification: 'every-pass', allowed_methods: ['hmg-is5-enhanced'] },
      source: 'token',
    });
    // The sticky header would be drawn over the page where the editor left it scrolled.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '63-erasure-policy-token-contract');
  });

  it('a technician reads the policy but gets no form and no contract button', async () => {
    await openDevices('tech@acme.test');
    expect(await page.locator('[data-testid="erasure-policy"]').innerText()).toContain('Only account admins can change the erasure policy.');
    expect(await page.locator('[data-testid="policy-form"]').count()).toBe(0);
    expect(await page.locator('[data-testid="token-policy-edit"]').count()).toBe(0);
    await screenshot(page, '64-erasure-policy-technician');
  });
});
