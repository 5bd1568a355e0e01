import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, shoot, type Agent } from './kiosk-stack.js';

/**
 * Issue 28, item 14 in Debian's Chromium against the real stack (agent in simulate mode): the
 * kiosk names the audio test "Audio" as the report does, and a failed test takes the technician's
 * reason, which the agent records as the result's `detail` (spec 2, hardware test snapshot).
 */
describe('kiosk: hardware test names and the reason for a failed test', { timeout: 180_000 }, () => {
  const session = kioskSession();
  let agent: Agent;
  let page: Page;

  beforeAll(async () => {
    ({ agent, page } = await session.startWithAgent({ quota: 5 }));
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await page.locator('nav.steps button', { hasText: 'Hardware tests' }).click();
    await page.waitForSelector('[data-screen="tests"]');
  }, 180_000);

  afterAll(() => session.stop());

  it('calls the audio test "Audio", the name the report prints', async () => {
    await expect(page.locator('[data-test="audio"]').innerText()).resolves.toMatch(/^Audio\b/);
    await page.click('[data-test="audio"]');
    await expect(page.locator('#test-title').innerText()).resolves.toBe('Audio');
    expect(await page.locator('.tests').innerText()).not.toContain('Speakers');
  });

  it('asks what is wrong when a test fails and sends the words as the result’s detail', async () => {
    await page.click('[data-test="display"]');
    expect(await page.locator('.fail-reason').count()).toBe(0);
    await page.locator('.verdict-btn.failed').click();
    await expect.poll(async () => (await agentState(agent)).tests?.display?.status).toBe('failed');
    const reason = page.locator('#fail-reason-display');
    await reason.waitFor();
    await reason.fill('Dead pixels in the top-left corner');
    await page.locator('.fail-reason button', { hasText: 'Save reason' }).click();
    await expect.poll(async () => (await agentState(agent)).tests?.display).toEqual({ status: 'failed', detail: 'Dead pixels in the top-left corner' });
    await page.locator('.fail-reason', { hasText: 'Reason saved.' }).waitFor();
    await shoot(page, '40-test-failed-reason');
  });

  it('draws emoji a technician types in colour, not as empty boxes (issue 28, item 16)', async () => {
    const reason = page.locator('#fail-reason-display');
    await reason.fill('Backlight flickers \u{1F525} hinge ok \u{1F44D}');
    await shoot(page, '41-test-reason-emoji');
    // The page's own fonts draw the emoji on a canvas: a colour emoji font gives coloured pixels,
    // an empty box only grey ones. The boot image installs fonts-noto-color-emoji for this.
    const coloured = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 64;
      const ctx = canvas.getContext('2d')!;
      ctx.font = `48px ${getComputedStyle(document.querySelector('#fail-reason-display')!).fontFamily}`;
      ctx.fillText('\u{1F525}', 4, 52);
      const { data } = ctx.getImageData(0, 0, 64, 64);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 60) n++;
      return n;
    });
    expect(coloured).toBeGreaterThan(50);
  });
});
