import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentState } from '@erasure/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack } from '../../test/support/stack.js';
import { personalizeIso } from '../src/personalize.js';
import { BASE_ISO, freePort, RIG_BOOT_ARGS, SCREENS_DIR, vmIdentity, workDir } from '../vm-test/harness.js';
import { Vm, vmSkipReason } from '../vm-test/qemu.js';

const MiB = 1024 * 1024;
const MINUTES = Number(process.env.SOAK_MINUTES ?? '60');
const CHECK_EVERY_MS = Number(process.env.SOAK_CHECK_EVERY_MINUTES ?? '5') * 60_000;
const ISO = process.env.SOAK_ISO ?? BASE_ISO;
const OUT = join(SCREENS_DIR, 'soak');
const CODE = randomBytes(12).toString('hex');
/** Each bay's drive is throttled like a real disk: a 32 MiB drive writes and verifies for 16 s or more. */
const BAY_RATE = 4 * MiB;
const SLOTS = [0, 1, 2, 3];

/** One check of the station: its own screen, and memory. */
interface Check {
  minute: number;
  drawn: boolean;
  screen: string;
  /** The screens the guest's page said it draws (its data-screen names). */
  views: string;
  reloads: number | string;
  renderer_mib: number | undefined;
  agent_mib: number | undefined;
  erases: number;
}

async function api(url: string, path: string, body?: unknown): Promise<unknown> {
  try {
    const res = await fetch(new URL(path, url), {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${CODE}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}
const stateOf = async (url: string) => (await api(url, '/api/state')) as AgentState | undefined;

/** Waits on what the guest reports; the only bound is the VM still running. */
async function until<T>(vm: Vm, label: string, what: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const v = await what();
    if (v) return v;
    const dead = vm.dead();
    if (dead) throw new Error(`${dead} while waiting for ${label}\n${vm.serial().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const mib = (bytes: number | undefined) => (bytes === undefined ? undefined : Math.round((bytes / MiB) * 10) / 10);

describe.skipIf(Boolean(vmSkipReason(ISO)))(`soak: a hotswap station kept busy with hot-plugs for ${MINUTES} min (QEMU)`, () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  let vm: Vm | undefined;

  afterAll(async () => {
    vm?.stop();
    if (vm) copyFileSync(vm.serialLog, join(OUT, 'soak-serial.log'));
    await stack?.stop();
    work.cleanup();
  });

  it('keeps the bay view drawn on the machine’s own screen, and says what the renderer’s memory did', async () => {
    mkdirSync(OUT, { recursive: true });
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Soak Refurb');
    const token = await stack.cli('admin', 'mint-device-token', '--account', String(account.id), '--product', 'hotswap', '--quota', '100000');
    const journal = process.env.SOAK_JOURNAL_TO_CONSOLE ? ' systemd.journald.forward_to_console=1' : '';
    const iso = join(work.dir, 'soak.iso');
    await personalizeIso(ISO, iso, { deviceToken: String(token.token), gatewayUrl: 'http://10.0.2.100:8787', bootArgs: `erasure.agent_listen=any erasure.agent_secret=${CODE} erasure.station_policy=auto${journal} ${RIG_BOOT_ARGS}`.trim() });
    const dataDisk = join(work.dir, 'erasure-data.img');
    writeFileSync(dataDisk, '');
    truncateSync(dataDisk, 16 * MiB);
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfs.ext4', ['-q', '-F', '-L', 'ERASURE-DATA', dataDisk]);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    vm = new Vm({ name: 'soak', workDir: work.dir, firmware: 'bios', smbios: vmIdentity('QEMU-SOAK-01'), gatewayPort: Number(new URL(stack.gateway.url).port), agentHostPort: port, drives: [{ kind: 'cdrom', file: iso, boot: true }, { kind: 'sata', file: dataDisk, serial: 'ERASURE-DATA-01' }] });
    const v = vm;
    await v.boot({ timeoutMs: 40 * 60_000 });
    const started = Date.now();
    const log = (line: string) => console.log(`[soak ${((Date.now() - started) / 60_000).toFixed(1)} min] ${line}`);
    await until(v, 'the station agent', async () => (await stateOf(url))?.station?.phase === 'wizard');
    log('station up, mapping four bays');

    // The wizard over the API, as the hotswap test does it on the screen: a drive in each slot in turn.
    const probe = join(work.dir, 'probe.img');
    truncateSync((writeFileSync(probe, ''), probe), 8 * MiB);
    await api(url, '/api/intents', { type: 'station_wizard', step: { action: 'grid', rows: 2, columns: 2 } });
    for (const slot of SLOTS) {
      await v.hotplug(slot, probe, `SOAK-PROBE-${slot}`);
      await until(v, `a proposal for slot ${slot}`, async () => (await stateOf(url))?.station?.wizard?.proposal);
      await api(url, '/api/intents', { type: 'station_wizard', step: { action: 'accept' } });
      await until(v, `bay ${slot + 1} accepted`, async () => (await stateOf(url))?.station?.wizard?.bays.length === slot + 1);
      await v.unplug(slot);
    }
    await api(url, '/api/intents', { type: 'station_wizard', step: { action: 'finish' } });
    await api(url, '/api/intents', { type: 'station_wizard', step: { action: 'name', name: 'Soak backplane' } });
    await api(url, '/api/intents', { type: 'station_wizard', step: { action: 'save' } });
    await until(v, 'the bay view', async () => (await stateOf(url))?.station?.phase === 'bays');
    log('bay view up; hot-plugging');

    const drives = SLOTS.map((slot) => join(work.dir, `bay${slot}.img`));
    for (const f of drives) truncateSync((writeFileSync(f, ''), f), 32 * MiB);
    const checks: Check[] = [];
    const soakStart = Date.now();
    let erases = 0;
    let plugs = 0;
    let nextCheck = soakStart;
    const check = async () => {
      const minute = Math.round((Date.now() - soakStart) / 60_000);
      const drawn = await v.screendumpWhenDrawn(join(OUT, `screen-${String(minute).padStart(3, '0')}min.png`), 60_000);
      const s = (await stateOf(url))?.screen;
      // Drawn means both: pixels on the machine's own display, and the page itself saying it draws the bay view.
      const views = s?.views ?? [];
      const row: Check = { minute, drawn: drawn && s?.status === 'showing' && views.includes('bay-view'), views: views.join(' ') || '-', screen: s?.status ?? '-', reloads: s?.reloads ?? '-', renderer_mib: mib(s?.renderer_rss_bytes), agent_mib: mib(s?.agent_rss_bytes), erases };
      checks.push(row);
      log(`check: ${JSON.stringify(row)}${s?.last_reload ? ` last reload: ${s.last_reload.reason} at ${s.last_reload.at}` : ''}`);
    };
    while (Date.now() - soakStart < MINUTES * 60_000) {
      if (Date.now() >= nextCheck) {
        await check();
        nextCheck += CHECK_EVERY_MS;
      }
      // One round: a drive in every bay, each erased and verified, then all pulled.
      plugs++;
      await Promise.all(SLOTS.map((slot) => v.hotplug(slot, drives[slot] as string, `SOAK-${plugs}-${slot}`, { bytesPerSecond: BAY_RATE })));
      const bays = await until(v, `round ${plugs} finished`, async () => {
        const b = (await stateOf(url))?.station?.bays;
        return b && b.length === SLOTS.length && b.every((x) => x.state === 'passed' || x.state === 'failed') ? b : undefined;
      });
      erases += bays.filter((b) => b.state === 'passed').length;
      const failed = bays.filter((b) => b.state === 'failed');
      if (failed.length > 0) log(`round ${plugs}: failed ${failed.map((b) => `${b.label} (${b.reason ?? '?'})`).join(', ')}`);
      for (const slot of SLOTS) await v.unplug(slot);
      await until(v, `round ${plugs} pulled`, async () => (await stateOf(url))?.station?.bays.every((x) => x.state === 'empty' || x.state === 'pulled'));
    }
    await check();

    const withMemory = checks.filter((c) => c.renderer_mib !== undefined);
    const summary = {
      minutes: MINUTES,
      iso: ISO,
      rounds: plugs,
      erases_passed: erases,
      checks: checks.length,
      drawn_checks: checks.filter((c) => c.drawn).length,
      renderer_mib_first: withMemory[0]?.renderer_mib,
      renderer_mib_last: withMemory.at(-1)?.renderer_mib,
      agent_mib_first: withMemory[0]?.agent_mib,
      agent_mib_last: withMemory.at(-1)?.agent_mib,
      reloads: checks.at(-1)?.reloads,
      last_reload: (await stateOf(url))?.screen?.last_reload,
      table: checks,
    };
    writeFileSync(join(OUT, 'soak-station.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.table(checks);
    console.log(`soak figures: ${JSON.stringify({ ...summary, table: undefined })}`);
    // A soak reports figures; it fails only when the screen was not drawn at a check.
    expect(summary.drawn_checks).toBe(summary.checks);
  });
});
