import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { stationBayOf, type AgentState, type StationBayView } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/support/chromium.js';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, freePort, personalizedIso, SCREENS_DIR, SLOW, vmIdentity, workDir } from './harness.js';
import { survivingBlocks, writePattern } from './pattern.js';
import { Vm, vmSkipReason } from './qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);

/** The agent's state through the host forward; undefined while it does not answer. */
async function stateOf(url: string): Promise<AgentState | undefined> {
  try {
    const res = await fetch(new URL('/api/state', url), { signal: AbortSignal.timeout(5_000) });
    return res.ok ? ((await res.json()) as AgentState) : undefined;
  } catch {
    return undefined;
  }
}

async function until<T>(what: () => Promise<T | undefined | false>, timeoutMs: number, label: string, vm?: Vm): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (vm && vm.exitCode !== null) throw new Error(`QEMU exited (${vm.exitCode}) while waiting for ${label}\n${vm.serial().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}${vm ? `\n${vm.serial().slice(-3000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * A hotswap station booted from the image: a `hotswap` token, a virtio-scsi controller whose
 * targets 0-3 stand for four bays, and drives pushed in and pulled out over QMP while the kiosk
 * is driven with Playwright through a host-forwarded port. The cloud runs on the host.
 */
describe.skipIf(Boolean(skip))('a hotswap station booted from the image in QEMU (virtio-scsi bays, QMP hot-plug)', () => {
  const work = workDir();
  const identity = vmIdentity('QEMU-HOTSWAP-01');
  let stack: Awaited<ReturnType<typeof startStack>>;
  let iso = '';
  let agentHostPort = 0;
  let vm: Vm;
  let url = '';
  let accountId = '';
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const figures = { checkedInMs: [] as number[], firstByteMs: [] as number[] };

  async function boot(name: string): Promise<void> {
    vm = new Vm({ name, workDir: work.dir, firmware: 'bios', smbios: identity, gatewayPort: Number(new URL(stack.gateway.url).port), agentHostPort, drives: [{ kind: 'cdrom', file: iso, boot: true }] });
    vm.start();
    url = `http://127.0.0.1:${agentHostPort}/`;
    await until(async () => (await stateOf(url))?.station, 20 * 60_000 * (SLOW / 4 + 0.25), 'the station agent', vm);
  }

  /** Seats a drive and times it to checked in and to its first byte erased (figures, never asserted). */
  async function seatAndTime(slot: number, file: string, serial: string, label: string): Promise<void> {
    const t0 = performance.now();
    await vm.hotplug(slot, file, serial);
    const bay = async () => (await stateOf(url))?.station?.bays.find((b) => b.label === label);
    const checkedIn = (b: StationBayView | undefined) => b && ['erasing', 'verifying', 'passed'].includes(b.state);
    await until(async () => checkedIn(await bay()), 10 * 60_000, `${label} checked in`, vm);
    figures.checkedInMs.push(performance.now() - t0);
    await until(async () => {
      const b = await bay();
      return b && ((b.state === 'erasing' && (b.progress?.percent ?? 0) > 0) || b.state === 'verifying' || b.state === 'passed');
    }, 10 * 60_000, `${label} erasing`, vm);
    figures.firstByteMs.push(performance.now() - t0);
  }

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Hotswap VM Refurb');
    accountId = String(account.id);
    const token = await stack.cli('admin', 'mint-device-token', '--account', accountId, '--product', 'hotswap', '--quota', '20');
    iso = await personalizedIso(work.dir, 'hotswap', String(token.token), 'erasure.agent_listen=any');
    agentHostPort = await freePort();
    await boot('hotswap');
    browser = await launchChromium({ viewport: { width: 1280, height: 800 } });
    page = browser.page;
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    vm?.stop();
    if (vm) copyFileSync(vm.serialLog, join(SCREENS_DIR, `${vm.opts.name}-serial.log`));
    await stack?.stop();
    work.cleanup();
  });

  it('maps four bays with the wizard: a drive hot-plugged into each slot in turn, labelled, the grid set, the map named and saved', async () => {
    await page.goto(url);
    await page.waitForSelector('[data-screen="station-wizard"]', { timeout: 5 * 60_000 });
    await page.fill('#grid-rows', '2');
    await page.fill('#grid-columns', '2');
    await page.getByRole('button', { name: 'Set grid' }).click();
    await expect.poll(async () => (await stateOf(url))?.station?.wizard?.grid, { timeout: 30_000 }).toEqual({ rows: 2, columns: 2 });
    const probe = join(work.dir, 'probe.img');
    writePattern(probe, 'probe', 8 * MiB);
    for (let slot = 0; slot < 4; slot++) {
      await vm.hotplug(slot, probe, `PROBE-${slot}`);
      await expect.poll(() => page.locator('#bay-label').inputValue().catch(() => ''), { timeout: 5 * 60_000 }).toBe(`Bay ${slot + 1}`);
      if (slot === 0) {
        await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-wizard-proposal-playwright.png') });
        // The wizard on the machine's own display, once its Chromium has drawn.
        await vm.screendumpWhenDrawn(join(SCREENS_DIR, 'hotswap-vm-wizard.png'), 4 * 60_000);
      }
      if (slot === 3) await page.fill('#bay-label', 'Bottom right');
      await page.click('#accept-bay');
      await expect.poll(async () => (await stateOf(url))?.station?.wizard?.bays.length, { timeout: 60_000 }).toBe(slot + 1);
      await vm.unplug(slot);
    }
    await page.click('#finish-mapping');
    await page.fill('#map-name', 'QEMU backplane');
    await expect.poll(async () => (await stateOf(url))?.station?.wizard?.name, { timeout: 30_000 }).toBe('QEMU backplane');
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-wizard-naming-playwright.png') });
    await page.click('#save-map');
    await page.waitForSelector('[data-screen="bay-view"]', { timeout: 60_000 });
    const db = (await import('better-sqlite3')).default(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const row = db.prepare('SELECT name, bays FROM chassis_maps').get() as { name: string; bays: string };
      expect(row.name).toBe('QEMU backplane');
      expect((JSON.parse(row.bays) as Array<{ label: string; lane: string }>).map((b) => b.label)).toEqual(['Bay 1', 'Bay 2', 'Bay 3', 'Bottom right']);
    } finally {
      db.close();
    }
  });

  it('finds the map after a reboot and opens the bay view', async () => {
    vm.stop();
    copyFileSync(vm.serialLog, join(SCREENS_DIR, `${vm.opts.name}-serial.log`));
    await boot('hotswap-reboot');
    await until(async () => (await stateOf(url))?.station?.phase === 'bays', 5 * 60_000, 'the bay view', vm);
    await page.goto(url);
    await page.waitForSelector('[data-screen="bay-view"]', { timeout: 5 * 60_000 });
    const state = await stateOf(url);
    expect(state?.station?.map).toEqual({ name: 'QEMU backplane', grid: { rows: 2, columns: 2 } });
    expect(state?.station?.bays.map((b) => [b.label, b.state])).toEqual([
      ['Bay 1', 'empty'],
      ['Bay 2', 'empty'],
      ['Bay 3', 'empty'],
      ['Bottom right', 'empty'],
    ]);
  });

  const drives = [
    { slot: 0, label: 'Bay 1', serial: 'HS-BAY1-01', bytes: 16 * MiB },
    { slot: 1, label: 'Bay 2', serial: 'HS-BAY2-01', bytes: 16 * MiB },
    { slot: 2, label: 'Bay 3', serial: 'HS-BAY3-01', bytes: 64 * MiB },
  ].map((d) => ({ ...d, file: join(work.dir, `${d.serial}.img`) }));
  const originals = new Map<string, Set<string>>();

  it('erases two hot-plugged drives at once, verifies them and certifies each with its bay label', async () => {
    for (const d of drives) originals.set(d.serial, writePattern(d.file, d.serial, d.bytes));
    await Promise.all(drives.slice(0, 2).map((d) => seatAndTime(d.slot, d.file, d.serial, d.label)));
    const bays = async () => (await stateOf(url))?.station?.bays ?? [];
    await until(async () => (await bays()).filter((b) => b.state === 'passed' && b.certificate_number).length === 2, 15 * 60_000, 'two certified bays', vm);
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-bay-view-passed-playwright.png') });
    const certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as Array<{ drive_serial: string; certificate_number: string }>;
    expect(certificates.map((c) => c.drive_serial).sort()).toEqual(['HS-BAY1-01', 'HS-BAY2-01']);
    const shown = (await bays()).filter((b) => b.certificate_number).map((b) => b.certificate_number).sort();
    expect(shown).toEqual(certificates.map((c) => c.certificate_number).sort());
    const db = (await import('better-sqlite3')).default(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const rows = db.prepare("SELECT drive_serial, tool_components FROM wipe_results WHERE wipe_status = 'completed' ORDER BY drive_serial").all() as Array<{ drive_serial: string; tool_components: string }>;
      expect(rows.map((r) => [r.drive_serial, stationBayOf(r.tool_components)])).toEqual([
        ['HS-BAY1-01', { bay: 'Bay 1', chassis: 'QEMU backplane' }],
        ['HS-BAY2-01', { bay: 'Bay 2', chassis: 'QEMU backplane' }],
      ]);
    } finally {
      db.close();
    }
  });

  it('reports a drive pulled mid-erase failed with "removed during erase" while the others pass, and erases it when re-plugged', async () => {
    const third = drives[2]!;
    await vm.hotplug(third.slot, third.file, third.serial);
    const bay3 = async () => (await stateOf(url))?.station?.bays.find((b) => b.label === 'Bay 3');
    await until(async () => {
      const b = await bay3();
      return b?.state === 'erasing' && (b.progress?.percent ?? 0) > 0;
    }, 10 * 60_000, 'Bay 3 erasing', vm);
    await vm.unplug(third.slot);
    const pulled = await until(async () => {
      const b = await bay3();
      return b?.state === 'pulled' ? b : undefined;
    }, 5 * 60_000, 'Bay 3 pulled', vm);
    expect(pulled.reason).toBe('removed during erase');
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-bay-view-pulled-playwright.png') });
    const states = (await stateOf(url))?.station?.bays.map((b) => [b.label, b.state]);
    expect(states).toEqual([
      ['Bay 1', 'passed'],
      ['Bay 2', 'passed'],
      ['Bay 3', 'pulled'],
      ['Bottom right', 'empty'],
    ]);
    const db = (await import('better-sqlite3')).default(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const failed = await until(async () => db.prepare("SELECT wipe_status, verification_result FROM wipe_results WHERE drive_serial = 'HS-BAY3-01'").get() as { wipe_status: string; verification_result: string } | undefined, 5 * 60_000, 'the failed wipe result');
      expect(failed).toMatchObject({ wipe_status: 'failed', verification_result: expect.stringMatching(/removed during erase/) });
    } finally {
      db.close();
    }
    await seatAndTime(third.slot, third.file, third.serial, 'Bay 3');
    await until(async () => {
      const b = await bay3();
      return b?.state === 'passed' && Boolean(b.certificate_number);
    }, 15 * 60_000, 'Bay 3 certified', vm);
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-bay-view-replugged-playwright.png') });
    await vm.screendumpWhenDrawn(join(SCREENS_DIR, 'hotswap-vm-bay-view.png'), 5 * 60_000);
  });

  it('leaves no block of the original pattern on any drive that passed', () => {
    for (const d of drives) expect({ drive: d.serial, survivors: survivingBlocks(d.file, originals.get(d.serial) ?? new Set()) }).toEqual({ drive: d.serial, survivors: 0 });
    const summary = {
      accelerator: SLOW === 1 ? 'kvm' : 'tcg',
      insertion_to_checked_in_median_ms: Math.round(median(figures.checkedInMs)),
      insertion_to_first_byte_erased_median_ms: Math.round(median(figures.firstByteMs)),
      samples: figures,
    };
    writeFileSync(join(SCREENS_DIR, 'hotswap-figures.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`hotswap figures (${summary.accelerator}): insertion → checked in median ${summary.insertion_to_checked_in_median_ms} ms, insertion → first byte erased median ${summary.insertion_to_first_byte_erased_median_ms} ms over ${figures.checkedInMs.length} insertions`);
  });
});
