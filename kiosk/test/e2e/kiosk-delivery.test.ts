import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_BIN, startService, stopService } from '../../../test/support/stack.js';
import { agentState, kioskSession, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

/** Records, in the page, whether a red result or a red headline was ever on screen (re-armed after a reload). */
const watchForRed = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { sawRed?: string };
    const check = () => {
      const red = document.querySelector('.result.bad, .banner.bad');
      if (red && !w.sawRed) w.sawRed = red.textContent ?? 'red';
    };
    check();
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
const sawRed = (page: Page) => page.evaluate(() => (window as unknown as { sawRed?: string }).sawRed ?? null);

/**
 * The gateway stops in the middle of an erase and comes back after it: the real cloud, gateway
 * and agent (simulated machine, erasing at a realistic speed) in Debian's Chromium. Both drives
 * are erased and verified; their results wait on the machine, shown as saved and sending, never
 * red, with a plain "keep the machine on"; once the gateway is back, Send now (or the agent's own
 * round) delivers them and the certificate numbers appear, also after a reload.
 */
describe('kiosk: results while the gateway is down', { timeout: 240_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let agent: Agent;
  let page: Page;
  let gatewayAgain: Awaited<ReturnType<typeof startService>> | undefined;

  beforeAll(async () => {
    // 16 MB/s: the 64 MiB drive takes several seconds, long enough to stop the gateway mid-erase.
    ({ stack, agent, page } = await session.startWithAgent({ quota: 10, real: { env: { ERASURE_SIMULATE: '1', ERASURE_SIMULATE_MBPS: '16' } } }));
  }, 180_000);

  afterAll(async () => {
    await session.stop();
    await stopService(gatewayAgain?.child);
  });

  it('never shows an erased drive red, says sending and keep the machine on, then shows the certificate numbers once delivered', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('.drive');
    for (const box of await page.locator('.drive input[type="checkbox"]').all()) {
      await box.click();
      await expect.poll(() => box.isChecked()).toBe(true);
    }
    await toConfirmation(page);
    await page.locator('#confirm-text').fill((await page.locator('.confirm kbd').textContent()) ?? '');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-screen="erase"]');
    await watchForRed(page);

    // Checked in, erasing: the gateway goes away.
    await expect.poll(async () => (await agentState(agent)).run.phase, { timeout: 60_000 }).toBe('erase');
    await stopService(stack.gateway.child);

    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 120_000 });
    const verdicts = page.locator('.result .verdict-text');
    expect(await verdicts.allTextContents()).toEqual(['Erased and verified · result saved, sending…', 'Erased and verified · result saved, sending…']);
    const notice = page.locator('.delivery-notice');
    await expect(notice.textContent()).resolves.toMatch(/2 results are saved on this machine.*Keep the machine on until they are sent/);
    await expect(page.locator('.banner[role="status"]').first().textContent()).resolves.toMatch(/erased and verified.*keep the machine on/i);
    expect((await agentState(agent)).results.map((r: { erased: boolean; delivered: boolean }) => [r.erased, r.delivered])).toEqual([
      [true, false],
      [true, false],
    ]);
    await shoot(page, '30-results-sending');

    // Send now while the gateway is still down: it says so, and the results stay saved.
    await notice.locator('button', { hasText: 'Send now' }).click();
    await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toMatch(/Not sent yet: the erasure service is still unreachable/);
    await shoot(page, '31-results-send-now-unreachable');

    // A reload mid-wait shows the same, from the agent's state.
    expect(await sawRed(page)).toBeNull();
    await page.reload();
    await page.locator('nav.steps button', { hasText: 'Erase' }).click();
    await page.waitForSelector('.result-list .result >> nth=1');
    await watchForRed(page);
    expect(await verdicts.allTextContents()).toEqual(['Erased and verified · result saved, sending…', 'Erased and verified · result saved, sending…']);

    // The gateway is back at the same address; Send now (or the agent's own round, if it came first) delivers.
    const port = new URL(stack.gateway.url).port;
    gatewayAgain = await startService(GATEWAY_BIN, { HOST: '127.0.0.1', PORT: port, DEVICE_TOKEN_PUBKEY: stack.keys.device_token_pubkey, INTERNAL_API_SECRET: stack.keys.internal_api_secret, CLOUD_INTERNAL_URL: stack.cloud.url });
    const sendNow = notice.locator('button', { hasText: 'Send now' });
    if (await sendNow.isVisible()) await sendNow.click();
    const lines = page.locator('.result .certificate');
    await expect.poll(() => lines.allTextContents(), { timeout: 60_000 }).toEqual([expect.stringMatching(/^Certificate CW-\d{6}/), expect.stringMatching(/^Certificate CW-\d{6}/)]);
    expect(await verdicts.allTextContents()).toEqual(['Erased and verified', 'Erased and verified']);
    expect(await notice.count()).toBe(0);
    await page.waitForSelector('.banner.ok');
    await shoot(page, '32-results-delivered-later');
    const certificates = (await stack.cli('admin', 'list-certificates', '--account', stack.accountId)) as Array<{ certificate_number: string }>;
    const shown = (await lines.allTextContents()).map((t) => /CW-\d{6}/.exec(t)?.[0]).sort();
    expect(shown).toEqual(certificates.map((c) => c.certificate_number).sort());

    // After a reload the numbers are still there: they come from the agent.
    expect(await sawRed(page)).toBeNull();
    await page.reload();
    await page.locator('nav.steps button', { hasText: 'Erase' }).click();
    await expect.poll(() => lines.allTextContents(), { timeout: 30_000 }).toEqual((await agentState(agent)).results.map((r: { certificate_number: string }) => expect.stringContaining(r.certificate_number)));
    expect(await sawRed(page)).toBeNull();
    expect((await agentState(agent)).run).toMatchObject({ phase: 'done', exit_code: 0 });
  });
});
