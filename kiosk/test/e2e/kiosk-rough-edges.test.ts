import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_BIN, startService, stopService } from '../../../test/support/stack.js';
import { agentState, kioskSession, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

/** Seconds of a kiosk duration ("34 s", "1 min 08 s"). */
const seconds = (text: string): number => {
  const m = /^(?:(\d+) min )?(\d+) s$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
};

/** Records, in the page, every text the whole-job line shows (the first time left is gone within seconds). */
const recordJobLines = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { jobLines: string[] };
    w.jobLines = [];
    const check = () => {
      const text = document.querySelector('.job-line')?.textContent;
      if (text && w.jobLines.at(-1) !== text) w.jobLines.push(text);
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

/**
 * Issue 28 items 8, 9 and 15 in Debian's Chromium against the real cloud, gateway and agent (a
 * simulated machine erasing at 4 MB/s, its DATA_DIR on a tmpfs as on a stick without a data
 * volume). The tests run in order on one agent: select, confirm where Next leads, erase while the
 * gateway goes away, reload, finish, and a second run.
 */
describe('kiosk: the flow from the drives to the finish, without stale words', { timeout: 300_000 }, () => {
  const session = kioskSession();
  // /dev/shm is a tmpfs: the agent's outbox is in memory there, as on a live stick without ERASURE-DATA.
  const memory = mkdtempSync('/dev/shm/kiosk-agent-');
  let stack: KioskStack;
  let agent: Agent;
  let page: Page;
  let gatewayAgain: Awaited<ReturnType<typeof startService>> | undefined;

  beforeAll(async () => {
    ({ stack, agent, page } = await session.startWithAgent({ quota: 10, real: { env: { ERASURE_SIMULATE: '1', ERASURE_SIMULATE_MBPS: '4', DATA_DIR: join(memory, 'agent') } } }));
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
  }, 180_000);

  afterAll(async () => {
    await session.stop();
    await stopService(gatewayAgain?.child);
    rmSync(memory, { recursive: true, force: true });
  });

  it('leads "Next: Erase →" to the typed confirmation of the selected drives', async () => {
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('.drive');
    await page.locator('button', { hasText: 'Select all 2' }).click();
    await expect.poll(async () => (await agentState(agent)).selected.length).toBe(2);
    await expect(page.locator('.selected-line').textContent()).resolves.toBe('2 drives selected. Next, confirm the erase on the Erase step.');
    await shoot(page, 'rough-01-drives-selected');
    await toConfirmation(page);
    const erase = await page.locator('[data-screen="erase"]').innerText();
    expect(erase).not.toMatch(/No erase has run yet|Select drives on the Drives step/);
    expect(erase).toMatch(/Everything on these 2 drives will be destroyed for good/);
    expect(erase).toMatch(/SIMULATED SSD 64M/);
    expect(erase).toMatch(/SIMULATED HDD 32M/);
    await expect(page.locator('.confirm kbd').textContent()).resolves.toBe('ERASE 2 DRIVES');
    await shoot(page, 'rough-02-erase-confirm');
  });

  it('gives a first time left from the drives’ size and speed, not "about 1 s"', async () => {
    await recordJobLines(page);
    await page.locator('#confirm-text').fill('ERASE 2 DRIVES');
    await page.keyboard.press('Enter');
    // Checked in, erasing: the gateway goes away, so both results wait on the machine.
    await expect.poll(async () => (await agentState(agent)).run.phase, { timeout: 60_000 }).toBe('erase');
    await stopService(stack.gateway.child);
    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 180_000 });
    const lines = await page.evaluate(() => (window as unknown as { jobLines: string[] }).jobLines);
    const first = lines.map((l) => /about (.+?) left/.exec(l)?.[1]).find((t) => t !== undefined);
    // 64 MiB written and read back at 4 MB/s is about 34 s; a real SSD's speed would say 1 s.
    expect(first, lines.join('\n')).toBeDefined();
    expect(seconds(first!)).toBeGreaterThanOrEqual(20);
  });

  it('returns to the results, not to step 1, when the kiosk is reloaded after the erase', async () => {
    await page.reload();
    await page.waitForSelector('[data-screen="erase"] .result-list .result >> nth=1');
    await shoot(page, 'rough-03-reload-results');
  });

  it('says the results waiting are kept only in memory and lost by a shut down', async () => {
    const state = await agentState(agent);
    expect(state.power).toMatchObject({ pending_results: 2, kept_in: 'memory' });
    await page.locator('.finish button', { hasText: 'Shut down' }).click();
    await page.locator('.finish [role="alertdialog"] button', { hasText: 'Shut down' }).click();
    const warning = page.locator('.finish [role="alertdialog"].warn');
    await expect(warning.innerText()).resolves.toMatch(/^2 results are not sent to the erasure service yet\. This machine keeps them only in memory: shutting it down loses them\. Shut down anyway\?/);
    expect(await warning.innerText()).not.toMatch(/\bif\b/i);
    await shoot(page, 'rough-04-shutdown-memory-warning');
    await warning.locator('button', { hasText: 'Keep it on' }).click();
  });

  it('restarts without a second question once the results were delivered after the outage', async () => {
    const port = new URL(stack.gateway.url).port;
    gatewayAgain = await startService(GATEWAY_BIN, { HOST: '127.0.0.1', PORT: port, DEVICE_TOKEN_PUBKEY: stack.keys.device_token_pubkey, INTERNAL_API_SECRET: stack.keys.internal_api_secret, CLOUD_INTERNAL_URL: stack.cloud.url });
    const sendNow = page.locator('.delivery-notice button', { hasText: 'Send now' });
    if (await sendNow.isVisible()) await sendNow.click();
    await expect.poll(() => page.locator('.result .certificate').allTextContents(), { timeout: 60_000 }).toEqual([expect.stringMatching(/^Certificate CW-\d{6}/), expect.stringMatching(/^Certificate CW-\d{6}/)]);
    await page.waitForSelector('.banner.ok');
    // The state the kiosk reads before it asks: nothing waits any more.
    await expect.poll(async () => (await agentState(agent)).power.pending_results).toBe(0);
    await page.locator('.finish button', { hasText: 'Restart' }).click();
    await page.locator('.finish [role="alertdialog"]:has-text("Restart this machine now?") button', { hasText: 'Restart' }).click();
    await page.waitForSelector('.finish .banner:has-text("Simulated machine: it would restart now")');
    expect(await page.locator('.finish [role="alertdialog"].warn').count()).toBe(0);
    await shoot(page, 'rough-05-restart-after-delivery');
  });

  it('starts the next run with the erased drives unticked and without the last run’s "it would restart now"', async () => {
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('.drive');
    expect(await page.locator('.drive input[type="checkbox"]:checked').count()).toBe(0);
    expect(await page.locator('[data-testid="erased-before"]').count()).toBe(2);
    expect(await page.locator('.selected-line').count()).toBe(0);
    await shoot(page, 'rough-06-drives-unticked');
    const small = page.locator('.drive', { hasText: 'SIMULATED HDD 32M' }).locator('input[type="checkbox"]');
    await small.click();
    await expect.poll(() => small.isChecked()).toBe(true);
    await toConfirmation(page);
    await page.locator('#confirm-text').fill('ERASE 1 DRIVE');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await agentState(agent)).run.status, { timeout: 60_000 }).toBe('running');
    expect((await agentState(agent)).power.last).toBeUndefined();
    await page.waitForSelector('.finish', { timeout: 120_000 });
    expect(await page.locator('.finish .banner').count()).toBe(0);
    await shoot(page, 'rough-07-second-run-finished');
  });
});
