import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/support/chromium.js';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, freePort, pairBrowser, pairingCodeOf, personalizedIso, SCREENS_DIR, SLOW, vmIdentity, workDir } from './harness.js';
import { survivingBlocks, writePattern } from './pattern.js';
import { Vm, vmSkipReason } from './qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);

/** Polls the in-VM agent through the host forward until it answers its state. */
async function waitForAgent(url: string, code: string, vm: Vm, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(new URL('/api/state', url), { headers: { authorization: `Bearer ${code}` }, signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
      // The remote kiosk answers for itself: anything but 502 (the agent not up yet) is a refusal to report.
      if (res.status !== 502) throw new Error(`the remote kiosk refused the pairing code from the console: ${res.status} ${await res.text()}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('the remote kiosk refused')) throw error;
      // not up yet
    }
    if (vm.exitCode !== null) throw new Error(`QEMU exited (${vm.exitCode}) before the agent answered\n${vm.serial().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`the agent did not answer on ${url} within ${timeoutMs / 1000} s\n${vm.serial().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

/** Boots a kiosk-mode image whose remote kiosk the host reaches at the returned URL with the pairing code from its console. */
async function bootKiosk(opts: { name: string; firmware: 'uefi' | 'bios'; token: string; dir: string; gatewayPort: number; drives: Array<{ kind: 'nvme' | 'sata'; serial: string; file: string }>; suspendOnce?: boolean }): Promise<{ vm: Vm; url: string; code: string }> {
  // erasure.unfreeze=always: the agent suspends once at start-up though no virtual drive can be frozen.
  const iso = await personalizedIso(opts.dir, opts.name, opts.token, `erasure.agent_listen=any${opts.suspendOnce ? ' erasure.unfreeze=always' : ''}`);
  const agentHostPort = await freePort();
  const vm = new Vm({
    name: opts.name,
    workDir: opts.dir,
    firmware: opts.firmware,
    smbios: vmIdentity(`QEMU-${opts.name.toUpperCase()}-01`),
    gatewayPort: opts.gatewayPort,
    agentHostPort,
    drives: [{ kind: 'cdrom', file: iso, boot: true }, ...opts.drives],
    ...(opts.suspendOnce ? { s3: true } : {}),
  });
  // The machine's own screen while GRUB offers its menu (BIOS or UEFI alike).
  await vm.boot({ timeoutMs: 20 * 60_000 * (SLOW / 4 + 0.25), grubScreen: join(SCREENS_DIR, `${opts.name}-vm-grub.png`) });
  const url = `http://127.0.0.1:${agentHostPort}/`;
  const code = await pairingCodeOf(vm, 20 * 60_000 * (SLOW / 4 + 0.25));
  await waitForAgent(url, code, vm, 20 * 60_000 * (SLOW / 4 + 0.25));
  // Without the code the remote kiosk answers nothing of the agent, though this call's Host is a loopback name.
  const unpaired = await fetch(new URL('/api/state', url), { signal: AbortSignal.timeout(30_000) });
  if (unpaired.status !== 401) throw new Error(`the remote kiosk answered an unpaired call with ${unpaired.status}`);
  // The machine's own screen as the agent comes up (the kiosk window follows it).
  await vm.screendump(join(SCREENS_DIR, `${opts.name}-vm-boot.png`));
  return { vm, url, code };
}

/**
 * The VM's own screen once the guest says the kiosk is drawn on it: its shell reports the page
 * drawing the screen `shows` wants (AgentState.screen.views); then QMP screendumps until
 * the frame has something drawn. Waits on what the guest reports, never on a fixed time.
 */
async function screenOfVm(vm: Vm, url: string, code: string, name: string, shows: (views: string[]) => boolean): Promise<void> {
  const deadline = Date.now() + 10 * 60_000 * SLOW;
  for (;;) {
    const state = await fetch(new URL('/api/state', url), { headers: { authorization: `Bearer ${code}` }, signal: AbortSignal.timeout(5_000) })
      .then((r) => (r.ok ? (r.json() as Promise<{ screen?: { status?: string; views?: string[] } }>) : undefined))
      .catch(() => undefined);
    if (state?.screen?.status === 'showing' && shows(state.screen.views ?? [])) break;
    const dead = vm.dead();
    if (dead) throw new Error(`${dead} while waiting for the kiosk on the machine's own screen\n${vm.serial().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`the guest's kiosk shell never reported its page showing (${name}); screen: ${JSON.stringify(state?.screen)}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  expect(await vm.screendumpWhenDrawn(join(SCREENS_DIR, `${name}.png`), 5 * 60_000), `${name}: the kiosk drawn on the machine's own screen`).toBe(true);
}

/** The kiosk past its connecting and locked screens: one of the technician's steps. */
const unlocked = (views: string[]) => views.length > 0 && !views.includes('connecting') && !views.includes('locked');

describe.skipIf(Boolean(skip))('kiosk run of the boot image in QEMU (OVMF, optical drive)', () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>>;
  let vm: Vm;
  let url = '';
  let code = '';
  let accountId = '';
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const drives = [
    { kind: 'nvme' as const, serial: 'NVME-KI-01', file: join(work.dir, 'nvme.img') },
    { kind: 'sata' as const, serial: 'SATA-KI-01', file: join(work.dir, 'sata.img') },
  ];
  const originals = new Map<string, Set<string>>();

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Kiosk VM Refurb');
    accountId = String(account.id);
    const token = await stack.cli('admin', 'mint-device-token', '--account', accountId, '--quota', '10');
    for (const d of drives) originals.set(d.serial, writePattern(d.file, d.serial, d.kind === 'nvme' ? 16 * MiB : 32 * MiB));
    // The host's browser starts while the guest boots (it waits on nothing the guest does).
    const launching = launchChromium({ viewport: { width: 1280, height: 800 } });
    try {
      ({ vm, url, code } = await bootKiosk({ name: 'kiosk', firmware: 'uefi', token: String(token.token), dir: work.dir, gatewayPort: Number(new URL(stack.gateway.url).port), drives, suspendOnce: true }));
    } finally {
      browser = await launching;
    }
    page = browser.page;
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    vm?.stop();
    if (vm) copyFileSync(vm.serialLog, join(SCREENS_DIR, 'kiosk-serial.log'));
    await stack?.stop();
    work.cleanup();
  });

  it('sleeps once at start-up (freeze lock removal) and wakes by its RTC alarm, and the agent carries on', async () => {
    await vm.waitForEvent('SUSPEND', () => true, 5 * 60_000 * SLOW);
    await vm.waitForEvent('WAKEUP', () => true, 5 * 60_000 * SLOW);
    // rtcwake returned 0 in the guest: the agent says the machine slept and woke by itself.
    // Through the remote kiosk, so with the pairing code read off the console.
    await expect.poll(async () => ((await (await fetch(new URL('/api/state', url), { headers: { authorization: `Bearer ${code}` } })).json()) as { unfreeze?: { this_boot?: string } }).unfreeze?.this_boot, { timeout: 5 * 60_000 * SLOW, interval: 2_000 }).toMatch(/slept and woke by itself/);
  });

  it('unlocks when the cloud allows the baked-in token, on the VM screen and through the forwarded port', async () => {
    await pairBrowser(page, url, code);
    await page.goto(url);
    await page.waitForSelector('.unlocked-badge', { timeout: 5 * 60_000 });
    await expect(page.locator('.unlocked-badge').textContent()).resolves.toMatch(/Unlocked · Kiosk VM Refurb/);
    await page.screenshot({ path: join(SCREENS_DIR, 'kiosk-unlocked-playwright.png') });
    // Chromium in the VM draws the same kiosk on the machine's own display.
    await screenOfVm(vm, url, code, 'kiosk-vm-unlocked', unlocked);
  });

  it('erases both drives from the kiosk flow and shows their certificate numbers', async () => {
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('.drive');
    // The boxes show the agent's selection: each turns checked once the agent took the click.
    for (const box of await page.locator('.drive input[type="checkbox"]').all()) {
      await box.click();
      await expect.poll(() => box.isChecked(), { timeout: 60_000 }).toBe(true);
    }
    // "Next: Erase →" leads to the typed confirmation.
    await page.locator('.next-step button', { hasText: 'Next: Erase' }).click();
    const phrase = (await page.locator('.confirm kbd').textContent()) ?? '';
    expect(phrase).toBe('ERASE 2 DRIVES');
    await page.locator('#confirm-text').fill(phrase);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-screen="erase"]');
    const lines = page.locator('.result .certificate');
    await expect.poll(() => lines.allTextContents(), { timeout: 15 * 60_000, interval: 1_000 }).toEqual([expect.stringMatching(/^Certificate CW-\d{6}/), expect.stringMatching(/^Certificate CW-\d{6}/)]);
    await page.screenshot({ path: join(SCREENS_DIR, 'kiosk-results-playwright.png') });
    const certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as Array<{ drive_serial: string; certificate_number: string }>;
    expect(certificates.map((c) => c.drive_serial).sort()).toEqual(['NVME-KI-01', 'SATA-KI-01']);
    const shown = (await lines.allTextContents()).map((t) => /CW-\d{6}/.exec(t)?.[0]).sort();
    expect(shown).toEqual(certificates.map((c) => c.certificate_number).sort());
    await screenOfVm(vm, url, code, 'kiosk-vm-after-erase', unlocked);
  });

  it('leaves no block of the original pattern on either drive', () => {
    for (const d of drives) expect({ drive: d.serial, survivors: survivingBlocks(d.file, originals.get(d.serial) ?? new Set()) }).toEqual({ drive: d.serial, survivors: 0 });
  });
});

describe.skipIf(Boolean(skip))('a revoked token boots the image to the locked screen (SeaBIOS)', () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>>;
  let vm: Vm;
  let url = '';
  let code = '';
  const drive = { kind: 'sata' as const, serial: 'SATA-RV-01', file: join(work.dir, 'sata.img') };
  let original = new Set<string>();
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Revoked Refurb');
    const token = await stack.cli('admin', 'mint-device-token', '--account', String(account.id), '--quota', '10');
    await stack.cli('admin', 'set-token-status', '--jti', String(token.jti), '--status', 'revoked');
    original = writePattern(drive.file, drive.serial, 16 * MiB);
    // The host's browser starts while the guest boots (it waits on nothing the guest does).
    const launching = launchChromium({ viewport: { width: 1280, height: 800 } });
    try {
      ({ vm, url, code } = await bootKiosk({ name: 'revoked', firmware: 'bios', token: String(token.token), dir: work.dir, gatewayPort: Number(new URL(stack.gateway.url).port), drives: [drive] }));
    } finally {
      browser = await launching;
    }
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    vm?.stop();
    if (vm) copyFileSync(vm.serialLog, join(SCREENS_DIR, 'revoked-serial.log'));
    await stack?.stop();
    work.cleanup();
  });

  it('shows the locked screen with the revocation, and erases nothing', async () => {
    const page = browser!.page;
    await pairBrowser(page, url, code);
    await page.goto(url);
    await page.waitForSelector('[data-screen="locked"]', { timeout: 5 * 60_000 });
    await expect(page.locator('.reason').textContent()).resolves.toMatch(/licence has been revoked/);
    // The guest has no route to any time server (restrict=on), so its clock never synchronized: the screen says so.
    await expect(page.locator('[data-testid="clock-unsynced"]').textContent()).resolves.toMatch(/clock could not be synchronized/);
    expect(await page.locator('nav.steps, .drive, .confirm').count()).toBe(0);
    await page.screenshot({ path: join(SCREENS_DIR, 'revoked-locked-playwright.png') });
    await screenOfVm(vm, url, code, 'revoked-vm-locked', (views) => views.includes('locked'));
    expect(survivingBlocks(drive.file, original)).toBe((16 * MiB) / 4096);
    const db = (await import('better-sqlite3')).default(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM wipe_results').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
