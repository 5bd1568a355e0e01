import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FloorReportBody } from '@erasure/shared';
import { startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, screenshot, signIn } from './web-fixture.js';

/**
 * The floor page (issue 32) against the real cloud: machines report through the internal route
 * as the gateway forwards them, and the page follows them live over Server-Sent Events: progress
 * moves, a drive whose result arrived leaves "running", a silent machine shows "lost contact", and
 * failures come first. At 1024 px and on a 1920×1080 wall screen.
 */
describe('the floor page', { timeout: 120_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let jti: string;
  let sequence = 0;

  const report = (drives: FloorReportBody['drives'], overrides: Partial<FloorReportBody> = {}): FloorReportBody => ({
    machine_id: 'dmi-optiplex-1',
    boot_id: 'boot-1',
    name: 'Dell OptiPlex 7080 · 7XQ9K93',
    kind: 'machine',
    sequence: ++sequence,
    sent_at: sut.clock.now().toISOString(),
    drives,
    ...overrides,
  });
  const send = async (body: FloorReportBody) => expect((await sut.post('/internal/floor_report', { jti, ...body })).json).toEqual({ ok: true, stored: true });
  const hdd = (bytesDone: number, overrides: Partial<FloorReportBody['drives'][number]> = {}) => ({
    device: '/dev/sda',
    model: 'ST1000DM010',
    serial: 'Z9A1',
    stage: 'write' as const,
    pass: 1,
    passes: 1,
    bytes_done: bytesDone,
    bytes_total: 1_000_000_000,
    bytes_per_second: 120_000_000,
    eta_seconds: 12,
    lot_reference: 'LOT-2026-11-077',
    ...overrides,
  });
  const ssd = { device: '/dev/sdb', model: 'Samsung SSD 860', serial: 'S3Z9', stage: 'waiting' as const, pass: 0, bytes_done: 0, bytes_total: 500_000_000, lot_reference: 'LOT-2026-11-077' };
  const driveRow = (serial: string) => page.locator(`.floor-drive[data-serial="${serial}"]`);

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Floor Refurbishing');
    await addUser(sut, account.id, 'staff', 'floor@acme.test');
    ({ jti } = await sut.token(account.id));
    base = await sut.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    page = browser.page;
    await signIn(browser, base, 'floor@acme.test');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('follows a drive’s progress live, with the lot’s counts and forecast', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${base}/floor`);
    await page.waitForSelector('[data-screen="floor"] .empty');
    await send(report([hdd(250_000_000), ssd]));
    const bar = driveRow('Z9A1').locator('[role="progressbar"]');
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('25');
    await send(report([hdd(600_000_000), ssd]));
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('60');
    expect(await driveRow('Z9A1').getAttribute('data-running')).toBe('yes');
    const lot = page.locator('tr[data-lot="LOT-2026-11-077"]');
    expect((await lot.innerText()).replace(/\s+/g, ' ')).toMatch(/LOT-2026-11-077 0 1 1 About \d\d:\d\d/);
    await screenshot(page, '32-floor-1024');
  });

  it('never shows a drive as running once its result arrived', async () => {
    await sut.checkin(jti).then((jobId) => submitWipe(sut, jti, `${jobId}-0`, { drive_serial: 'Z9A1' }));
    // The last report still says "write": the result is what counts.
    await send(report([hdd(990_000_000), ssd]));
    await expect.poll(() => driveRow('Z9A1').getAttribute('data-running')).toBe('no');
    expect(await driveRow('Z9A1').locator('.floor-drive-stage').innerText()).toMatch(/^Erased/);
  });

  it('puts a failed drive and a machine out of contact on top', async () => {
    await send(report([hdd(990_000_000), { ...ssd, stage: 'failed', error: 'the drive stopped answering' }]));
    await expect.poll(() => page.locator('.floor-problem').allInnerTexts()).toEqual(['Dell OptiPlex 7080 · 7XQ9K93: Samsung SSD 860 · S/N S3Z9 failed: the drive stopped answering']);
    sut.clock.advance(61_000);
    // The board is sent again every 15 s without any report; a reload asks at once.
    await page.reload();
    await expect.poll(() => page.locator('.floor-problem').first().innerText()).toMatch(/^Dell OptiPlex 7080 · 7XQ9K93: lost contact \(last heard \d\d:\d\d\)$/);
    expect(await page.locator('.floor-machine.lost').count()).toBe(1);
  });

  it('shows when a station’s bay will be free, as the station forecasts it', async () => {
    const freeAt = new Date(sut.clock.now().getTime() + 20 * 60_000).toISOString();
    await send({
      machine_id: 'station-rack-2', boot_id: 'boot-s', name: 'Rack 2 backplane', kind: 'station', sequence: 1, sent_at: sut.clock.now().toISOString(),
      drives: [{ ...hdd(400_000_000), device: '/dev/sdc', serial: 'WCC4N7ZK', bay: 'Bay 2', eta_seconds: 1200 }],
      bays: [{ label: 'Bay 1', state: 'empty' }, { label: 'Bay 2', state: 'erasing', device: '/dev/sdc', free_at: freeAt }],
    });
    const local = new Date(freeAt);
    const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    await expect.poll(() => driveRow('WCC4N7ZK').locator('.floor-drive-rate').innerText()).toMatch(new RegExp(`left · bay free about ${hhmm}$`));
    await screenshot(page, '32-floor-station-bay-free');
  });

  it('reads from across the room on a 1920×1080 wall screen, with nothing to click', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${base}/floor?wall=1`);
    await page.waitForSelector('.floor-wall-view .floor-machine');
    expect(await page.locator('.topbar').isVisible()).toBe(false);
    expect(await page.locator('.floor-details').count()).toBe(0);
    await screenshot(page, '32-floor-wall-1920');
  });
});
