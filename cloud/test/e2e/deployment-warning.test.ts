import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPagesIfStale, launchBrowser, PASSWORD, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';
import { seedGrid } from './web-seed.js';

/** A cloud whose certificates would link to an address customers cannot open says so on every page. */
describe('a deployment without a public URL', { timeout: 60_000 }, () => {
  const WARNING = 'PUBLIC_BASE_URL is not set: certificates and their QR codes link to http://127.0.0.1:3000, which customers cannot open.';
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startListeningCloud({ deploymentWarnings: [WARNING] });
    await seedGrid(cloud);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cloud?.close();
  });

  it('shows every signed-in user a warning banner naming the address certificates carry', async () => {
    const { page } = browser;
    await page.goto(`${cloud.base}/login`);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
    expect(await page.locator('[data-testid="deployment-warning"]').innerText()).toBe(WARNING);
    await screenshot(page, '14-public-url-warning');
  });
});
