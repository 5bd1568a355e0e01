import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { fingerprint } from '../helpers.js';
import { addUser } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, openWipesAs, screenshot } from './web-fixture.js';

const RECORD = 'CW-20261122-100000';

/**
 * The asset tag typed or scanned at the kiosk (issue 31 item 6) on the wipes grid, under the
 * source it labels, and on the asset page: in its summary (the firmware's tag kept beside it) and
 * on each of its wipes. A wipe with no tag shows none.
 */
describe('the kiosk asset tag on the wipes grid and the asset page', { timeout: 90_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let tagged = '';
  let plain = '';
  let assetId = '';

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    const { jti } = await sut.token(account.id, { customer: 'Northwind Schools', lot: 'LOT-DEFAULT' });
    const system = { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32', uuid: '4c4c4544-0042-3510-8051-b4c04f564e32', asset_tag: 'DELL-FW-77' };
    const boot = await sut.post('/internal/assets', { jti, record_id: RECORD, engine_version: '1.4.2', fingerprint: fingerprint(undefined, undefined, { system }) });
    expect(boot.status).toBe(201);
    assetId = boot.json.asset_id as string;
    const saved = await sut.post('/internal/assets/job_details', { jti, record_id: RECORD, lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' });
    expect(saved.status).toBe(200);
    tagged = (await submitWipe(sut, jti, 'job-tag-0', { record_id: RECORD, completed_at: '2026-11-22T12:10:00Z' })).wipe_result_id;
    plain = (await submitWipe(sut, jti, 'job-tag-1', { drive_serial: 'WD-WCC4N7ZK1234', drive_model: 'WDC WD10EZEX-08WN4A0', completed_at: '2026-11-22T12:00:00Z' })).wipe_result_id;
    ({ base, browser, page } = await openWipesAs(sut.app, 'admin@acme.test'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('shows the asset tag under the wipe’s source, and none for a wipe without one', async () => {
    const row = page.locator(`tr[data-wipe-id="${tagged}"]`);
    expect((await row.locator('[data-testid="asset-tag"]').innerText()).trim()).toBe('Asset tag AT-004211');
    expect((await row.locator('[data-testid="customer-lot"]').innerText()).replace(/\s+/g, ' ').trim()).toBe('Northwind Schools · LOT-2026-11-077');
    expect(await page.locator(`tr[data-wipe-id="${plain}"] [data-testid="asset-tag"]`).count()).toBe(0);
    await screenshot(page, '31-wipes-asset-tag');
  });

  it('shows the kiosk’s asset tag in the asset’s summary, the firmware’s beside it, and on the machine’s wipe', async () => {
    await page.goto(`${base}/assets/${assetId}`);
    const summary = page.locator('[data-testid="asset-summary"]');
    await expect.poll(() => summary.innerText()).toContain('AT-004211');
    const text = (await summary.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/\bAsset tag AT-004211/i);
    expect(text).toMatch(/Firmware asset tag DELL-FW-77/i);
    expect(text).toMatch(/Lot job reference LOT-2026-11-077/i);
    const wipe = page.locator(`[data-testid="section-wipes"] tr[data-wipe-id="${tagged}"]`);
    expect(await wipe.innerText()).toContain('Asset tag AT-004211');
    await screenshot(page, '31-asset-page-asset-tag');
  });
});
