import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/clock.js';
import { mintApiKey } from '../../src/adapters/db/api-key-issuance.js';
import { insertLotDocument } from '../../src/adapters/db/lot-documents.js';
import { launchBrowser, startListeningCloud, type RunningCloud } from '../e2e/web-fixture.js';
import { startSandbox, type Sandbox } from './helpers.js';

/** Screenshots go to the repo's gitignored test-results/. */
const SCREENS = fileURLToPath(new URL('../../../test-results/sandbox/', import.meta.url));

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
}

describe('sandbox pages in Chromium (spec 4.6)', () => {
  let sut: Sandbox;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    sut = await startSandbox({ webappBaseUrl: 'http://127.0.0.1:3000' });
    browser = await launchBrowser();
    page = browser.page;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('the API browser lists every endpoint, sends a request and shows status and JSON', async () => {
    await page.goto(`${sut.base}/`);
    await expect(page.title()).resolves.toBe('API browser · Erasure sandbox');
    // The spec's endpoints, and the real API's wipes, certificates and lots through live_request (issue 31 item 5).
    expect(await page.locator('#endpoint-list button').count()).toBe(27);
    // The live_request entries share one path; each names the real API route it asks for.
    expect(await page.locator('#endpoint-list button', { hasText: '/sandbox/live_request' }).allInnerTexts()).toEqual([
      'POST/sandbox/live_request\n→ /api/v1/assets',
      'POST/sandbox/live_request\n→ /api/v1/wipes',
      'POST/sandbox/live_request\n→ /api/v1/certificates/CW-000001',
      'POST/sandbox/live_request\n→ /api/v1/lots',
      'POST/sandbox/live_request\n→ /api/v1/lots/<lotdoc_id>/pdf',
    ]);
    // The first endpoint (POST /sandbox/tokens with a sample body) is preselected.
    await expect(page.inputValue('#path')).resolves.toBe('/sandbox/tokens');
    await page.click('#send');
    await page.locator('#status', { hasText: '201' }).waitFor({ timeout: 5000 });
    const answer = JSON.parse((await page.textContent('#response')) ?? '');
    expect(answer).toMatchObject({ account_name: 'Acme Refurb', user_email: 'tech@acme.test', quota_limit: 5, use_count: 0 });
    await screenshot(page, 'api-browser');

    // Picking another endpoint and sending a GET shows the row just minted.
    await page.locator('#endpoint-list button', { hasText: 'GET/sandbox/tokens' }).click();
    await page.click('#send');
    await page.locator('#status', { hasText: '200' }).waitFor({ timeout: 5000 });
    expect(await page.textContent('#response')).toContain(answer.jti);

    // A device call with the jti as credential: the token just minted is already in the body (issue 28, item 18).
    await page.locator('#endpoint-list button', { hasText: '/internal/tokens/verify' }).click();
    expect(JSON.parse(await page.inputValue('#body'))).toEqual({ jti: answer.jti });
    expect(await page.inputValue('#body')).not.toContain('<jti>');
    await screenshot(page, 'api-browser-minted-jti');
    await page.click('#send');
    await page.locator('#status', { hasText: '200' }).waitFor({ timeout: 5000 });
    expect(JSON.parse((await page.textContent('#response')) ?? '')).toEqual({ allow: true, status: 'active', account: 'Acme Refurb', quota_remaining: 5 });

    // The PATCH path names the minted token too.
    await page.locator('#endpoint-list button', { hasText: 'PATCH/sandbox/tokens/' }).click();
    await expect(page.inputValue('#path')).resolves.toBe(`/sandbox/tokens/${answer.jti}`);
  });

  it('the webhook viewer shows a new sink capture within 3 seconds and re-enables a subscription', async () => {
    const token = await sut.token({ account_id: 'acct_viewer', account_name: 'Viewer Co' });
    const hook = (await sut.call('POST', '/sandbox/webhooks', { event_type: 'wipe_session_ready', account_id: 'acct_viewer' })).json;
    await page.goto(`${sut.base}/webhooks`);
    await page.locator('#subscriptions', { hasText: hook.prefix_id }).waitFor({ timeout: 5000 });
    await page.locator('#captures', { hasText: 'Nothing captured yet' }).waitFor({ timeout: 5000 });

    await sut.internal('/internal/tokens/validate', { jti: token.jti });
    const started = Date.now();
    await page.locator('#captures tr', { hasText: 'wipe_session_ready' }).waitFor({ timeout: 3500 });
    expect(Date.now() - started).toBeLessThan(3500);
    await expect(page.locator('#captures').textContent()).resolves.toContain('signature valid');
    await expect(page.locator('#deliveries').textContent()).resolves.toContain('delivered');

    await sut.call('PATCH', `/sandbox/webhooks/${hook.prefix_id}`, { active: false });
    const button = page.locator(`button[data-enable="${hook.prefix_id}"]`);
    await button.waitFor({ timeout: 3500 });
    await screenshot(page, 'webhooks-viewer');
    await button.click();
    await button.waitFor({ state: 'detached', timeout: 3500 });
    expect((await sut.call('GET', '/sandbox/webhooks')).json.find((w: any) => w.prefix_id === hook.prefix_id)).toMatchObject({ active: true, failure_count: 0 });
  });

});

/**
 * The live console signs the caller in with the API key it sends on (issue 20, item 1): against a
 * real listening cloud, a valid key gets the real answer, a missing one the sandbox's refusal.
 */
describe('sandbox live console in Chromium (spec 4.6)', () => {
  let cloud: RunningCloud;
  let sut: Sandbox;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let apiKey = '';

  beforeAll(async () => {
    cloud = await startListeningCloud();
    const account = await cloud.account('Real Refurb Ltd');
    apiKey = (await mintApiKey({ db: cloud.db, clock: systemClock }, { accountId: account.id, name: 'console', createdByUserId: null })).apiKey;
    // WEBHOOK_ALLOW_LOOPBACK mode (startSandbox's default): the web application listens on loopback here.
    sut = await startSandbox({ webappBaseUrl: cloud.base });
    browser = await launchBrowser();
    page = browser.page;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sut?.close();
    await cloud?.close();
  });

  it('loads with the webapp base URL and shows the real API answer for a valid key', async () => {
    await page.goto(`${sut.base}/live`);
    await expect(page.inputValue('#base-url')).resolves.toBe(cloud.base);
    await page.fill('#api-key', apiKey);
    await page.fill('#path', '/api/v1/accounts');
    await page.fill('#query', '');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Real API answered 200' }).waitFor({ timeout: 5000 });
    expect(await page.textContent('#response')).toContain('Real Refurb Ltd');
    await screenshot(page, 'live-console');
  });

  it('passes the real API\u2019s wipes through with the grid\u2019s filters (issue 31 item 5)', async () => {
    const account = (await cloud.db.one<{ id: number }>("SELECT id FROM accounts WHERE name = 'Real Refurb Ltd'"))!.id;
    const jti = await cloud.token(account, 'ana@real.test', 'engine', { customer: 'Contoso' });
    for (const [serial, status] of [['LIVE-1', 'completed'], ['LIVE-2', 'failed']] as const) {
      const issued = (await cloud.internal('/internal/tokens/validate', { jti })).json.job_id as string;
      await cloud.internal('/internal/wipe_results', { jti, job_id: `${issued}-0`, drive_serial: serial, wipe_status: status });
    }
    await page.goto(`${sut.base}/live`);
    await page.fill('#api-key', apiKey);
    await page.fill('#path', '/api/v1/wipes');
    await page.fill('#query', '{"status": "failed", "customer": "Contoso"}');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Real API answered 200' }).waitFor({ timeout: 5000 });
    const answer = JSON.parse((await page.textContent('#response')) ?? '');
    expect(answer).toMatchObject({ page: 1, pages: 1, count: 1 });
    expect(answer.wipes.map((w: { drive_serial: string }) => w.drive_serial)).toEqual(['LIVE-2']);
    await screenshot(page, 'live-console-wipes');
  });

  it('passes the real API\u2019s certificates and lots through (issue 31 item 5)', async () => {
    const account = (await cloud.db.one<{ id: number }>("SELECT id FROM accounts WHERE name = 'Real Refurb Ltd'"))!.id;
    const jti = await cloud.token(account, 'ana@real.test', 'engine', { customer: 'Contoso' });
    const issued = (await cloud.internal('/internal/tokens/validate', { jti })).json.job_id as string;
    const wipe = (await cloud.internal('/internal/wipe_results', { jti, job_id: `${issued}-0`, drive_serial: 'LIVE-CERT' })).json.wipe_result_id as string;
    const number = (await cloud.db.one<{ certificate_number: string }>(
      'SELECT c.certificate_number FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id WHERE w.public_id = @wipe',
      { wipe },
    ))!.certificate_number;
    await insertLotDocument(cloud.db, {
      public_id: 'lotdoc_5a4d',
      account_id: account,
      summary: JSON.stringify({ customers: ['Contoso'], lots: [], from: null, to: null, drives: 1, certified: 1, by_status: { Pass: 1 }, by_method: {} }),
      drives: JSON.stringify([{ certificate_id: null, certificate_number: number, serial: 'LIVE-CERT', model: null, status: 'Pass' }]),
      document_sha256: 'ab'.repeat(32),
      created_at: new Date().toISOString(),
    });
    await page.goto(`${sut.base}/live`);
    await page.fill('#api-key', apiKey);
    await page.fill('#path', `/api/v1/certificates/${number}`);
    await page.fill('#query', '');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Real API answered 200' }).waitFor({ timeout: 5000 });
    expect(JSON.parse((await page.textContent('#response')) ?? '')).toMatchObject({ number, wipe_id: wipe, status: 'pending', certificate_pdf_url: null });
    await screenshot(page, 'live-console-certificate');

    await page.fill('#path', '/api/v1/lots');
    await page.click('button[type=submit]');
    await page.locator('#response', { hasText: 'lotdoc_5a4d' }).waitFor({ timeout: 5000 });
    const lots = JSON.parse((await page.textContent('#response')) ?? '');
    expect(lots).toMatchObject({ page: 1, pages: 1, count: 1, lots: [{ id: 'lotdoc_5a4d', summary: { customers: ['Contoso'] } }] });
    await screenshot(page, 'live-console-lots');

    // Its PDF through the console: this real cloud has no certificate store wired, so it fails
    // closed (503), and the console shows the real API's answer as it came.
    await page.fill('#path', '/api/v1/lots/lotdoc_5a4d/pdf');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Real API answered 503' }).waitFor({ timeout: 5000 });
    expect(JSON.parse((await page.textContent('#response')) ?? '')).toEqual({ error: 'certificate files are not available on this deployment' });
    await screenshot(page, 'live-console-lot-pdf');
  });

  it('clears the previous answer when the query is not valid JSON (issue 28, item 18)', async () => {
    await page.goto(`${sut.base}/live`);
    await page.fill('#api-key', apiKey);
    await page.fill('#path', '/api/v1/accounts');
    await page.fill('#query', '');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Real API answered 200' }).waitFor({ timeout: 5000 });
    expect(await page.textContent('#response')).toContain('Real Refurb Ltd');

    await page.fill('#query', '{"page": ');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Query is not valid JSON' }).waitFor({ timeout: 5000 });
    expect(await page.textContent('#response')).not.toContain('Real Refurb Ltd');
    await screenshot(page, 'live-console-bad-query');
  });

  it('shows the sandbox refusal for a bad path', async () => {
    await page.goto(`${sut.base}/live`);
    await page.fill('#api-key', apiKey);
    await page.fill('#path', '/internal/tokens/verify');
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Sandbox answered 422' }).waitFor({ timeout: 5000 });
    expect(await page.textContent('#response')).toContain('path must start with /api/');
  });

  it('sends nothing without an API key: the sandbox answers 401', async () => {
    await page.goto(`${sut.base}/live`);
    await page.click('button[type=submit]');
    await page.locator('#status', { hasText: 'Sandbox answered 401' }).waitFor({ timeout: 5000 });
    expect(await page.textContent('#status')).toContain('API key required');
    await screenshot(page, 'live-console-no-key');
  });
});
