import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildPagesIfStale, launchBrowser, PASSWORD, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';

const GATEWAY = 'https://gateway.acme.test';

/** The first bytes of an ISO 9660 image: a primary volume descriptor (type 1, CD001, version 1) at sector 16. */
function isoHeader(): Buffer {
  const bytes = Buffer.alloc(16 * 2048 + 2048);
  bytes[16 * 2048] = 1;
  bytes.write('CD001', 16 * 2048 + 1, 'ascii');
  bytes[16 * 2048 + 6] = 1;
  return bytes;
}

/**
 * `/downloads` as an account admin sees it (issue 23 item 5), without and with a base image, on a
 * server with and without PUBLIC_GATEWAY_URL: the exact folder and variable in plain words (no
 * literal backticks), and what to do with a "Device token only" file.
 */
describe('the downloads page says exactly where and what to set', { timeout: 60_000 }, () => {
  let bare: RunningCloud;
  let configured: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    buildPagesIfStale();
    bare = await startListeningCloud();
    configured = await startListeningCloud({ gatewayUrl: GATEWAY });
    for (const cloud of [bare, configured]) {
      const account = await cloud.account('Acme Refurbishing');
      await cloud.user(account.id, 'admin', 'admin@acme.test');
    }
    browser = await launchBrowser();
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bare?.close();
    await configured?.close();
  });

  async function openDownloads(cloud: RunningCloud) {
    await browser.context.clearCookies();
    await page.goto(`${cloud.base}/login`);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
    await page.click('nav >> text=Downloads');
    await page.waitForSelector('[data-testid="token-file-help"]');
  }

  const text = (testid: string) => page.locator(`[data-testid="${testid}"]`).innerText();

  it('without an image, names this server\u2019s images folder and how to build an image, without literal backticks', async () => {
    await openDownloads(bare);
    expect(await text('no-base-image')).toBe(
      `No boot image is installed on this server yet. Build it with npm run iso (it writes iso-build/out/erasure-<version>-amd64.iso), then copy that file into ${bare.imagesDir} on this server.`,
    );
    expect(await text('images-dir')).toBe(bare.imagesDir);
    expect(await page.locator('main').innerText()).not.toContain('`');
    expect(await page.locator('main').innerText()).not.toContain('DATA_DIR');
    await screenshot(page, '25-downloads-no-image');
  });

  it('says what to do with a device token file: bake it into an image with erasure-iso personalize', async () => {
    const help = await text('token-file-help');
    expect(help).toContain('npx erasure-iso personalize BASE.iso --device-token-file device-token --gateway-url GATEWAY_URL --out erasure-personal.iso');
    expect(help).toContain('erasure/device-token');
  });

  it('with an image but no gateway configured, says to set PUBLIC_GATEWAY_URL and how, and offers no image download', async () => {
    mkdirSync(bare.imagesDir, { recursive: true });
    writeFileSync(join(bare.imagesDir, 'erasure-1.0-amd64.iso'), isoHeader());
    await openDownloads(bare);
    expect(await text('gateway-unconfigured')).toBe(
      'Image downloads are unavailable: this server does not know the gateway address devices should call. Set PUBLIC_GATEWAY_URL in the cloud\u2019s environment to the gateway\u2019s public address, for example PUBLIC_GATEWAY_URL=https://gateway.example.com, and restart the cloud. npm start sets it to the local gateway by itself.',
    );
    expect(await page.locator('[data-testid="no-base-image"]').count()).toBe(0);
    expect(await page.locator('[data-testid="download-engine"]').isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="download-token-engine"]').isDisabled()).toBe(false);
    await screenshot(page, '26-downloads-image-no-gateway');
    rmSync(join(bare.imagesDir, 'erasure-1.0-amd64.iso'));
  });

  it('with an image and the gateway configured, offers the image and names the gateway in the personalize command', async () => {
    mkdirSync(configured.imagesDir, { recursive: true });
    writeFileSync(join(configured.imagesDir, 'erasure-1.0-amd64.iso'), isoHeader());
    await openDownloads(configured);
    await page.waitForSelector('[data-testid="download-engine"]:not([disabled])');
    expect(await page.locator('[data-testid="gateway-unconfigured"]').count()).toBe(0);
    expect(await text('token-file-help')).toContain(`--gateway-url ${GATEWAY} --out erasure-personal.iso`);
    await screenshot(page, '27-downloads-image-ready');
  });
});
