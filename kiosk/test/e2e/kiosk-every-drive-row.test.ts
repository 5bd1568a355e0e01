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
const BEHIND = 'behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive';

/** The drives screen for one agent state, rendered by the kiosk's own components and stylesheet. */
function page(snap: KioskAgentState, screen: 'drives' | 'erase' = 'drives'): string {
  const data = goTo(receiveSnapshot(receiveConnection(initialData, { status: 'live' }), snap), screen);
  const store = createKioskStore({ api: fakeAgent().api, schedule: manualTimers().schedule, notesDebounceMs: 1 }, data);
  const html = renderToString(createElement(KioskStoreContext.Provider, { value: store }, createElement(App))).replaceAll('<!-- -->', '');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body><div id="root">${html}</div></body></html>`;
}

const plan = { ok: true as const, method: 'overwrite', label: 'NIST 800-88 R2 Clear', category: 'Clear' as const, technique: 'Overwrite', expected_minutes: 540, duration_source: 'estimate' as const, fully_sanitized: true, warnings: [] };

/** A server booted from the erasure stick: a MegaRAID virtual disk over two physical disks, and the stick. */
const drives: AgentDrive[] = [
  {
    device: '/dev/sda', model: 'MR9361-16i', serial: 'VD-00A1', size_bytes: 4_000_787_030_016, media_type: 'HDD', transport: 'sas', internal: true, plan,
    connection: {
      summary: 'behind RAID controller (MegaRAID), virtual disk',
      details: ['RAID virtual disk (MegaRAID) spanning ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB); WD4000FYYX (serial WD-WCC131234567, 4001 GB): this erases the virtual disk, not the physical drives as such', 'driver megaraid_sas'],
      hidden: [
        { device: '/dev/bus/0 (megaraid,0)', model: 'ST6000NM0115-1YZ110', serial: 'ZAD2C11G', size_bytes: 6_001_175_126_016, reason: BEHIND },
        { device: '/dev/bus/0 (megaraid,1)', model: 'WD4000FYYX', serial: 'WD-WCC131234567', size_bytes: 4_000_787_030_016, reason: BEHIND },
      ],
    },
  },
  { device: '/dev/sdb', model: 'SanDisk Cruzer Blade', serial: '4C530001', size_bytes: 16_008_609_792, media_type: 'SSD', transport: 'usb', internal: false, plan: { ok: false, reason: 'boot medium: never erased' } },
];

describe('kiosk: every drive the agent sees has a row', { timeout: 120_000 }, () => {
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  beforeAll(async () => {
    browser = await launchKioskBrowser();
  });
  afterAll(async () => browser?.close());

  it('the virtual disk, each physical disk behind it with its serial and why it is not erased, and the boot medium labelled never erased', async () => {
    await browser.page.setContent(page(agentState({ drives })));
    await shoot(browser.page, 'drives-every-drive-row');
    const text = await browser.page.locator('[data-screen="drives"]').innerText();
    expect(text).toMatch(/ST6000NM0115-1YZ110[\s\S]*S\/N ZAD2C11G[\s\S]*physical disk behind the RAID virtual disk above/);
    expect(text).toMatch(/WD4000FYYX[\s\S]*S\/N WD-WCC131234567/);
    expect(text.match(/Cannot be erased: behind a RAID virtual disk/g)).toHaveLength(2);
    expect(text).toMatch(/SanDisk Cruzer Blade[\s\S]*Cannot be erased: boot medium: never erased/);
    const boxes = browser.page.locator('[data-screen="drives"] input[type="checkbox"]');
    expect(await boxes.count()).toBe(4);
    expect(await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).disabled))).toEqual([false, true, true, true]);
  });

  it('after the run, each hidden physical disk\'s result reads as its row does: model, serial, the controller it is behind, never its /dev/bus node', async () => {
    const erased = { device: '/dev/sda', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'full read-back', job_id: 'job_1-0', delivered: true, wipe_result_id: 'wr_1', certificate_status: 'complete', certificate_number: 'CW-000041' };
    const notErased = (device: string, n: number) => ({ device, method: 'overwrite', erased: false, refused: true, passes: null, verification: `not erased: ${BEHIND}`, job_id: `job_1-${n}`, delivered: true, wipe_result_id: `wr_${n + 1}`, failure_code: 'not_erased' });
    const results = [erased, notErased('/dev/bus/0 (megaraid,0)', 1), notErased('/dev/bus/0 (megaraid,1)', 2)];
    await browser.page.setContent(page(agentState({ drives, results, run: { status: 'finished', phase: 'done', exit_code: 3 } }), 'erase'));
    await shoot(browser.page, 'results-raid-hidden-disks');
    const titles = await browser.page.locator('.result-list > li strong').allInnerTexts();
    expect(titles).toEqual([
      'MR9361-16i · S/N VD-00A1',
      'ST6000NM0115-1YZ110 · S/N ZAD2C11G · behind RAID controller (MegaRAID)',
      'WD4000FYYX · S/N WD-WCC131234567 · behind RAID controller (MegaRAID)',
    ]);
    expect(titles.join('\n')).not.toContain('/dev/bus');
  });

  it('after the run, a drive the agent refused to plan has its "Not erased" result beside the erased one; the boot medium has none', async () => {
    // Issue 30 item 7 at the kiosk: a locked self-encrypting drive that needs a PSID revert elsewhere.
    const PSID_ELSEWHERE = 'the drive is self-encrypting (Opal 2, locked): its data cannot be read or written until it is unlocked, and this image has no tool that can PSID-revert a SATA or SAS drive (sedutil-cli): it needs a PSID revert on another computer, with the 32-character PSID printed on its label.';
    const locked: AgentDrive = { device: '/dev/sdc', model: 'Samsung SSD 860 EVO 1TB', serial: 'S3Z9NB0K123456A', size_bytes: 1_000_204_886_016, media_type: 'SSD', transport: 'sata', internal: true, plan: { ok: false, reason: PSID_ELSEWHERE } };
    const machine = [drives[0]!, locked, drives[1]!];
    const erased = { device: '/dev/sda', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'full read-back', job_id: 'job_2-0', delivered: true, wipe_result_id: 'wr_7', certificate_status: 'complete', certificate_number: 'CW-000042' };
    const notErased = { device: '/dev/sdc', method: 'overwrite', erased: false, refused: true, passes: null, verification: `Not erased: ${PSID_ELSEWHERE}`, job_id: 'job_2-1', delivered: true, wipe_result_id: 'wr_8', failure_code: 'not_erased' };
    await browser.page.setContent(page(agentState({ drives: machine, results: [erased, notErased], run: { status: 'finished', phase: 'done', exit_code: 3 } }), 'erase'));
    await shoot(browser.page, 'results-refused-drive');
    const titles = await browser.page.locator('.result-list > li strong').allInnerTexts();
    expect(titles).toEqual(['MR9361-16i · S/N VD-00A1', 'Samsung SSD 860 EVO 1TB · S/N S3Z9NB0K123456A']);
    const text = await browser.page.locator('.result-list').innerText();
    expect(text).toMatch(/Samsung SSD 860 EVO 1TB[\s\S]*Not erased — the drive was refused before anything was written/);
    expect(text).not.toContain('SanDisk Cruzer Blade');
  });
});
