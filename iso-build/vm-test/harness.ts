import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { personalizeIso } from '../src/personalize.js';
import type { Page } from 'playwright-core';
import { accelerator, type Vm } from './qemu.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BASE_ISO = join(REPO, 'iso-build', 'out', `erasure-0.1.0-amd64.iso`);
/** Screens of the VM (QMP screendump) and of the kiosk (Playwright), kept for a person to look at. */
export const SCREENS_DIR = join(REPO, 'test-results', 'iso');

/** Under TCG everything in the guest is several times slower; timeouts scale, assertions do not. */
export const SLOW = accelerator() === 'kvm' ? 1 : 4;

export function workDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-vm-'));
  mkdirSync(SCREENS_DIR, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A free loopback port for a host forward. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Kernel options of the test rig itself. Under TCG on a busy host the kernel's boot-time check of
 * the IO-APIC timer can miss its ticks and panic ("IO-APIC + timer doesn't work!", seen here with
 * one other VM running): `no_timer_check` skips that check, as cloud images do for virtual machines.
 */
export const RIG_BOOT_ARGS = accelerator() === 'tcg' ? 'no_timer_check' : '';

/** The base image personalized for this test: a fresh token, the gateway as the guest reaches it, and boot options. */
export async function personalizedIso(dir: string, name: string, token: string, bootArgs: string): Promise<string> {
  const out = join(dir, `${name}.iso`);
  const tokenFile = join(dir, `${name}.token`);
  writeFileSync(tokenFile, token);
  await personalizeIso(BASE_ISO, out, { deviceToken: token, gatewayUrl: 'http://10.0.2.100:8787', bootArgs: `${bootArgs} ${RIG_BOOT_ARGS}`.trim() });
  return out;
}

/** A USB stick written with the image, as a technician would with dd: the same bytes, writable. */
export function stickFrom(iso: string, dir: string): string {
  const stick = join(dir, 'stick.img');
  copyFileSync(iso, stick);
  return stick;
}

export const vmIdentity = (serial: string) => ({ manufacturer: 'Erasure QA', product: 'QEMU Test Bench', serial, uuid: randomUUID() });

/** The remote kiosk's pairing code, as the guest printed it on its console at boot (erasure.agent_listen without a secret). */
export async function pairingCodeOf(vm: Vm, timeoutMs: number): Promise<string> {
  const pattern = /remote kiosk pairing code: ([A-Z2-9]{4}(?:-[A-Z2-9]{4}){4})/;
  return pattern.exec(await vm.waitForSerial(pattern, timeoutMs))?.[1] ?? '';
}

/** Pairs the browser with the guest's remote kiosk as a person would: the code typed on /pair, then the kiosk. */
export async function pairBrowser(page: Page, url: string, code: string): Promise<void> {
  await page.goto(new URL('/pair', url).href);
  await page.fill('#pairing-code', code);
  await Promise.all([page.waitForURL(new URL('/', url).href), page.click('button[type="submit"]')]);
}
