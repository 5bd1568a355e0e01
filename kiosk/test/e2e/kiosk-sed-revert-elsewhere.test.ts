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

/** The agent's words for a locked SATA drive on an image without sedutil-cli (engine-agent drives/sed-lock.ts). */
const ELSEWHERE =
  'the drive is self-encrypting (Opal 2, locked): its data cannot be read or written until it is unlocked, and this image has no tool that can PSID-revert a SATA or SAS drive (sedutil-cli): it needs a PSID revert on another computer, with the 32-character PSID printed on its label. On a computer with sedutil-cli, run: sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID <the 32-character PSID from the label> <the drive>, then bring the drive back to be erased and certified.';

const locked = (over: Partial<AgentDrive>): AgentDrive => ({
  device: '/dev/sda', model: 'Samsung SSD 860 EVO 500GB', serial: 'S3Z2NB0K', size_bytes: 500_107_862_016, media_type: 'SSD', transport: 'sata', internal: true,
  plan: { ok: false, reason: ELSEWHERE },
  self_encryption: { words: 'self-encrypting (Opal 2, locked)', locked: true, revert_here: false },
  ...over,
});

describe('kiosk: a locked self-encrypting drive this image cannot PSID-revert', { timeout: 120_000 }, () => {
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  beforeAll(async () => {
    browser = await launchKioskBrowser();
  });
  afterAll(async () => browser?.close());

  it('says where and how to revert it, and asks for no PSID; a drive the image can revert keeps its PSID revert button', async () => {
    const nvme = locked({ device: '/dev/nvme0n1', model: 'Samsung SSD 970 EVO Plus 1TB', serial: 'S4EWNX0N', transport: 'nvme', plan: { ok: false, reason: 'the drive is self-encrypting (Opal 2, locked): its data cannot be read or written until it is unlocked; a PSID revert with the 32-character PSID printed on its label erases it and unlocks it' }, self_encryption: { words: 'self-encrypting (Opal 2, locked)', locked: true } });
    await browser.page.setContent(page(agentState({ drives: [locked({}), nvme] })));
    await shoot(browser.page, 'drives-sed-revert-elsewhere');
    const rows = browser.page.locator('[data-screen="drives"] li.drive');
    const sata = rows.nth(0);
    expect(await sata.innerText()).toContain('🔒 self-encrypting (Opal 2, locked)');
    expect(await sata.innerText()).toContain('it needs a PSID revert on another computer, with the 32-character PSID printed on its label. On a computer with sedutil-cli, run: sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID');
    expect(await sata.locator('[data-testid="psid-open"]').count()).toBe(0);
    expect(await rows.nth(1).locator('[data-testid="psid-open"]').count()).toBe(1);
  });
});
