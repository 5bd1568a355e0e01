import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { wornHealth } from '../support/health.js';
import { addUser } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, openWipesAs, screenshot } from './web-fixture.js';

/**
 * The health grade for resale on the wipes grid and in its CSV (issue 30 item 6): a Grade column
 * with the grade in words (a muted dash for a drive an older agent erased, never graded), and the
 * CSV's existing columns kept in order with `health_grade` and `health_reasons` appended.
 */
describe('the health grade on the wipes grid', { timeout: 90_000 }, () => {
  let sut: CertificateCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let graded = '';
  let older = '';

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    const jti = (await sut.token(account.id, { userEmail: 'ana@acme.test' })).jti;
    graded = (await submitWipe(sut, jti, 'job-health-0', { drive_serial: 'WD-WCC4N7ZK1234', drive_model: 'WDC WD10EZEX-08WN4A0', completed_at: '2026-11-22T12:10:00Z', health: wornHealth() })).wipe_result_id;
    older = (await submitWipe(sut, jti, 'job-health-1', { drive_serial: 'S-OLDER-AGENT', completed_at: '2026-11-22T12:00:00Z' })).wipe_result_id;
    ({ browser, page } = await openWipesAs(sut.app, 'admin@acme.test'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('shows a graded drive\u2019s grade in words with its reasons on hover, and a muted dash for a drive that was not graded', async () => {
    const cell = page.locator(`tr[data-wipe-id="${graded}"] [data-testid="health-grade"]`);
    expect((await cell.innerText()).replace(/\s+/g, ' ').trim()).toBe('C worn');
    expect(await cell.locator('[title]').getAttribute('title')).toContain('8 worn-out sector(s) have been replaced by spares');
    const none = page.locator(`tr[data-wipe-id="${older}"] [data-testid="health-grade"]`);
    expect((await none.innerText()).trim()).toBe('—');
    expect(await none.locator('.muted').count()).toBe(1);
    await screenshot(page, '30-wipes-health-grade');
  });

  it('appends health_grade and health_reasons to the CSV, the existing columns unchanged and in order', async () => {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
    const [header, ...lines] = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    // Later columns (issue 31 item 4) come after these.
    expect(header!.startsWith(
      'Wipe ID,Vendor,Model,Serial,Capacity (GB),Media Type,Method,Source,Duration (s),Status,Technician,Customer,Lot / Job Reference,Started,Completed,Certificate,Asset ID,health_grade,health_reasons',
    )).toBe(true);
    const gradedLine = lines.find((l) => l.startsWith(graded))!;
    expect(gradedLine).toContain(`,C,"${wornHealth().reasons.join('; ')}"`);
    const columns = header!.split(',');
    const olderCells = lines.find((l) => l.startsWith(older))!.split(',');
    expect([olderCells[columns.indexOf('health_grade')], olderCells[columns.indexOf('health_reasons')]]).toEqual(['', '']);
  });
});
