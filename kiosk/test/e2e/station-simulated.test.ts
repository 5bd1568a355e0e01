import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/stack.js';
import { buildForKioskE2e, launchKioskBrowser, shoot, startKioskStack } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const AGENT_BIN = join(REPO, 'engine-agent/bin/erasure-agent.js');
const RENDERER_DIST = join(REPO, 'kiosk/dist/renderer');
const run = promisify(execFile);

/**
 * The simulated station a QA engineer tries without hardware (`npm start -- --station`): the real
 * agent binary as a hotswap station on the simulated machine, its backplane's bays seated and
 * pulled with `erasure-agent sim insert|pull`, against the real cloud and gateway, in Debian's
 * Chromium. Only udev's events and the disks are simulated: the wizard, the bays' check-ins, the
 * overwrite and verify of the backing files and the certificates are the product's own.
 */
describe('kiosk: a simulated station from the mapping wizard to the bay view', { timeout: 240_000 }, () => {
  let stack: Awaited<ReturnType<typeof startKioskStack>>;
  let agent: { url: string; child: ChildProcess };
  let work: string;
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  let page: Page;
  const dataDir = () => join(work, 'agent');

  /** `erasure-agent sim …` on the station's DATA_DIR, as a QA engineer types it. */
  const sim = async (...args: string[]) => (await run(process.execPath, [AGENT_BIN, 'sim', ...args], { env: { ...process.env, DATA_DIR: dataDir() } })).stdout;
  const bay = (n: number) => page.locator(`.bay[data-lane="pci-0000:00:17.0-ata-${n}"]`);

  beforeAll(async () => {
    buildForKioskE2e();
    stack = await startKioskStack();
    const { token } = (await stack.cli('admin', 'mint-device-token', '--account', stack.accountId, '--product', 'hotswap', '--quota', '10')) as { token: string };
    work = mkdtempSync(join(tmpdir(), 'kiosk-station-'));
    writeFileSync(join(work, 'device-token'), `${token}\n`, { mode: 0o600 });
    agent = await startService(AGENT_BIN, {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir(),
      ERASURE_GATEWAY_URL: stack.gateway.url,
      ERASURE_DEVICE_TOKEN_FILE: join(work, 'device-token'),
      ERASURE_SIMULATE: '1',
      // Slow enough that a bay is still erasing while the others finish or are pulled.
      ERASURE_SIMULATE_MBPS: '2',
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

  it('maps four simulated bays in the wizard, saves the map, and shows a seated, an erasing, a passed and a pulled bay', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="station-wizard"][data-step="mapping"]');
    // The simulated backplane is a controller the wizard lists, not "No storage controllers found".
    await page.waitForSelector('.controller-list :text("Simulated SATA backplane (4 bays)")');
    await shoot(page, 'station-01-wizard-waiting');

    const sizes = ['16M', '48M', '1M', '48M'];
    for (const [i, size] of sizes.entries()) {
      const n = i + 1;
      expect(await sim('insert', String(n), '--size', size)).toMatch(new RegExp(`^bay ${n}: SIMULATED SATA`));
      await page.waitForSelector(`.proposal[data-lane="pci-0000:00:17.0-ata-${n}"]`);
      if (n === 1) await shoot(page, 'station-02-wizard-bay-detected');
      await page.fill('#bay-label', `Bay ${n}`);
      await page.click('#accept-bay');
      await page.waitForSelector(`.proposal[data-lane="pci-0000:00:17.0-ata-${n}"]`, { state: 'detached' });
    }
    // The backplane reports 4 bays: with all 4 mapped the wizard asks for no "Bay 5" and its
    // chassis preview stays 4 cells (issue 28 item 12).
    await expect.poll(() => page.locator('.instruction').textContent()).toBe('All 4 bays of the controllers are mapped: press Finish mapping');
    expect(await page.locator('.wizard').textContent()).not.toContain('Bay 5');
    expect(await page.locator('.waiting').count()).toBe(0);
    expect(await page.locator('.bay-preview .preview-cell').count()).toBe(4);
    expect(await page.locator('.bay-preview .preview-cell.next').count()).toBe(0);
    expect(await page.locator('.bay-preview').getAttribute('aria-label')).toBe('Chassis grid, 1 by 4');
    await shoot(page, 'station-02b-wizard-all-bays-mapped');
    await page.click('#finish-mapping');
    await page.waitForSelector('[data-screen="station-wizard"][data-step="naming"]');
    await page.fill('#map-name', 'Simulated backplane');
    // Issue 32: where the station stands, for the floor view's grouping.
    await page.fill('#map-site', 'Leeds, floor 2');
    await shoot(page, 'station-03-wizard-naming');
    await page.click('#save-map');

    // The saved map opens the bay view; drives seated before it existed wait for the operator.
    await page.waitForSelector('[data-screen="bay-view"]');
    const map = await page.evaluate(async () => ((await (await fetch('/api/state')).json()) as { station?: { map?: unknown } }).station?.map);
    expect(map).toMatchObject({ name: 'Simulated backplane', site: 'Leeds, floor 2' });
    for (const n of [1, 2, 3, 4]) await expect.poll(() => bay(n).getAttribute('data-state')).toBe('awaiting_confirmation');
    // One action would start them all (issue 32); the bays are taken one by one below.
    const eraseWaiting = page.locator('.bay-confirm-waiting');
    expect([await eraseWaiting.textContent(), await eraseWaiting.isEnabled()]).toEqual(['Erase all 4 waiting bays', true]);

    // Bay 3 (1 MiB) is erased, verified and certified through the real gateway and cloud.
    await bay(3).locator('.bay-confirm').click();
    await expect.poll(() => bay(3).getAttribute('data-state'), { timeout: 60_000 }).toBe('passed');
    await expect.poll(() => bay(3).textContent(), { timeout: 60_000 }).toMatch(/CW-\d{6}/);
    // Its backing file was overwritten: no byte of the customer's pattern is left.
    const erased = readFileSync(join(dataDir(), 'simulated/bays/bay-3.img'));
    expect(erased.length).toBe(1024 * 1024);
    expect(erased.every((b) => b === 0)).toBe(true);

    // Bays 2 and 4 erase at 2 MB/s; bay 4's drive is pulled mid-erase, bay 2 carries on.
    await bay(2).locator('.bay-confirm').click();
    await bay(4).locator('.bay-confirm').click();
    await expect.poll(() => bay(4).getAttribute('data-state'), { timeout: 60_000 }).toBe('erasing');
    // Its bar moves while the pass writes, not only at the pass's end.
    await expect.poll(async () => Number(await bay(4).locator('[role="progressbar"]').getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(Number(await bay(4).locator('[role="progressbar"]').getAttribute('aria-valuenow'))).toBeLessThan(100);
    // And it says when the bay will be free (issue 32), the time the floor view shows for it.
    await expect.poll(() => bay(4).textContent(), { timeout: 60_000 }).toMatch(/Bay free about \d{2}:\d{2}/);
    expect(await sim('pull', '4')).toMatch(/^bay 4: drive pulled/);
    await expect.poll(() => bay(4).getAttribute('data-state')).toBe('pulled');
    await expect.poll(() => bay(4).textContent()).toMatch(/Pulled while erasing/);
    await expect.poll(() => bay(2).getAttribute('data-state')).toMatch(/^(erasing|verifying)$/);
    expect(await bay(1).getAttribute('data-state')).toBe('awaiting_confirmation');
    await shoot(page, 'station-04-bays-seated-erasing-passed-pulled');

    // Cancel asks first, as the kiosk's own erase does (issue 28 item 10)…
    await bay(2).locator('.bay-cancel').click();
    const asking = bay(2).locator('[role="alertdialog"]');
    await expect.poll(() => asking.textContent()).toContain('Stop erasing this drive? It will not be certified.');
    await shoot(page, 'station-05-bay-cancel-asks');
    // …"Keep erasing" changes nothing…
    await asking.locator('.bay-keep').click();
    expect(await bay(2).getAttribute('data-state')).toMatch(/^(erasing|verifying)$/);
    // …and a stopped bay is grey "Cancelled", never red "Failed".
    await bay(2).locator('.bay-cancel').click();
    await bay(2).locator('.bay-stop').click();
    await expect.poll(() => bay(2).getAttribute('data-state')).toBe('cancelled');
    expect(await bay(2).locator('.bay-state').textContent()).toBe('Cancelled');
    expect(await bay(2).textContent()).not.toMatch(/Failed|cancelled by the operator/);
    const tone = await bay(2).evaluate((el) => getComputedStyle(el).borderLeftColor);
    expect(tone).toBe('rgb(71, 85, 105)');

    // "Leave it" keeps the drive in its bay with Erase still on offer (issue 28 item 11).
    await bay(1).locator('.bay-leave').click();
    await expect.poll(() => bay(1).getAttribute('data-state')).toBe('detected');
    await expect.poll(() => bay(1).textContent()).toContain('Left as it is: not erased');
    await shoot(page, 'station-06-bay-cancelled-and-left-alone');
    // A drive left alone is not waiting: "Erase every waiting bay" has nothing to start.
    expect([await eraseWaiting.textContent(), await eraseWaiting.isEnabled()]).toEqual(['No bay is waiting', false]);
    await bay(1).locator('.bay-confirm').click();
    await expect.poll(() => bay(1).getAttribute('data-state'), { timeout: 60_000 }).toBe('passed');
    await expect.poll(() => bay(1).textContent(), { timeout: 60_000 }).toMatch(/CW-\d{6}/);

    // Under the "ask first" policy, drives seated again wait for the operator; one action starts them all.
    await page.getByRole('button', { name: 'Station settings' }).click();
    await page.locator('[data-policy="confirm"]').click();
    await expect.poll(() => page.locator('[data-policy="confirm"]').getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: /(^|\s)Station$/ }).click();
    await page.waitForSelector('[data-screen="bay-view"]');
    expect(await sim('pull', '2')).toMatch(/^bay 2: drive pulled/);
    expect(await sim('insert', '2', '--size', '1M')).toMatch(/^bay 2: SIMULATED SATA/);
    expect(await sim('insert', '4', '--size', '1M')).toMatch(/^bay 4: SIMULATED SATA/);
    for (const n of [2, 4]) await expect.poll(() => bay(n).getAttribute('data-state'), { timeout: 60_000 }).toBe('awaiting_confirmation');
    await expect.poll(() => eraseWaiting.textContent()).toBe('Erase all 2 waiting bays');
    await shoot(page, 'station-09-erase-every-waiting-bay');
    await eraseWaiting.click();
    for (const n of [2, 4]) await expect.poll(() => bay(n).getAttribute('data-state'), { timeout: 60_000 }).toBe('passed');
    expect(await bay(1).getAttribute('data-state')).toBe('passed');
  });

  // Issue 32, lights-out: a drive seated while the gateway is down waits for it, untouched, and
  // is erased and certified once the gateway is back where the station looks for it.
  it('keeps a bay seated while the gateway is down waiting for the erasure service, untouched, and erases it once the gateway is back', async () => {
    await stack.stopGateway();
    expect(await sim('pull', '3')).toMatch(/^bay 3: drive pulled/);
    expect(await sim('insert', '3', '--size', '1M')).toMatch(/^bay 3: SIMULATED SATA/);
    const seated = readFileSync(join(dataDir(), 'simulated/bays/bay-3.img'));
    await expect.poll(() => bay(3).getAttribute('data-state'), { timeout: 60_000 }).toBe('awaiting_confirmation');
    await bay(3).locator('.bay-confirm').click();
    await expect.poll(() => bay(3).textContent(), { timeout: 60_000 }).toMatch(/Waiting for the erasure service/);
    expect(await bay(3).getAttribute('data-state')).toBe('checking_in');
    await expect.poll(() => bay(3).textContent()).toMatch(/No answer since \d{2}:\d{2} \(\d+ tr(y|ies)\); trying again about \d{2}:\d{2}/);
    await shoot(page, 'station-10-bay-waiting-for-the-erasure-service');
    expect(readFileSync(join(dataDir(), 'simulated/bays/bay-3.img')).equals(seated)).toBe(true);
    await stack.restartGateway({ samePort: true });
    await expect.poll(() => bay(3).getAttribute('data-state'), { timeout: 120_000 }).toBe('passed');
    await expect.poll(() => bay(3).textContent(), { timeout: 60_000 }).toMatch(/CW-\d{6}/);
    expect(readFileSync(join(dataDir(), 'simulated/bays/bay-3.img')).every((b) => b === 0)).toBe(true);
    await shoot(page, 'station-11-bay-erased-once-the-gateway-is-back');
  });
});
