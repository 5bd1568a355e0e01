import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signServiceRequest } from '@erasure/shared';
import { systemClock } from '../../src/adapters/clock.js';
import { createAccount } from '../../src/adapters/db/accounts.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import { createUser } from '../../src/adapters/db/users.js';
import { hashPassword } from '../../src/adapters/passwords.js';
import { buildCloudApp } from '../../src/http/app.js';
import { createWebhookRuntime, type WebhookRuntime } from '../../src/jobs/webhook-runtime.js';
import { fingerprint } from '../helpers.js';
import { openTestStore } from '../support/test-store.js';
import { signatureValid, startReceiver, waitFor } from '../webhook-helpers.js';
import { buildPagesIfStale, launchBrowser, PASSWORD, screenshot, SECRET } from './web-fixture.js';

/**
 * `/webhooks` in Debian's Chromium against a real listening cloud in WEBHOOK_ALLOW_HTTP + WEBHOOK_ALLOW_LOOPBACK mode,
 * with its delivery worker running on a tiny retry base, and a real loopback receiver: create a
 * subscription from the page (secret shown once), a device boot delivers `asset_reported`, a
 * failing receiver auto-disables the subscription (banner with the last error), re-enabling from
 * the page redelivers what failed or was skipped, and the page's test ping arrives signed.
 */
describe('webhooks page in a real browser', { timeout: 60_000 }, () => {
  let dir: string;
  let db: SqlDatabase;
  let runtime: WebhookRuntime;
  let app: ReturnType<typeof buildCloudApp>;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let jti: string;
  let secret: string;
  let webhookId: string;

  beforeAll(async () => {
    buildPagesIfStale();
    dir = mkdtempSync(join(tmpdir(), 'erasure-e2e-webhooks-'));
    db = await openTestStore(dir);
    const publicBaseUrl = 'https://cloud.example.test';
    // WEBHOOK_ALLOW_HTTP=1, WEBHOOK_ALLOW_LOOPBACK=1 and WEBHOOK_RETRY_BASE_MS=1, as the webhook app tests run it.
    runtime = createWebhookRuntime({ db, clock: systemClock, publicBaseUrl, outbound: { allowHttp: true, allowLoopback: true }, retryBaseMs: 1 });
    app = buildCloudApp({ db, clock: systemClock, internalApiSecret: SECRET, publicBaseUrl, outbound: { allowHttp: true, allowLoopback: true }, webhooks: runtime });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    runtime.startWorker({ pollMs: 25, concurrency: 1 });

    const now = new Date().toISOString();
    const acme = await createAccount(db, { name: 'Acme Refurbishing', subscriptionStatus: 'active', now });
    await createUser(db, { accountId: acme.id, email: 'admin@acme.test', passwordHash: await hashPassword(PASSWORD), role: 'admin', now });
    jti = (await createToken(db, { accountId: acme.id, product: 'engine', quotaLimit: 50, userEmail: 'ana@acme.test', expiresAt: null, now })).jti;

    receiver = await startReceiver(() => 200);
    browser = await launchBrowser();
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await runtime?.stop();
    await app?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A machine's first boot, as the gateway reports it: signed POST /internal/assets. */
  async function boot(n: number): Promise<string> {
    const payload = JSON.stringify({
      jti,
      record_id: `CW-20261122-10000${n}`,
      engine_version: '1.4.0',
      fingerprint: fingerprint(`4c4c4544-0042-3510-8051-b4c04f56000${n}`, `SERIAL${n}`),
    });
    const headers = signServiceRequest(SECRET, payload, Math.floor(Date.now() / 1000));
    const res = await fetch(`${base}/internal/assets`, { method: 'POST', body: payload, headers: { ...headers, 'content-type': 'application/json' } });
    expect(res.status).toBe(201); // a first boot
    return ((await res.json()) as { asset_id: string }).asset_id;
  }

  const hookRow = () => page.locator('[data-testid="webhooks-table"] tbody tr', { hasText: receiver.url });
  const deliveryRows = () => page.locator('[data-testid="webhook-deliveries"] > .table-wrap > table > tbody > tr');
  const deliveryCells = async () =>
    Promise.all((await deliveryRows().all()).map(async (row) => (await row.locator('> td').allInnerTexts()).map((t) => t.trim())));
  /** Reloads /webhooks (the page reads once) and opens the subscription's delivery log. */
  async function openLog() {
    await page.goto(`${base}/webhooks`);
    await hookRow().waitFor();
    await hookRow().locator('button:has-text("Deliveries")').click();
    await page.waitForSelector('[data-testid="webhook-deliveries"]');
  }
  const deliveries = () =>
    db.many<{ status: string; attempts: number; response_code: number | null }>('SELECT d.status, d.attempts, d.response_code FROM webhook_deliveries d ORDER BY d.id');

  it('signs in as the account admin and creates an asset_reported subscription, its secret shown once', async () => {
    await page.goto(`${base}/webhooks`);
    await page.waitForURL(/\/login/);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(`${base}/webhooks`), page.click('button[type="submit"]')]);
    await page.waitForSelector('[data-testid="webhooks-table"]');
    expect(await page.locator('.empty').innerText()).toBe('No webhooks yet.');

    await page.selectOption('section.card label:has-text("Event") select', 'asset_reported');
    await page.fill('input[placeholder^="https://example.com"]', receiver.url);
    await page.click('button:has-text("Add webhook")');
    const shown = page.locator('[data-testid="signing-secret"]');
    await shown.waitFor();
    secret = (await shown.locator('code').innerText()).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    webhookId = (await shown.locator('strong').innerText()).match(/whk_\S+?(?=:)/)![0];
    expect(await hookRow().innerText()).toMatch(/asset_reported[\s\S]*none[\s\S]*Healthy[\s\S]*Never/);

    await page.reload();
    await hookRow().waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('delivers a device boot’s asset_reported, signed, and logs it as delivered with the response code', async () => {
    const assetId = await boot(1);
    await waitFor(() => receiver.requests.length === 1, 10_000, 'first delivery');
    const [received] = receiver.requests;
    expect(received!.json).toMatchObject({ event_type: 'asset_reported', id: assetId, serial_number: 'SERIAL1' });
    expect(received!.headers['x-erase-engine-event']).toBe('asset_reported');
    expect(signatureValid(secret, received!)).toBe(true);
    await waitFor(async () => (await deliveries())[0]?.status === 'delivered', 10_000, 'ledger delivered');

    await openLog();
    expect(await page.locator('[data-testid="webhook-deliveries"]').locator('xpath=..').locator('h2').innerText()).toBe(`Deliveries of ${webhookId}`);
    const [row] = await deliveryCells();
    expect(row!.slice(0, 5)).toEqual([`${received!.json.event_id.slice(0, 8)}…`, 'delivered', '1', '200', '—']);
    expect(await deliveryRows().first().locator('td').first().getAttribute('title')).toBe(received!.json.event_id);
    expect(await hookRow().locator('.badge').innerText()).toBe('Healthy');
    expect(await hookRow().locator('td:nth-child(6)').innerText()).not.toBe('Never');

    await deliveryRows().first().locator('button:has-text("Details")').click();
    const details = await deliveryRows().nth(1).innerText();
    expect(details).toContain('"event_type": "asset_reported"');
    expect(details).toMatch(/1\s+delivered\s+200/);
    await screenshot(page, 'webhooks-active');
  });

  it('auto-disables after 5 failed attempts in a row and shows it prominently with the last error', async () => {
    receiver.respond(() => 500);
    await boot(2);
    await waitFor(async () => (await deliveries())[1]?.status === 'skipped', 10_000, 'auto-disable');
    // While disabled, a further event is kept as skipped and nothing is sent.
    await boot(3);
    await waitFor(async () => (await deliveries())[2]?.status === 'skipped', 10_000, 'skipped while disabled');
    expect(receiver.requests).toHaveLength(6);

    await openLog();
    const banner = page.locator('[data-testid="auto-disabled"]');
    await banner.waitFor();
    expect(await banner.getAttribute('role')).toBe('alert');
    const text = await banner.innerText();
    expect(text).toContain(`asset_reported → ${receiver.url} was disabled after 5 failed deliveries in a row`);
    expect(text).toContain('Last error: HTTP 500.');
    // Above the form and the table, in the danger style.
    expect(await banner.evaluate((el) => el.classList.contains('note-danger'))).toBe(true);
    const bannerBox = (await banner.boundingBox())!;
    const tableBox = (await page.locator('[data-testid="webhooks-table"]').boundingBox())!;
    expect(bannerBox.y).toBeLessThan(tableBox.y);

    expect(await hookRow().locator('.badge').innerText()).toBe('Auto-disabled');
    expect(await hookRow().innerText()).toContain('5 consecutive failures');
    expect(await hookRow().locator('td:nth-child(5)').innerText()).toMatch(/^HTTP 500 \(/);
    expect(await hookRow().locator('button:text-is("Enable")').count()).toBe(1);

    const log = await deliveryCells();
    expect(log.map((cells) => cells.slice(1, 5))).toEqual([
      ['skipped', '0', '—', '—'],
      ['skipped', '5', '500', 'HTTP 500'],
      ['delivered', '1', '200', '—'],
    ]);
    await screenshot(page, 'webhooks-auto-disabled');
  });

  it('re-enables from the banner and redelivers the failed and skipped events, oldest first', async () => {
    receiver.respond(() => 200);
    await page.locator('[data-testid="auto-disabled"] button:has-text("Re-enable and redeliver")').click();
    await expect.poll(() => page.locator('.note-info').first().innerText()).toBe('Enabled: redelivering 2 event(s), oldest first.');
    // The page reloads its list after the action: poll until it shows, never read once.
    await expect.poll(() => page.locator('[data-testid="auto-disabled"]').count()).toBe(0);
    await waitFor(async () => (await deliveries()).every((d) => d.status === 'delivered'), 10_000, 'redelivery');
    expect(receiver.requests).toHaveLength(8);
    expect(receiver.requests.slice(6).map((r) => r.json.serial_number)).toEqual(['SERIAL2', 'SERIAL3']);
    // A redelivery reuses the event_id of the failed attempts.
    expect(receiver.requests[6]!.json.event_id).toBe(receiver.requests[1]!.json.event_id);
    expect(receiver.requests.slice(6).every((r) => signatureValid(secret, r))).toBe(true);

    await openLog();
    await expect.poll(() => hookRow().locator('.badge').innerText()).toBe('Healthy');
    await expect.poll(async () => (await deliveryCells()).map((cells) => cells.slice(1, 5))).toEqual([
      ['delivered', '1', '200', '—'],
      ['delivered', '6', '200', '—'],
      ['delivered', '1', '200', '—'],
    ]);
  });

  it('sends a signed test ping from the page', async () => {
    await hookRow().locator('button:text-is("Test")').click();
    await expect.poll(() => page.locator('.note-info').first().innerText()).toBe('Test ping answered HTTP 200.');
    expect(receiver.requests).toHaveLength(9);
    const ping = receiver.requests[8]!;
    expect(ping.json).toMatchObject({ event_type: 'asset_reported', test: true });
    expect(ping.headers['x-erase-engine-event']).toBe('asset_reported');
    expect(signatureValid(secret, ping)).toBe(true);
    // No ledger row for a ping.
    expect(await deliveries()).toHaveLength(3);
  });

  it('rotates the signing secret from the page: the new one shown once, and the old one signing beside it for the rollover window', async () => {
    await hookRow().locator('button:text-is("Rotate secret")').click();
    const shown = page.locator('[data-testid="signing-secret"]');
    await expect.poll(() => shown.locator('strong').innerText()).toMatch(/^New signing secret of whk_/);
    const fresh = (await shown.locator('code').innerText()).trim();
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(secret);
    await expect.poll(() => page.locator('[data-testid="rollover"]').innerText()).toMatch(/every delivery carries both signatures/);

    await hookRow().locator('button:text-is("Test")').click();
    await expect.poll(() => receiver.requests.length).toBe(10);
    const ping = receiver.requests[9]!;
    expect(String(ping.headers['x-erase-engine-signature']).split(' ')).toHaveLength(2);
    expect(signatureValid(fresh, ping)).toBe(true);
    expect(signatureValid(secret, ping)).toBe(true);
  });

  it('shows a failed test ping as a failure, in the categories Push uses, without errno or port', async () => {
    // A receiver that is gone: the port is closed, so the connection is refused.
    const gone = await startReceiver(() => 200);
    await gone.close();
    await page.selectOption('section.card label:has-text("Event") select', 'certificate_generated');
    await page.fill('input[placeholder^="https://example.com"]', gone.url);
    await page.click('button:has-text("Add webhook")');
    const row = page.locator('[data-testid="webhooks-table"] tbody tr', { hasText: gone.url });
    await row.waitFor();
    await row.locator('button:text-is("Test")').click();

    const alert = page.locator('.note-danger[role="alert"]', { hasText: 'Test ping' });
    await expect.poll(() => alert.innerText()).toBe(
      `Test ping to ${gone.url} failed: could not connect. Test pings do not change the webhook's health; fix the receiver and test again.`,
    );
    expect(await page.locator('.note-info', { hasText: 'Test ping' }).count()).toBe(0);
    const result = row.locator('[data-testid="ping-result"]');
    expect(await result.innerText()).toBe('Test ping failed: could not connect');
    expect(await result.evaluate((el) => el.classList.contains('text-fail'))).toBe(true);
    const shown = await page.locator('main').innerText();
    expect(shown).not.toMatch(/ECONNREFUSED|connect E[A-Z]+/);
    await screenshot(page, 'webhooks-test-ping-failed');
  });
});
