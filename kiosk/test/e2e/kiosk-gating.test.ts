import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, mintToken, shoot, toConfirmation, type KioskStack } from './kiosk-stack.js';

/**
 * Device gating (spec 3) in the browser against the real stack: the kiosk stays locked without
 * an allowing verify, and a check-in denial blocks the erase with the reason on screen.
 */
describe('kiosk: device gating', { timeout: 120_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let page: Page;

  beforeAll(async () => {
    ({ stack, page } = await session.start());
  }, 180_000);

  afterEach(() => session.stopAgent());
  afterAll(() => session.stop());

  it('keeps a revoked device locked, says why in plain words, and offers no way to erase; Check again unlocks once reinstated', async () => {
    const { token, jti } = await mintToken(stack, { quota: 5, status: 'revoked' });
    const agent = await session.startAgent(stack.gateway.url, token);
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="locked"]');
    await expect(page.locator('.reason').textContent()).resolves.toMatch(/licence has been revoked/);
    await expect(page.locator('button', { hasText: 'Check again' }).evaluate((b) => b === document.activeElement)).resolves.toBe(true);
    expect(await page.locator('nav.steps, .drive, .confirm').count()).toBe(0);
    await shoot(page, '01-locked-revoked');
    expect(await agentState(agent)).toMatchObject({ locked: true, boot: { phase: 'denied', reason: 'revoked' }, can: { retry: true } });

    // Reinstated in the cloud: the operator checks again and this same boot unlocks.
    await stack.cli('admin', 'set-token-status', '--jti', jti, '--status', 'active');
    await page.locator('button', { hasText: 'Check again' }).click();
    await page.waitForSelector('[data-screen="machine"]');
    await expect(page.locator('.unlocked-badge').textContent()).resolves.toMatch(/Unlocked · Kiosk Refurb/);
    expect(await agentState(agent)).toMatchObject({ locked: false, boot: { phase: 'unlocked' } });
  });

  it('shows the connection check while the gateway does not answer, then locks with the reason', async () => {
    const { token } = await mintToken(stack, { quota: 5 });
    const agent = await session.startAgent('http://127.0.0.1:9', token);
    await page.goto(agent.url);
    await page.waitForSelector('text=Checking the connection to the erasure service');
    // The agent's attempts are on screen: the second one waits 4 s after the first failed.
    await page.waitForSelector('[data-testid="health-attempt"]:has-text("Attempt 2 of 3")', { timeout: 15_000 });
    await expect(page.locator('[data-testid="health-attempt"]').textContent()).resolves.toMatch(/the last one failed: gateway unreachable/);
    await shoot(page, '00-connecting');
    await page.waitForSelector('[data-screen="locked"]', { timeout: 30_000 });
    await expect(page.locator('.reason').textContent()).resolves.toMatch(/cannot be reached/);
    await shoot(page, '01-locked-unreachable');
  });

  it('blocks the erase when check-in is denied (quota used up after unlock) and erases nothing', async () => {
    const { token } = await mintToken(stack, { quota: 1 });
    const agent = await session.startAgent(stack.gateway.url, token);
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    // Another check-in spends the token's only unit after this boot unlocked.
    const spent = await fetch(new URL('/api/checkin', stack.gateway.url), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(spent.status).toBe(200);

    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    // The box shows the agent's selection, so it turns checked only once the agent took the intent.
    const box = page.locator('.drive input[type="checkbox"]').first();
    await box.click();
    await expect.poll(() => box.isChecked()).toBe(true);
    await toConfirmation(page);
    await page.locator('#confirm-text').fill('ERASE 1 DRIVE');
    await page.locator('button[type="submit"]').click();
    await page.waitForSelector('[data-screen="erase"] .banner.bad');
    await expect(page.locator('.banner.bad').textContent()).resolves.toMatch(/^Erasure blocked: nothing was erased\. This licence has no erasures left/);
    await shoot(page, '15-erase-blocked');

    const state = await agentState(agent);
    expect(state.run).toMatchObject({ status: 'finished', phase: 'denied', exit_code: 2 });
    expect(state.results).toEqual([]);
    expect(readFileSync(state.selected[0]).subarray(0, 13).toString()).toBe('CUSTOMER DATA');
  });
});
