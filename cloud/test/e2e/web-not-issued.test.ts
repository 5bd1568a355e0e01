import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startCertificateCloud, submitWipe, wipeBody, type CertificateCloud } from '../certificates/pipeline.js';
import { fingerprint } from '../helpers.js';
import { addUser, reportAsset } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, openWipesAs, screenshot } from './web-fixture.js';

/**
 * "Not issued" says why (issue 31 item 4): the reason in plain words on the wipes grid and the
 * asset page, the stored wording under Details; and the CSV's reason and capacity columns, a
 * 64 MB drive reading "< 1 GB" with its exact byte count.
 */
describe('why a certificate was not issued, and capacities under 1 GB', { timeout: 90_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let assetId = '';
  let failed = '';
  let unchecked = '';

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    const jti = (await sut.token(account.id, { userEmail: 'ana@acme.test' })).jti;
    assetId = await reportAsset(sut, jti, 'CW-20261122-120000', fingerprint(undefined, undefined, {
      storage: [
        { model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456', size_bytes: 512_110_190_592, media_type: 'SSD' },
        { model: 'SanDisk Cruzer', serial: 'USB-64M', size_bytes: 67_108_864, media_type: 'SSD' },
      ],
    }));
    failed = (await submitWipe(sut, jti, 'job-failed-0', { wipe_status: 'failed' })).wipe_result_id;
    // Reported without a check-in: stored, never certified.
    const res = await sut.post('/internal/wipe_results', wipeBody(jti, 'job-never-checked-in', { drive_serial: 'USB-64M', drive_model: 'SanDisk Cruzer', drive_capacity_gb: 0 }));
    expect(res.status).toBe(201);
    unchecked = res.json.wipe_result_id as string;
    ({ base, browser, page } = await openWipesAs(sut.app, 'admin@acme.test'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('the grid says why in plain words, the stored reason under Details', async () => {
    const reason = (id: string) => page.locator(`tr[data-wipe-id="${id}"] [data-testid="not-issued-reason"]`).innerText();
    expect(await reason(failed)).toBe('The erasure failed');
    expect(await reason(unchecked)).toBe('Its run was not checked in with this device token');
    const details = page.locator(`tr[data-wipe-id="${unchecked}"] [data-testid="not-issued"] details`);
    expect(await details.locator('code').isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.locator('code').innerText()).toBe('uncertified_reason: job_id was not issued by a check-in of this token');
    await screenshot(page, '31-wipes-not-issued-reason');
  });

  it('the asset page says why for each of its drives', async () => {
    await page.goto(`${base}/assets/${assetId}`);
    const section = page.locator('[data-testid="section-wipes"]');
    await section.locator('[data-testid="not-issued-reason"]').first().waitFor();
    expect(await section.locator('[data-testid="not-issued-reason"]').allInnerTexts()).toEqual(
      expect.arrayContaining(['The erasure failed', 'Its run was not checked in with this device token']),
    );
    await section.locator('[data-testid="not-issued"] details summary').first().click();
    await screenshot(page, '31-asset-not-issued-reason');
    await page.goto(`${base}/wipes`);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
  });

  it('the CSV appends the reason, its stored wording, the bytes and "< 1 GB", the existing columns in place', async () => {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
    const [header, ...lines] = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    // Issue 31 item 4's columns follow the existing ones; item 6's Asset Tag comes after them.
    expect(header).toBe(
      'Wipe ID,Vendor,Model,Serial,Capacity (GB),Media Type,Method,Source,Duration (s),Status,Technician,Customer,Lot / Job Reference,Started,Completed,Certificate,Asset ID,health_grade,health_reasons,' +
        'Not Issued Reason,uncertified_reason,capacity_bytes,Capacity,Asset Tag',
    );
    const columns = header!.split(',');
    const cells = (id: string) => lines.find((l) => l.startsWith(id))!.split(',');
    const small = cells(unchecked);
    expect(small[columns.indexOf('Capacity (GB)')]).toBe('0');
    expect(small[columns.indexOf('Capacity')]).toBe('< 1 GB');
    expect(small[columns.indexOf('capacity_bytes')]).toBe('67108864');
    expect(small[columns.indexOf('Not Issued Reason')]).toBe('Its run was not checked in with this device token');
    expect(small[columns.indexOf('uncertified_reason')]).toBe('job_id was not issued by a check-in of this token');
    const big = cells(failed);
    expect(big[columns.indexOf('capacity_bytes')]).toBe('512110190592');
    expect(big[columns.indexOf('Capacity')]).toBe('512 GB');
    expect(big[columns.indexOf('Not Issued Reason')]).toBe('The erasure failed');
    expect(big[columns.indexOf('uncertified_reason')]).toBe('wipe_status failed');
  });
});
