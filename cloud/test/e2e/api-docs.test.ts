import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { buildPagesIfStale, launchBrowser, PASSWORD, SCREENS_DIR, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';
import { seedGrid } from './web-seed.js';

/** A new integrator finds the API documentation from the API tokens page, and can read it. */
describe('API documentation in a real browser', { timeout: 60_000 }, () => {
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startListeningCloud();
    await seedGrid(cloud);
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${cloud.base}/login`);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cloud?.close();
  });

  it('links the API documentation from the API tokens page', async () => {
    await page.click('nav >> text=API tokens');
    await page.waitForSelector('[data-testid="api-docs-links"]');
    await screenshot(page, '08b-api-tokens-docs-link');
    await Promise.all([page.waitForURL(/\/api\/v1\/docs$/), page.click('[data-testid="api-docs-links"] >> text=API documentation')]);
    expect(await page.locator('h1').innerText()).toBe('Erasure public API');
  });

  it('shows every endpoint with its parameters and answers, and the fields behind a disclosure', async () => {
    await page.goto(`${cloud.base}/api/v1/docs`);
    for (const path of ['/api/v1/assets', '/api/v1/assets/{id}', '/api/v1/accounts', '/api/v1/me']) {
      expect(await page.locator(`section h3 code:text-is("${path}")`).count(), path).toBe(1);
    }
    await page.locator('#listAssets details').first().locator('summary').click();
    expect(await page.locator('#listAssets details table').first().innerText()).toContain('assets[].serial_number');
    await screenshot(page, '11-api-docs');
  });

  it('shows the certificates and lots (issue 31 item 5), with the 302 of a PDF and the lot\u2019s fields', async () => {
    await page.goto(`${cloud.base}/api/v1/docs`);
    for (const path of ['/api/v1/certificates/{number}', '/api/v1/certificates/{number}/pdf', '/api/v1/certificates/{number}/report', '/api/v1/lots', '/api/v1/lots/{id}', '/api/v1/lots/{id}/pdf']) {
      expect(await page.locator(`section h3 code:text-is("${path}")`).count(), path).toBe(1);
    }
    expect(await page.locator('#getCertificatePdf').innerText()).toContain('presigned URL');
    await page.locator('#getLot details').first().locator('summary').click();
    expect(await page.locator('#getLot details table').first().innerText()).toContain('drives[].certificate_number');
    // The two new sections themselves: the whole page is long.
    await page.locator('#getCertificatePdf').screenshot({ path: join(SCREENS_DIR, '11b-api-docs-certificate-pdf.png') });
    await page.locator('#getLot').screenshot({ path: join(SCREENS_DIR, '11c-api-docs-lot.png') });
    expect(await page.locator('#getLotPdf').innerText()).toContain('presigned URL');
    expect(await page.locator('#getLotPdf').innerText()).toContain('409 The lot was made before the cloud kept lot PDFs');
    await page.locator('#getLotPdf').screenshot({ path: join(SCREENS_DIR, '11d-api-docs-lot-pdf.png') });
  });
});
