import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDrive, DriveProgress, KioskAgentState } from '../../src/renderer/contract.js';
import { App } from '../../src/renderer/app.js';
import { createKioskStore } from '../../src/renderer/store/store.js';
import { agentState, fakeAgent, manualTimers } from '../../src/renderer/store/test-fixtures.js';
import { KioskStoreContext } from '../../src/renderer/store/use-kiosk.js';
import { goTo, receiveConnection, receiveProgress, receiveSnapshot } from '../../src/renderer/store/reducers.js';
import { initialData } from '../../src/renderer/store/state.js';
import { launchKioskBrowser, shoot } from './kiosk-stack.js';

const GB = 1e9;
const CSS = readFileSync(new URL('../../src/renderer/styles.css', import.meta.url), 'utf8');

const drive = (i: number, model: string, sizeBytes: number): AgentDrive => ({
  device: `/dev/sd${String.fromCharCode(97 + i)}`,
  model,
  serial: `SN-${1000 + i}`,
  size_bytes: sizeBytes,
  media_type: 'HDD',
  transport: 'sata',
  internal: true,
  plan: { ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear', category: 'Clear', technique: 'Overwrite', expected_minutes: 220, duration_source: 'estimate', fully_sanitized: true, warnings: [] },
});

/** The erase screen for one state and its live progress, rendered by the kiosk's own components and stylesheet. */
function page(snap: KioskAgentState, progress: readonly DriveProgress[]): string {
  let data = receiveSnapshot(receiveConnection(initialData, { status: 'live' }), snap);
  data = goTo(data, 'erase');
  for (const p of progress) data = receiveProgress(data, p);
  const store = createKioskStore({ api: fakeAgent().api, schedule: manualTimers().schedule, notesDebounceMs: 1 }, data);
  const html = renderToString(createElement(KioskStoreContext.Provider, { value: store }, createElement(App))).replaceAll('<!-- -->', '');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body><div id="root">${html}</div></body></html>`;
}

/**
 * The erase screen as a technician sees it with one drive and with a server's twelve, finished
 * drives showing their outcome beside those still running. Screenshots at both kiosk resolutions.
 */
describe('kiosk: erase progress with one and with twelve drives', { timeout: 120_000 }, () => {
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  beforeAll(async () => {
    browser = await launchKioskBrowser();
  });
  afterAll(async () => browser?.close());

  it('one drive: stage and pass n of N, bytes, rate, elapsed, time left, and the job line', async () => {
    const d = drive(0, 'WDC WD10EZEX-08WN4A0', 1 * GB);
    const snap = agentState({ drives: [d], selected: [d.device], run: { status: 'running', phase: 'erase' } });
    const html = page(snap, [{ device: d.device, stage: 'write', pass: 1, passes: 1, bytes_done: 0.42 * GB, bytes_total: 1 * GB, percent: 42, bytes_per_second: 160e6, elapsed_seconds: 3, eta_seconds: 10 }]);
    await browser.page.setContent(html);
    await shoot(browser.page, 'erase-progress-1-drive');
    const text = await browser.page.locator('[data-screen="erase"]').innerText();
    expect(text).toMatch(/Writing — pass 1 of 1/);
    expect(text).toMatch(/0 of 1 drive finished · 3 s elapsed · about 10 s left/);
    expect(text).toMatch(/160 MB\/s/);
  });

  it('twelve drives: every one on one screen, finished drives by their outcome while the rest run', async () => {
    const drives = Array.from({ length: 12 }, (_, i) => drive(i, i % 3 === 0 ? 'ST4000NM0035-1V4107' : i % 3 === 1 ? 'HGST HUS726T4TALA6L4' : 'WDC WD4003FRYZ-01F0DB0', 4000 * GB));
    const snap = agentState({ drives, selected: drives.map((d) => d.device), run: { status: 'running', phase: 'erase' } });
    const progress: DriveProgress[] = drives.map((d, i): DriveProgress => {
      const base = { device: d.device, pass: 1, passes: 1, bytes_total: 4000 * GB, elapsed_seconds: 9000 + i * 60 };
      if (i < 3) return { ...base, stage: 'verify', pass: 0, bytes_done: 4000 * GB, percent: 100, eta_seconds: 0, outcome: 'erased' };
      if (i === 3) return { ...base, stage: 'write', bytes_done: 1200 * GB, percent: 30, eta_seconds: 0, outcome: 'failed' };
      if (i < 8) return { ...base, stage: 'verify', pass: 0, bytes_done: (i * 400) * GB, percent: i * 10, bytes_per_second: 195e6, eta_seconds: (4000 - i * 400) * GB / 195e6 };
      return { ...base, stage: 'write', bytes_done: (i * 300) * GB, percent: i * 7.5, bytes_per_second: 182e6, eta_seconds: ((4000 - i * 300) + 4000) * GB / 182e6 };
    });
    await browser.page.setContent(page(snap, progress));
    await shoot(browser.page, 'erase-progress-12-drives');
    const items = browser.page.locator('.progress-item');
    expect(await items.count()).toBe(12);
    const text = await browser.page.locator('[data-screen="erase"]').innerText();
    expect(text).toMatch(/4 of 12 drives finished/);
    expect(text.match(/Erased and verified/g)).toHaveLength(3);
    expect(text).toMatch(/Erase failed/);
    // A finished drive never reads as still verifying with no time left.
    expect(await items.nth(0).innerText()).not.toMatch(/Verifying|left/);
    // At 1920×1080 the twelfth drive is on the screen without scrolling.
    await browser.page.setViewportSize({ width: 1920, height: 1080 });
    const last = await items.nth(11).boundingBox();
    expect((last?.y ?? Infinity) + (last?.height ?? 0)).toBeLessThanOrEqual(1080);
  });
});
