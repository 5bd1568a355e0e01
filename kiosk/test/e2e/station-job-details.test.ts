import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/stack.js';
import { buildForKioskE2e, launchKioskBrowser, shoot, startKioskStack } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const AGENT_BIN = join(REPO, 'engine-agent/bin/erasure-agent.js');
const RENDERER_DIST = join(REPO, 'kiosk/dist/renderer');
const run = promisify(execFile);

/**
 * Issue 31 item 6 on a station: in the bay view the operator sets the customer, lot and asset tag
 * "for all new drives" with the Notes step's form, through the same route; every bay's wipe result
 * names the station's boot record, so a drive erased after the save carries them onto its wipe
 * row. The real agent binary as a simulated hotswap station, the real gateway and cloud, Chromium.
 */
describe('kiosk: job details for all new drives of a station, and per bay', { timeout: 240_000 }, () => {
  let stack: Awaited<ReturnType<typeof startKioskStack>>;
  let agent: { url: string; child: ChildProcess };
  let work: string;
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  let page: Page;
  const dataDir = () => join(work, 'agent');
  const sim = async (...args: string[]) => (await run(process.execPath, [AGENT_BIN, 'sim', ...args], { env: { ...process.env, DATA_DIR: dataDir() } })).stdout;
  const bay = (n: number) => page.locator(`.bay[data-lane="pci-0000:00:17.0-ata-${n}"]`);
  const cloudRows = <T,>(sql: string): T[] => {
    const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    buildForKioskE2e();
    stack = await startKioskStack();
    const { token } = (await stack.cli('admin', 'mint-device-token', '--account', stack.accountId, '--product', 'hotswap', '--quota', '10')) as { token: string };
    work = mkdtempSync(join(tmpdir(), 'kiosk-station-job-'));
    writeFileSync(join(work, 'device-token'), `${token}\n`, { mode: 0o600 });
    agent = await startService(AGENT_BIN, {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir(),
      ERASURE_GATEWAY_URL: stack.gateway.url,
      ERASURE_DEVICE_TOKEN_FILE: join(work, 'device-token'),
      ERASURE_SIMULATE: '1',
      KIOSK_RENDERER_DIR: RENDERER_DIST,
    });
    browser = await launchKioskBrowser();
    page = browser.page;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stopService(agent?.child);
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('saves a scanned lot and asset tag for all new drives and an asset tag for one bay; each bay erased after it carries its own onto its wipe row', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="station-wizard"][data-step="mapping"]');
    expect(await sim('insert', '1', '--size', '1M')).toMatch(/^bay 1: SIMULATED SATA/);
    await page.waitForSelector('.proposal[data-lane="pci-0000:00:17.0-ata-1"]');
    await page.fill('#bay-label', 'Bay 1');
    await page.click('#accept-bay');
    await page.waitForSelector('.proposal[data-lane="pci-0000:00:17.0-ata-1"]', { state: 'detached' });
    expect(await sim('insert', '2', '--size', '1M')).toMatch(/^bay 2: SIMULATED SATA/);
    await page.waitForSelector('.proposal[data-lane="pci-0000:00:17.0-ata-2"]');
    await page.fill('#bay-label', 'Bay 2');
    await page.click('#accept-bay');
    await page.waitForSelector('.proposal[data-lane="pci-0000:00:17.0-ata-2"]', { state: 'detached' });
    await page.click('#finish-mapping');
    await page.waitForSelector('[data-screen="station-wizard"][data-step="naming"]');
    await page.fill('#map-name', 'Simulated backplane');
    await page.click('#save-map');
    await page.waitForSelector('[data-screen="bay-view"]');
    await expect.poll(() => bay(1).getAttribute('data-state')).toBe('awaiting_confirmation');
    await expect.poll(() => bay(2).getAttribute('data-state')).toBe('awaiting_confirmation');

    await page.getByTestId('station-job-details').locator('summary').click();
    const lot = page.locator('#job-lot_reference');
    await lot.click();
    await page.keyboard.type('LOT-2026-11-077', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('job-asset_tag');
    await page.keyboard.type('AT-004211', { delay: 5 });
    await page.keyboard.press('Enter');
    const status = page.getByTestId('job-details-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Saved. Drives erased from now on go on lot LOT-2026-11-077, asset tag AT-004211.');
    await shoot(page, 'station-07-job-details-for-all-new-drives');

    // Per bay: Bay 2's drive gets its own asset tag, scanned into the form under the grid.
    await bay(2).locator('.bay-job').click();
    const perBay = page.getByTestId('bay-job-details');
    await perBay.locator('input[id$="-asset_tag"]').click();
    await page.keyboard.type('AT-BAY-2', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => perBay.getByTestId('job-details-status').textContent(), { timeout: 30_000 }).toBe('Saved. This drive goes on lot LOT-2026-11-077, asset tag AT-BAY-2.');
    await shoot(page, 'station-08-job-details-for-one-bay');

    await bay(1).locator('.bay-confirm').click();
    await bay(2).locator('.bay-confirm').click();
    await expect.poll(() => bay(1).getAttribute('data-state'), { timeout: 60_000 }).toBe('passed');
    await expect.poll(() => bay(2).getAttribute('data-state'), { timeout: 60_000 }).toBe('passed');
    // Each bay's wipe result reaches the cloud through the gateway, perhaps after the bay shows it passed.
    await expect
      .poll(() => cloudRows<{ lot_reference: string; asset_tag: string }>('SELECT lot_reference, asset_tag FROM wipe_results ORDER BY asset_tag'), { timeout: 60_000 })
      .toEqual([
        { lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' },
        { lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-BAY-2' },
      ]);
  });
});
