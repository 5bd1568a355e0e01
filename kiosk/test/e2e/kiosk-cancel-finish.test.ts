import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopService } from '../../../test/support/stack.js';
import type { AgentDrive, DriveProgress, KioskAgentState } from '../../src/renderer/contract.js';
import { App } from '../../src/renderer/app.js';
import { createKioskStore } from '../../src/renderer/store/store.js';
import { agentState as stateFixture, fakeAgent, manualTimers } from '../../src/renderer/store/test-fixtures.js';
import { KioskStoreContext } from '../../src/renderer/store/use-kiosk.js';
import { goTo, receiveConnection, receiveProgress, receiveSnapshot } from '../../src/renderer/store/reducers.js';
import { initialData } from '../../src/renderer/store/state.js';
import { agentState, kioskSession, launchKioskBrowser, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

/**
 * Issue 22 items 1 and 4 in Debian's Chromium against the real stack: a technician cancels one of
 * two drives mid-erase (the other passes, the cancelled one is reported `cancelled`), cancels all
 * on a second run, then shuts down from the results screen, asked twice while a result still
 * waits, and the simulated machine only says it would power off.
 */
describe('kiosk: cancel during an erase, and a way to finish', { timeout: 240_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let agent: Agent;
  let page: Page;

  beforeAll(async () => {
    // Slow enough (64 MiB and 32 MiB drives at 3 MB/s) that both still erase when the operator cancels.
    ({ stack, agent, page } = await session.startWithAgent({ quota: 10, real: { env: { ERASURE_SIMULATE: '1', ERASURE_SIMULATE_MBPS: '3' } } }));
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
  }, 240_000);

  afterAll(() => session.stop());

  const eraseBoth = async () => {
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('.drive');
    // A run unticks the drives it erased, not the cancelled one: Select all ticks both again.
    const all = page.locator('button', { hasText: 'Select all 2' });
    if ((await all.count()) > 0) await all.click();
    await expect.poll(async () => (await agentState(agent)).selected.length).toBe(2);
    await toConfirmation(page);
    await page.locator('#confirm-text').fill('ERASE 2 DRIVES');
    await page.locator('#confirm-text').press('Enter');
    await page.waitForSelector('[data-screen="erase"]');
  };
  const wipeStatuses = () => {
    const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      return db.prepare('SELECT drive_serial, wipe_status FROM wipe_results ORDER BY rowid').all() as Array<{ drive_serial: string; wipe_status: string }>;
    } finally {
      db.close();
    }
  };

  it('cancels one of two drives mid-erase: it shows Cancelled (not a failure), the other passes, the cloud has it cancelled', async () => {
    const drives = (await agentState(agent)).drives as Array<{ device: string; model: string; serial: string }>;
    const big = drives.find((d) => d.model.includes('64M'));
    const small = drives.find((d) => d.model.includes('32M'));
    await eraseBoth();
    const row = page.locator(`.progress-item[data-device="${big?.device}"]`);
    await row.locator('.cancel-btn').waitFor({ timeout: 60_000 });
    await page.waitForSelector('.cancel-all .cancel-btn');
    await shoot(page, 'cancel-01-progress-with-cancel');
    await row.locator('.cancel-btn').click();
    await row.locator('[role="alertdialog"]').waitFor();
    expect(await row.innerText()).toContain('Stop erasing this drive? It will not be certified.');
    await shoot(page, 'cancel-02-confirm-one');
    await row.locator('button', { hasText: 'Stop this drive' }).click();
    // While the other drive still erases, this one reads Cancelled, grey, never a red failure.
    await expect.poll(() => row.locator('.progress-stage').textContent(), { timeout: 60_000 }).toBe('Cancelled');
    expect(await row.getAttribute('class')).toContain('tone-cancelled');
    expect(await row.innerText()).not.toMatch(/failed/i);
    if ((await agentState(agent)).run.status === 'running') await shoot(page, 'cancel-03-one-cancelled');
    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 120_000 });
    const state = await agentState(agent);
    const byDevice = new Map((state.results as Array<{ device: string; erased: boolean; failure_code?: string; certificate_status: string | null }>).map((r) => [r.device, r]));
    expect(byDevice.get(big!.device)).toMatchObject({ erased: false, failure_code: 'cancelled', certificate_status: null });
    expect(byDevice.get(small!.device)).toMatchObject({ erased: true });
    expect(wipeStatuses()).toEqual(expect.arrayContaining([{ drive_serial: big!.serial, wipe_status: 'cancelled' }, { drive_serial: small!.serial, wipe_status: 'completed' }]));
    const certificates = (await stack.cli('admin', 'list-certificates', '--account', stack.accountId)) as Array<{ drive_serial: string }>;
    expect(certificates.map((c) => c.drive_serial)).toEqual([small!.serial]);
    // After the run, the cancelled drive's card says Cancelled, not a red failure.
    const card = page.locator(`.result-list .result[data-device="${big!.device}"]`);
    expect(await card.getAttribute('class')).toContain('cancelled');
    expect(await card.innerText()).toContain('Cancelled — not erased, not certified');
    await page.waitForSelector('.finish');
    await shoot(page, 'cancel-04-results-with-finish');
  });

  it('Cancel all, confirmed, stops both drives and each is reported cancelled', async () => {
    const before = wipeStatuses().length;
    await eraseBoth();
    await page.locator('.cancel-all .cancel-btn').click({ timeout: 60_000 });
    await page.waitForSelector('.cancel-all [role="alertdialog"]');
    await shoot(page, 'cancel-05-confirm-all');
    await page.locator('.cancel-all button', { hasText: 'Stop all drives' }).click();
    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 120_000 });
    expect(((await agentState(agent)).results as Array<{ failure_code?: string }>).map((r) => r.failure_code)).toEqual(['cancelled', 'cancelled']);
    await expect.poll(() => wipeStatuses().slice(before).map((r) => r.wipe_status), { timeout: 30_000 }).toEqual(['cancelled', 'cancelled']);
  });

  it('Shut down with a result still waiting asks twice, and the simulated machine only says it would power off', async () => {
    // The gateway goes away and a result is kept in the outbox: it cannot be delivered now.
    await stopService(stack.gateway.child);
    const outbox = join(agent.dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    writeFileSync(join(outbox, '6f1c2b1e-0000-4000-8000-00000000abcd-0.json'), JSON.stringify({ job_id: '6f1c2b1e-0000-4000-8000-00000000abcd-0' }));
    await page.locator('.finish button', { hasText: 'Shut down' }).click();
    await page.waitForSelector('.finish [role="alertdialog"]:has-text("Shut down this machine now?")');
    await shoot(page, 'finish-01-shutdown-confirm');
    await page.locator('.finish [role="alertdialog"] button', { hasText: 'Shut down' }).click();
    // The agent refused the first yes: a result is still waiting. The second question says so.
    const warning = page.locator('.finish [role="alertdialog"].warn');
    await warning.waitFor();
    expect(await warning.innerText()).toMatch(/1 result\(s\) are still waiting to be sent|1 result is not sent/);
    expect((await agentState(agent)).power).toMatchObject({ pending_results: 1 });
    expect((await agentState(agent)).power.last).toBeUndefined();
    await shoot(page, 'finish-02-shutdown-pending-warning');
    await warning.locator('button', { hasText: 'Shut down anyway' }).click();
    await page.waitForSelector('.finish .banner:has-text("Simulated machine: it would shut down now")');
    expect((await agentState(agent)).power.last).toBe('Simulated machine: it would shut down now (systemctl poweroff --no-block); nothing was run.');
    await shoot(page, 'finish-03-simulated-shutdown');
  });
});

const CSS = readFileSync(new URL('../../src/renderer/styles.css', import.meta.url), 'utf8');

/** The erase screen for one agent state, rendered by the kiosk's own components and stylesheet. */
function page(snap: KioskAgentState, progress: readonly DriveProgress[]): string {
  let data = goTo(receiveSnapshot(receiveConnection(initialData, { status: 'live' }), snap), 'erase');
  for (const p of progress) data = receiveProgress(data, p);
  const store = createKioskStore({ api: fakeAgent().api, schedule: manualTimers().schedule, notesDebounceMs: 1 }, data);
  const html = renderToString(createElement(KioskStoreContext.Provider, { value: store }, createElement(App))).replaceAll('<!-- -->', '');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body><div id="root">${html}</div></body></html>`;
}

describe('kiosk: a firmware erase that cannot be stopped', { timeout: 120_000 }, () => {
  it('says so instead of offering a Cancel, beside an overwrite that can be cancelled', async () => {
    const browser = await launchKioskBrowser();
    try {
      const plan = { ok: true as const, method: 'nvme-sanitize-crypto', label: 'NIST 800-88 R2 Purge', category: 'Purge' as const, technique: 'Cryptographic erase', fully_sanitized: true, warnings: [] };
      const nvme: AgentDrive = { device: '/dev/nvme0n1', model: 'Samsung SSD 980 PRO 1TB', serial: 'S5GX', size_bytes: 1e12, media_type: 'SSD', transport: 'nvme', internal: true, plan };
      const hdd: AgentDrive = { ...nvme, device: '/dev/sda', model: 'WDC WD10EZEX', transport: 'sata', media_type: 'HDD', plan: { ...plan, method: 'overwrite', label: 'NIST 800-88 R2 Clear', category: 'Clear', technique: 'Overwrite' } };
      const note = 'The drive is erasing itself (firmware erase): this cannot be stopped once started. It finishes on its own.';
      const snap = stateFixture({ drives: [nvme, hdd], selected: [nvme.device, hdd.device], run: { status: 'running', phase: 'erase', cancel: { [nvme.device]: { can_cancel: false, note }, [hdd.device]: { can_cancel: true } } }, can: { ...stateFixture().can, cancel_all: true } });
      await browser.page.setContent(page(snap, [
        { device: nvme.device, stage: 'firmware', pass: 0, bytes_done: 0, bytes_total: 1e12, elapsed_seconds: 12, eta_seconds: 30 },
        { device: hdd.device, stage: 'write', pass: 1, passes: 1, bytes_done: 2e11, bytes_total: 1e12, percent: 20, bytes_per_second: 160e6, elapsed_seconds: 1250, eta_seconds: 10000 },
      ]));
      await shoot(browser.page, 'cancel-06-firmware-cannot-stop');
      const firmwareRow = browser.page.locator(`.progress-item[data-device="${nvme.device}"]`);
      expect(await firmwareRow.locator('.cancel-btn').count()).toBe(0);
      expect(await firmwareRow.innerText()).toContain(note);
      expect(await browser.page.locator(`.progress-item[data-device="${hdd.device}"] .cancel-btn`).count()).toBe(1);
    } finally {
      await browser.close();
    }
  });
});
