import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fingerprint } from '../helpers.js';
import { buildPagesIfStale, launchBrowser, PASSWORD, screenshot, startListeningCloud, type RunningCloud } from './web-fixture.js';

/** An ISO 9660 primary volume descriptor at sector 16, padded to `size` bytes: a usable base image. */
function isoImage(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  bytes[16 * 2048] = 1;
  bytes.write('CD001', 16 * 2048 + 1, 'ascii');
  bytes[16 * 2048 + 6] = 1;
  return bytes;
}

/**
 * Issue 28, items 14 and 16 in Debian's Chromium against a real listening cloud: hardware tests
 * across boots on the asset page, a long unbroken note, the reversed date range, API key names at
 * their limit, the image size, the "Device token only" confirmation, the webhook URL error and one webhook for several events.
 */
describe('web app rough edges (issue 28, items 14 and 16)', { timeout: 90_000 }, () => {
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let assetId: string;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startListeningCloud({ gatewayUrl: 'https://gateway.acme.test' });
    const account = await cloud.account('Acme Refurbishing');
    await cloud.user(account.id, 'admin', 'admin@acme.test');
    const jti = await cloud.token(account.id, 'ana@acme.test');
    // Two boots of one machine: the first ran the keyboard and display tests, the second only detected Wi-Fi.
    const first = await cloud.internal('/internal/assets', { jti, record_id: 'CW-20261120-100000', engine_version: '1.4.0', fingerprint: fingerprint() });
    assetId = first.json.asset_id;
    await cloud.internal('/internal/assets/tests', {
      jti,
      record_id: 'CW-20261120-100000',
      tests: { keyboard: { status: 'passed' }, display: { status: 'failed', detail: 'Dead pixels in the top-left corner' }, audio: { status: 'passed' } },
    });
    await cloud.internal('/internal/assets', { jti, record_id: 'CW-20261121-100000', engine_version: '1.4.0', fingerprint: fingerprint() });
    await cloud.internal('/internal/assets/tests', {
      jti,
      record_id: 'CW-20261121-100000',
      tests: { keyboard: { status: 'not_started' }, display: { status: 'not_started' }, wifi_adapter: { status: 'detected', detail: 'Intel Wi-Fi 6 AX201' } },
    });
    // Wipes as a busy account has them: a customer and lot, a certificate number, a long method.
    const lotJti = await cloud.token(account.id, 'technician.with.a.long.name@acme.test', 'engine', { customer: 'Northwind Schools District 12', lotReference: 'LOT-2026-11-0042' });
    for (const [i, serial] of ['S4DYNX0M123456', 'WD-WCC4M0ABCDEF', 'Z1D5K2XXQ9'].entries()) {
      const issued = (await cloud.internal('/internal/tokens/validate', { jti: lotJti })).json.job_id as string;
      await cloud.internal('/internal/wipe_results', {
        jti: lotJti, job_id: `${issued}-0`, drive_model: 'SAMSUNG MZVLB512HAJQ-000L7', drive_serial: serial, drive_capacity_gb: 512,
        wipe_method: 'NIST 800-88 R2 Purge (cryptographic erase)', started_at: '2026-11-22T10:00:00Z', completed_at: `2026-11-22T1${i}:12:30Z`,
      });
    }
    await cloud.internal('/internal/assets/notes', { jti, record_id: 'CW-20261121-100000', notes: `Pasted hash: ${'0123456789abcdef'.repeat(300)}` });
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

  it('shows the latest result of each test across boots, with when it was taken, and each boot behind Details', async () => {
    await page.goto(`${cloud.base}/assets/${assetId}`);
    const tests = page.locator('[data-testid="section-tests"]');
    await tests.waitFor();
    expect(await tests.locator('li[data-test="keyboard"]').innerText()).toMatch(/Keyboard\s+Passed\s+taken /);
    expect(await tests.locator('li[data-test="display"]').innerText()).toMatch(/Display\s+Failed\s+Dead pixels in the top-left corner\s+taken /);
    expect(await tests.locator('li[data-test="audio"]').innerText()).toMatch(/^Audio\s+Passed/);
    expect(await tests.locator('li[data-test="wifi_adapter"]').innerText()).toMatch(/Wi-Fi adapter\s+Detected\s+Intel Wi-Fi 6 AX201/);
    const history = tests.locator('[data-testid="tests-history"]');
    expect(await history.locator('summary').innerText()).toBe('Details: each boot\u2019s results (2)');
    await history.locator('summary').click();
    expect(await history.innerText()).toContain('CW-20261120-100000');
    await screenshot(page, '40-asset-tests-across-boots');
  });

  it('wraps a long unbroken note instead of widening the page', async () => {
    const notes = page.locator('[data-testid="section-notes"]');
    expect(await notes.innerText()).toContain('0123456789abcdef');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    const box = (await notes.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1440);
    await screenshot(page, '41-asset-long-note');
  });

  it('keeps the pinned Certificate column off the Completed column at 1440 px', async () => {
    await page.goto(`${cloud.base}/wipes`);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
    const completed = (await page.locator('[data-testid="wipes-table"] tbody tr').first().locator('td:nth-last-child(2)').boundingBox())!;
    const certificate = (await page.locator('[data-testid="wipes-table"] tbody tr').first().locator('td:last-child').boundingBox())!;
    await screenshot(page, '46-wipes-1440');
    expect(completed.x + completed.width).toBeLessThanOrEqual(certificate.x + 0.5);
    const header = (await page.locator('[data-testid="wipes-table"] th:nth-last-child(2)').boundingBox())!;
    expect(header.x + header.width).toBeLessThanOrEqual(certificate.x + 0.5);
  });

  it('says a reversed completed date range matches nothing and offers to swap it', async () => {
    await page.goto(`${cloud.base}/wipes`);
    await page.fill('input[aria-label="Completed from"]', '2026-11-24');
    await page.fill('input[aria-label="Completed to"]', '2026-11-20');
    const hint = page.locator('[data-testid="date-range-hint"]');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('The range is reversed: 2026-11-24 is after 2026-11-20');
    await screenshot(page, '42-wipes-reversed-range');
    await hint.locator('button', { hasText: 'Swap the dates' }).click();
    await hint.waitFor({ state: 'detached' });
    expect(await page.locator('input[aria-label="Completed from"]').inputValue()).toBe('2026-11-20');
    expect(await page.locator('input[aria-label="Completed to"]').inputValue()).toBe('2026-11-24');
  });

  it('says an API key name is at its 100-character limit, and the server refuses a longer one', async () => {
    await page.click('nav >> text=API tokens');
    const name = page.locator('form.form-row input.input');
    await name.waitFor();
    await name.fill('ERP sync');
    expect(await page.locator('[data-testid="key-name-hint"]').innerText()).toBe('8 of 100 characters');
    await name.fill('x'.repeat(150));
    expect(await name.inputValue()).toHaveLength(100);
    expect(await page.locator('[data-testid="key-name-hint"]').innerText()).toBe('At the limit: names are at most 100 characters, and no more can be typed.');
    await screenshot(page, '43-api-key-name-limit');
    const refused = await page.evaluate(async (long) => {
      const me = await (await fetch('/app/api/me')).json();
      const res = await fetch('/app/api/api-keys', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token }, body: JSON.stringify({ name: long }) });
      return { status: res.status, body: await res.json() };
    }, 'y'.repeat(101));
    expect(refused).toEqual({ status: 422, body: { error: 'name is too long: at most 100 characters' } });
  });

  it('shows the image\u2019s real size and confirms a "Device token only" download', async () => {
    mkdirSync(cloud.imagesDir, { recursive: true });
    writeFileSync(join(cloud.imagesDir, 'erasure-1.0-amd64.iso'), isoImage(400 * 1024));
    await page.click('nav >> text=Downloads');
    const download = page.locator('[data-testid="download-engine"]');
    await download.waitFor();
    expect(await download.innerText()).toBe('Download image (0.4 MiB)');
    expect(await page.locator('[data-testid="token-saved-engine"]').count()).toBe(0);
    const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-token-engine"]')]);
    expect(file.suggestedFilename()).toBe('device-token');
    const saved = page.locator('[data-testid="token-saved-engine"]');
    await saved.waitFor();
    expect(await saved.innerText()).toMatch(/^A new device token was minted at .*device-token.*Devices page/);
    await screenshot(page, '44-downloads-token-saved');
  });

  it('replaces an earlier webhook error with its own when the URL is empty', async () => {
    await page.click('nav >> text=Webhooks');
    const url = page.locator('input[placeholder="https://example.com/hooks/erasure"]');
    await url.waitFor();
    await url.fill('ftp://example.com/hook');
    await page.click('button:has-text("Add webhook")');
    const error = page.locator('.page-error, .note-danger').first();
    await error.waitFor();
    const first = await error.innerText();
    await url.fill('');
    await page.click('button:has-text("Add webhook")');
    await expect.poll(() => error.innerText()).toBe('Enter the URL of the receiver, for example https://example.com/hooks/erasure.');
    expect(first).not.toContain('Enter the URL');
    await screenshot(page, '45-webhooks-empty-url');
  });

  it('subscribes one webhook to every event: the spec’s six, validation_rejected and drive_stalled', async () => {
    await page.locator('[data-testid="more-events"] button', { hasText: 'All 8 events' }).click();
    expect(await page.locator('[data-testid="more-events"] input[type="checkbox"]:checked').count()).toBe(7);
    await page.fill('input[placeholder="https://example.com/hooks/erasure"]', 'http://127.0.0.1:9/all-events');
    await screenshot(page, '47-webhooks-all-six-form');
    await page.click('button:has-text("Add webhook")');
    const events = page.locator('[data-testid="webhooks-table"] tbody tr', { hasText: '/all-events' }).locator('[data-testid="webhook-events"]');
    await events.waitFor();
    expect((await events.innerText()).split('\n').map((line) => line.trim())).toEqual([
      'wipe_session_ready', 'wipe_session_blocked', 'asset_reported', 'hardware_tests_completed', 'wipe_session_completed', 'certificate_generated', 'validation_rejected',
      'drive_stalled',
    ]);
    await screenshot(page, '48-webhooks-all-six');
  });
});
