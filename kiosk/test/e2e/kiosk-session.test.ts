import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_CODES } from '../../src/renderer/features/hardware-tests/keyboard-layout.js';
import { TOUCH_COLS, TOUCH_ROWS } from '../../src/renderer/features/hardware-tests/touch-test.js';
import { agentState, kioskSession, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

/**
 * The technician's whole session in Debian's Chromium against the real stack started from the
 * binaries (cloud, gateway, agent in simulate mode): unlock, every hardware test, a note, two
 * drives erased with live progress, both results with their certificates in the cloud.
 */
describe('kiosk: a full session on a simulated machine', { timeout: 180_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let agent: Agent;
  let page: Page;

  beforeAll(async () => {
    ({ stack, agent, page } = await session.startWithAgent({ quota: 10 }));
  }, 180_000);

  afterAll(() => session.stop());

  const openTest = async (id: string) => {
    await page.click(`[data-test="${id}"]`);
    await page.waitForSelector(`#test-title`);
  };
  const badge = (id: string) => page.locator(`[data-test="${id}"] .badge`);
  const verdict = (label: string) => page.locator('.verdict button', { hasText: label }).click();

  it('unlocks, records every hardware test, saves a note, erases two drives and shows both results', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await expect(page.locator('.unlocked-badge').textContent()).resolves.toMatch(/Unlocked · Kiosk Refurb/);
    // The machine summary comes from the agent's boot fingerprint.
    await page.waitForSelector('.fact:has-text("Erasure Labs Simulated Laptop 14")');
    await expect(page.locator('.fact', { hasText: 'Serial number' }).textContent()).resolves.toContain('SIM-LAPTOP-0001');
    await expect(page.locator('.fact', { hasText: 'Battery' }).textContent()).resolves.toContain('91% health');
    await shoot(page, '02-machine');

    // Keyboard-only from here where a technician would use it: the step list is buttons (Tab, Enter).
    await page.locator('nav.steps button', { hasText: 'Hardware tests' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-screen="tests"]');
    await page.locator('button', { hasText: 'Start keyboard test' }).focus();
    await page.keyboard.press('Enter');
    for (const code of LAYOUT_CODES.slice(0, 30)) await page.keyboard.press(code);
    await shoot(page, '03-test-keyboard');
    for (const code of LAYOUT_CODES.slice(30)) await page.keyboard.press(code);
    await expect.poll(() => badge('keyboard').textContent()).toBe('Passed');

    await openTest('display');
    await page.locator('button', { hasText: 'Start colour test' }).click();
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    await page.waitForSelector('.colour-field[data-colour="Red"]');
    await shoot(page, '04-test-display-red');
    for (let i = 0; i < 4; i++) await page.click('.colour-field');
    await page.waitForSelector('.colour-field', { state: 'detached' });
    await verdict('Passed');
    await expect.poll(() => badge('display').textContent()).toBe('Passed');

    await openTest('touchscreen');
    const grid = await page.locator('[data-testid="touch-grid"]').boundingBox();
    if (!grid) throw new Error('no touch grid');
    for (let r = 0; r < TOUCH_ROWS; r++)
      for (let c = 0; c < TOUCH_COLS; c++) {
        if (r === TOUCH_ROWS - 1 && c === TOUCH_COLS - 1) await shoot(page, '05-test-touch');
        await page.touchscreen.tap(grid.x + ((c + 0.5) * grid.width) / TOUCH_COLS, grid.y + ((r + 0.5) * grid.height) / TOUCH_ROWS);
      }
    await expect.poll(() => badge('touchscreen').textContent()).toBe('Passed');

    await openTest('usb_ports');
    await page.click('button[aria-label="Ports that work: one more"]');
    await page.click('button[aria-label="Ports that work: one more"]');
    await shoot(page, '06-test-usb');
    await verdict('Passed');

    await openTest('webcam');
    await page.waitForSelector('.webcam:not(.hidden)');
    await shoot(page, '07-test-webcam');
    await verdict('Passed');

    await openTest('audio');
    await page.locator('button', { hasText: 'Play left speaker' }).click();
    await page.locator('button', { hasText: 'Play right speaker' }).click();
    await verdict('Passed');

    await openTest('battery');
    await expect(page.locator('.info-list').textContent()).resolves.toContain('91% of design capacity');
    await shoot(page, '08-test-battery');
    await verdict('Passed');
    await openTest('wifi_adapter');
    await expect(page.locator('.info-list').textContent()).resolves.toContain('wlan0');
    await verdict('Detected');
    await openTest('bluetooth');
    await page.waitForSelector('text=None found in the hardware report.');
    await verdict('Not applicable');
    await expect.poll(() => badge('bluetooth').textContent()).toBe('Not applicable');
    await shoot(page, '09-tests-recorded');

    const tests = (await agentState(agent)).tests as Record<string, { status: string; detail?: string }>;
    expect(Object.fromEntries(Object.entries(tests).map(([k, v]) => [k, v.status]))).toEqual({
      keyboard: 'passed',
      display: 'passed',
      touchscreen: 'passed',
      usb_ports: 'passed',
      webcam: 'passed',
      audio: 'passed',
      battery: 'passed',
      wifi_adapter: 'detected',
      bluetooth: 'not_applicable',
    });
    expect(tests.keyboard?.detail).toBe(`all ${LAYOUT_CODES.length} keys pressed`);
    expect(tests.usb_ports?.detail).toBe('2 working, 0 not working');

    // Notes: typed, then saved by themselves once typing stops.
    await page.locator('button', { hasText: 'Next: Notes' }).click();
    await page.locator('#notes').focus();
    await page.keyboard.type('Small dent on the lid. No charger.');
    await page.waitForSelector('text=Saved.');
    await shoot(page, '10-notes');
    expect((await agentState(agent)).notes).toBe('Small dent on the lid. No charger.');

    // Drives: pick both with the keyboard, type the agent's phrase, Enter starts.
    await page.locator('button', { hasText: 'Next: Drives' }).click();
    await page.waitForSelector('.drive');
    await shoot(page, '11-drives');
    for (const box of await page.locator('.drive input[type="checkbox"]').all()) {
      await box.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => box.isChecked()).toBe(true);
    }
    await toConfirmation(page);
    const phrase = (await page.locator('.confirm kbd').textContent()) ?? '';
    expect(phrase).toBe('ERASE 2 DRIVES');
    await page.locator('#confirm-text').fill(phrase.toLowerCase());
    await shoot(page, '12-drives-confirm');
    await page.keyboard.press('Enter');

    await page.waitForSelector('[data-screen="erase"]');
    await page.waitForSelector('.progress-item, .result-list');
    if (await page.locator('.progress-item').count()) await shoot(page, '13-erase-progress');
    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 120_000 });
    await page.waitForSelector('.banner.ok');
    await shoot(page, '14-results');

    const state = await agentState(agent);
    expect(state.results).toHaveLength(2);
    for (const r of state.results) expect(r).toMatchObject({ erased: true, delivered: true, certificate_status: expect.any(String) });
    // The simulated drive files were really overwritten: no customer data is left.
    for (const r of state.results) expect(readFileSync(r.device).includes('CUSTOMER DATA')).toBe(false);
    const certificates = (await stack.cli('admin', 'list-certificates', '--account', stack.accountId)) as Array<{ drive_serial: string; certificate_number: string }>;
    expect(certificates.map((c) => c.drive_serial).sort()).toEqual(['SIM0000000001', 'SIM0000000002']);

    // Both certificate numbers reach the results screen (looked up by the agent after delivery).
    const lines = page.locator('.result .certificate');
    await expect.poll(() => lines.allTextContents(), { timeout: 30_000 }).toEqual([expect.stringMatching(/^Certificate CW-\d{6}/), expect.stringMatching(/^Certificate CW-\d{6}/)]);
    const shown = (await lines.allTextContents()).map((t) => /CW-\d{6}/.exec(t)?.[0]).sort();
    expect(shown).toEqual(certificates.map((c) => c.certificate_number).sort());
    await shoot(page, '14b-results-certificates');
    expect(join(agent.dataDir)).toBeTruthy();
  });
});
