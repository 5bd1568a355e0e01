import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDrive, KioskAgentState } from '../../src/renderer/contract.js';
import { App } from '../../src/renderer/app.js';
import { createKioskStore } from '../../src/renderer/store/store.js';
import { agentState, fakeAgent, manualTimers } from '../../src/renderer/store/test-fixtures.js';
import { KioskStoreContext } from '../../src/renderer/store/use-kiosk.js';
import { goTo, receiveConnection, receiveSnapshot } from '../../src/renderer/store/reducers.js';
import { initialData } from '../../src/renderer/store/state.js';
import { launchKioskBrowser, shoot } from './kiosk-stack.js';

const CSS = readFileSync(new URL('../../src/renderer/styles.css', import.meta.url), 'utf8');

/** The drives screen for one agent state, rendered by the kiosk's own components and stylesheet. */
function page(snap: KioskAgentState): string {
  const data = goTo(receiveSnapshot(receiveConnection(initialData, { status: 'live' }), snap), 'drives');
  const store = createKioskStore({ api: fakeAgent().api, schedule: manualTimers().schedule, notesDebounceMs: 1 }, data);
  const html = renderToString(createElement(KioskStoreContext.Provider, { value: store }, createElement(App))).replaceAll('<!-- -->', '');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body><div id="root">${html}</div></body></html>`;
}

/** A thin client's eMMC and an SD card in its slot, as the agent lists them (issue 30 item 4). */
const drives: AgentDrive[] = [
  {
    device: '/dev/mmcblk0', model: 'DG4256', serial: '0x8a4b21c3', size_bytes: 250_181_844_992, media_type: 'SSD', transport: 'mmc', internal: true,
    plan: { ok: true, method: 'mmc-sanitize', label: 'NIST 800-88 R2 Purge', category: 'Purge', technique: 'eMMC Sanitize (JEDEC JESD84), after a TRIM of the whole user area', expected_minutes: 210, duration_source: 'estimate', fully_sanitized: true, warnings: [] },
    connection: {
      summary: 'eMMC (built-in flash storage)',
      details: ['Drive type: eMMC (built-in flash storage); its EXT_CSD (rev 1.8 (MMC 5.1)) says: sanitize supported, secure erase supported', 'Card: product name DG4256, serial 0x8a4b21c3, manufacturer id 0x000045, made 03/2022', 'EXT_CSD SEC_FEATURE_SUPPORT 0x55, 488636416 sectors (SEC_COUNT)'],
    },
  },
  {
    device: '/dev/mmcblk1', model: 'SC32G', serial: '0x1c2b3a49', size_bytes: 31_914_983_424, media_type: 'SSD', transport: 'mmc', internal: true,
    plan: { ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear', category: 'Clear', technique: 'Overwrite, single pass with verification', expected_minutes: 53, duration_source: 'estimate', fully_sanitized: true, warnings: [] },
    connection: { summary: 'SD card', details: ['Drive type: SD card; an SD card has no sanitize or secure erase command, so it is erased by overwrite (NIST Clear)', 'Card: product name SC32G, serial 0x1c2b3a49, manufacturer id 0x000003, made 11/2021'] },
  },
];

describe('kiosk: eMMC and SD cards are named in plain words', { timeout: 120_000 }, () => {
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  beforeAll(async () => {
    browser = await launchKioskBrowser();
  });
  afterAll(async () => browser?.close());

  it('each card row says what it is ("SD card", "eMMC (built-in flash storage)"), the EXT_CSD behind Details', async () => {
    await browser.page.setContent(page(agentState({ drives })));
    await browser.page.locator('[data-testid="drive-connection"] summary').first().click();
    await shoot(browser.page, 'drives-emmc-and-sd-card');
    const text = await browser.page.locator('[data-screen="drives"]').innerText();
    expect(text).toMatch(/DG4256[\s\S]*250 GB · eMMC \(built-in flash storage\) · S\/N 0x8a4b21c3/);
    expect(text).toMatch(/SC32G[\s\S]*31\.9 GB · SD card · S\/N 0x1c2b3a49/);
    expect(text).toContain('EXT_CSD SEC_FEATURE_SUPPORT 0x55');
    expect(text).toContain('about 53 min (estimate for 31.9 GB card)');
    expect(text).not.toMatch(/SSD · MMC|GB SSD/);
  });
});
