import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, shoot, toConfirmation, type Agent } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = join(REPO, '..', 'shared', 'fixtures', 'real');
const FAKE_BIN = join(REPO, 'engine-agent', 'test', 'fake-bin');
const present = existsSync(FIXTURES);
if (!present) console.warn(`[fixtures] ${FIXTURES} is absent: the kiosk's health grade test is skipped`);

/**
 * Issue 30 item 6 on the kiosk: the simulated machine's two drives erased for real (files), with
 * a fake smartctl on PATH answering for them with real captures: the worn Samsung 840 (B) and an
 * HGST disk with a thousand bad sectors (F). Both are erased and verified; the F drive says
 * "do not resell" beside that, never "failed".
 */
describe.skipIf(!present)('kiosk: the health grade for resale on the result row', { timeout: 300_000 }, () => {
  const session = kioskSession();
  let agent: Agent;
  let page: Page;
  const work = mkdtempSync(join(tmpdir(), 'kiosk-health-'));

  beforeAll(async () => {
    const scenario = {
      smartctl: [
        { match: '--json -x .*sim-ssd-0', fixture: 'smartctl/samsung-840-sata-ssd-smartctl-x-worn.json' },
        { match: '--json -x .*sim-hdd-1', fixture: 'smartctl/hgst-hus726060ala640-sata-hdd-smartctl.json' },
      ],
    };
    writeFileSync(join(work, 'scenario.json'), JSON.stringify(scenario));
    ({ agent, page } = await session.startWithAgent({
      quota: 5,
      real: { env: { ERASURE_SIMULATE: '1', PATH: [FAKE_BIN, process.env.PATH ?? ''].join(delimiter), FAKE_SCENARIO_FILE: join(work, 'scenario.json'), FAKE_FIXTURE_DIR: FIXTURES } },
    }));
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await page.waitForFunction(async () => document.querySelector('[data-testid="report-status"]')?.textContent === 'Hardware report received by the service.', undefined, { timeout: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await session.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows each erased drive with its grade and reasons, an F drive still erased, and SMART and speed under Details', async () => {
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('[data-screen="drives"]');
    await page.waitForSelector('.drive');
    await page.locator('button', { hasText: 'Select all 2' }).click();
    await expect.poll(async () => (await agentState(agent)).selected.length).toBe(2);
    await toConfirmation(page);
    await page.locator('#confirm-text').fill('ERASE 2 DRIVES');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 120_000 });
    await page.waitForSelector('[data-testid="health-grade"] >> nth=1');
    const rows = page.locator('.result-list .result');
    const ssd = rows.filter({ hasText: 'SIMULATED SSD' });
    const hdd = rows.filter({ hasText: 'SIMULATED HDD' });
    await expect(ssd.locator('[data-testid="health-grade"]').innerText()).resolves.toMatch(/^B\s+Health grade B: used, good\s+it has been powered on for 19,497 hours[^\n]*\n.*108 transfer error\(s\) on the cable/s);
    const hddText = await hdd.innerText();
    expect(hddText).toContain('Erased and verified');
    expect(hddText).toContain('Health grade F: do not resell');
    expect(hddText).toContain('878 sector(s) the drive could not read are waiting to be replaced');
    // Never shown as failed: both rows keep the erased tone and mark.
    expect(await page.locator('.result.bad').count()).toBe(0);
    expect(await page.locator('.result.ok').count()).toBe(2);
    // The numbers are internals: not on the row itself, only under Details.
    expect(hddText).not.toContain('SMART before');
    await shoot(page, '40-results-health-grade');
    await hdd.locator('.result-details summary').click();
    const details = await hdd.locator('.result-details').innerText();
    expect(details).toMatch(/SMART before\s+health check passed · 43,177 h powered on/);
    expect(details).toMatch(/Write speed\s+[\d.]+–[\d.]+ MB\/s, median [\d.]+ MB\/s over \d+ regions; 0 write error\(s\)/);
    await shoot(page, '40b-results-health-details');
    const state = await agentState(agent);
    expect(state.results.map((r: { health?: { grade: string } }) => r.health?.grade).sort()).toEqual(['B', 'F']);
  });
});
