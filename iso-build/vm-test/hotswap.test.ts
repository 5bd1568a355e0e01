import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { stationBayOf, type AgentState, type FloorBoard, type FloorBoardDrive, type StationBayView } from '@erasure/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/support/chromium.js';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, freePort, pairBrowser, personalizedIso, SCREENS_DIR, SLOW, vmIdentity, workDir } from './harness.js';
import { survivingBlocks, writePattern } from './pattern.js';
import { Vm, vmSkipReason } from './qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);

/**
 * Each bay's drive reads and writes at most this fast (a QMP throttle, like a real disk's speed):
 * a 32 MiB drive then overwrites for 8 s or more and verifies for as long whatever the
 * accelerator, so the erases of two drives seated together overlap, and a drive pulled once its
 * erase has started is pulled mid-erase, without drives big enough to slow the whole run.
 */
const BAY_RATE = 4 * MiB;
/** The two bays of the pull-out test: slow enough that both are surely at work at once. */
const PULL_RATE = MiB / 2;

/** The remote kiosk's pairing code, given on the command line (erasure.agent_secret) so it outlives the reboot. */
const PAIRING_CODE = randomBytes(12).toString('hex');

/** The agent's state through the host forward; undefined while it does not answer. */
async function stateOf(url: string): Promise<AgentState | undefined> {
  try {
    const res = await fetch(new URL('/api/state', url), { headers: { authorization: `Bearer ${PAIRING_CODE}` }, signal: AbortSignal.timeout(5_000) });
    return res.ok ? ((await res.json()) as AgentState) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Waits on what the guest reports, never on a fixed duration (issue 34): as long as QEMU runs,
 * a slow guest (TCG on a machine busy with other VMs) is waited for; vitest's test timeout is the
 * only outer bound. Fails at once, with the console's tail, when QEMU exits.
 */
/** The guest's kiosk shell says its page is drawn and draws `view` (one of the page's data-screen names). */
const showingView = (state: AgentState | undefined, view: string): boolean => state?.screen?.status === 'showing' && (state.screen.views ?? []).includes(view);

async function until<T>(what: () => Promise<T | undefined | false>, label: string, vm: Vm): Promise<T> {
  for (;;) {
    const v = await what();
    if (v) return v;
    const dead = vm.dead();
    if (dead) throw new Error(`${dead} while waiting for ${label}\n${vm.serial().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every bay's state at one moment (host clock, ms). */
interface BaySample {
  readonly t: number;
  readonly states: ReadonlyMap<string, StationBayView['state']>;
}

/** Samples the bay states about every 250 ms until stopped. */
function sampleBays(url: string): { stop(): Promise<BaySample[]> } {
  const samples: BaySample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const bays = (await stateOf(url))?.station?.bays;
      if (bays) samples.push({ t: performance.now(), states: new Map(bays.map((b) => [b.label, b.state])) });
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * When a bay was first and last seen erasing. The observed interval lies inside the real one
 * (first seen after it began, last seen before it ended), so two observed intervals that
 * overlap are two erases that really ran at the same time.
 */
function erasingInterval(samples: readonly BaySample[], label: string): { from: number; to: number } | undefined {
  const seen = samples.filter((s) => s.states.get(label) === 'erasing').map((s) => s.t);
  const from = seen[0];
  const to = seen.at(-1);
  return from !== undefined && to !== undefined ? { from, to } : undefined;
}

/** What the cloud's floor board said of one drive at one moment (host clock, ms). */
interface FloorSample {
  readonly t: number;
  readonly drive: FloorBoardDrive | undefined;
  readonly station: string | undefined;
}

/**
 * Samples the cloud's floor board (the JSON the /floor page is drawn from, read with the signed-in
 * page's session) about every 250 ms until stopped, for the drive of `serial`.
 */
function sampleFloor(floor: Page, cloudUrl: string, serial: string): { stop(): Promise<FloorSample[]> } {
  const samples: FloorSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const res = await floor.request.get(`${cloudUrl}/app/api/floor`).catch(() => undefined);
      if (res?.ok()) {
        const board = (await res.json()) as FloorBoard;
        const machine = board.machines.find((m) => m.drives.some((d) => d.serial === serial));
        samples.push({ t: performance.now(), drive: machine?.drives.find((d) => d.serial === serial), station: machine?.kind });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

const FLOOR_PASSWORD = 'floor supervisor passphrase';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * A hotswap station booted from the image: a `hotswap` token, a virtio-scsi controller whose
 * targets 0-3 stand for four bays, and drives pushed in and pulled out over QMP while the kiosk
 * is driven with Playwright through a host-forwarded port. The cloud runs on the host. A small
 * SATA disk labelled ERASURE-DATA is the station's data volume: the image mounts it as the
 * agent's DATA_DIR, so the settings saved before the reboot are there after it.
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
  const figures = { checkedInMs: [] as number[], firstByteMs: [] as number[], erasingOverlapMs: 0 };
  /** The cloud's /floor page, signed in as the account's staff, and what its board said of Bay 1's drive. */
  let floor: Page;
  let floorSamples: FloorSample[] = [];
  const dataDisk = join(work.dir, 'erasure-data.img');

  async function boot(name: string): Promise<void> {
    // The data volume sits on the AHCI controller, away from the bays' virtio-scsi targets.
    const disks = [{ kind: 'cdrom', file: iso, boot: true }, { kind: 'sata', file: dataDisk, serial: 'ERASURE-DATA-01' }] as const;
    vm = new Vm({ name, workDir: work.dir, firmware: 'bios', smbios: identity, gatewayPort: Number(new URL(stack.gateway.url).port), agentHostPort, drives: disks });
    await vm.boot({ timeoutMs: 20 * 60_000 * (SLOW / 4 + 0.25) });
    url = `http://127.0.0.1:${agentHostPort}/`;
    await until(async () => (await stateOf(url))?.station, 'the station agent', vm);
  }

  /** Seats a drive and times it to checked in and to its first byte erased (figures, never asserted). */
  async function seatAndTime(slot: number, file: string, serial: string, label: string, bytesPerSecond = BAY_RATE): Promise<void> {
    const t0 = performance.now();
    await vm.hotplug(slot, file, serial, { bytesPerSecond });
    const bay = async () => (await stateOf(url))?.station?.bays.find((b) => b.label === label);
    const checkedIn = (b: StationBayView | undefined) => b && ['erasing', 'verifying', 'passed'].includes(b.state);
    await until(async () => checkedIn(await bay()), `${label} checked in`, vm);
    figures.checkedInMs.push(performance.now() - t0);
    await until(async () => {
      const b = await bay();
      return b && ((b.state === 'erasing' && (b.progress?.percent ?? 0) > 0) || b.state === 'verifying' || b.state === 'passed');
    }, `${label} erasing`, vm);
    figures.firstByteMs.push(performance.now() - t0);
  }

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Hotswap VM Refurb');
    accountId = String(account.id);
    const token = await stack.cli('admin', 'mint-device-token', '--account', accountId, '--product', 'hotswap', '--quota', '20');
    // The boot option starts the station on auto; the policy saved in the kiosk must outrank it after the reboot.
    iso = await personalizedIso(work.dir, 'hotswap', String(token.token), `erasure.agent_listen=any erasure.agent_secret=${PAIRING_CODE} erasure.station_policy=auto`);
    writeFileSync(dataDisk, '');
    truncateSync(dataDisk, 16 * MiB);
    execFileSync('mkfs.ext4', ['-q', '-F', '-L', 'ERASURE-DATA', dataDisk]);
    agentHostPort = await freePort();
    // The host's browser starts while the guest boots (it waits on nothing the guest does).
    const launching = launchChromium({ viewport: { width: 1280, height: 800 } });
    try {
      await boot('hotswap');
    } finally {
      browser = await launching;
    }
    page = browser.page;
    // The page is served by the guest: it answers as fast as the guest runs. Every wait below
    // follows what the guest reported, so none has a fixed duration (vitest's timeout is the bound).
    page.setDefaultTimeout(0);
    page.setDefaultNavigationTimeout(0);
    // Paired once: the cookie holds across the reboot, as the code comes from the command line.
    await pairBrowser(page, url, PAIRING_CODE);
    // The floor supervisor's page on the cloud (another origin than the kiosk's, so its own session).
    await stack.cli('admin', 'create-user', '--account', accountId, '--email', 'floor@hotswap.test', '--password', FLOOR_PASSWORD, '--role', 'staff');
    floor = await browser.context.newPage();
    await floor.goto(`${stack.cloud.url}/login`);
    await floor.fill('input[name="email"]', 'floor@hotswap.test');
    await floor.fill('input[name="password"]', FLOOR_PASSWORD);
    await Promise.all([floor.waitForURL(/\/wipes/), floor.click('button[type="submit"]')]);
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
    await page.waitForSelector('[data-screen="station-wizard"]');
    await page.fill('#grid-rows', '2');
    await page.fill('#grid-columns', '2');
    await page.getByRole('button', { name: 'Set grid' }).click();
    await until(async () => JSON.stringify((await stateOf(url))?.station?.wizard?.grid) === JSON.stringify({ rows: 2, columns: 2 }), 'the grid set', vm);
    const probe = join(work.dir, 'probe.img');
    writePattern(probe, 'probe', 8 * MiB);
    for (let slot = 0; slot < 4; slot++) {
      await vm.hotplug(slot, probe, `PROBE-${slot}`);
      await until(async () => (await stateOf(url))?.station?.wizard?.proposal?.label === `Bay ${slot + 1}`, `the proposal of Bay ${slot + 1}`, vm);
      await until(async () => (await page.locator('#bay-label').inputValue().catch(() => '')) === `Bay ${slot + 1}`, `Bay ${slot + 1} proposed on the page`, vm);
      if (slot === 0) {
        await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-wizard-proposal-playwright.png') });
        // The wizard on the machine's own display, once the guest's kiosk shell reports its page drawing it.
        await until(async () => showingView(await stateOf(url), 'station-wizard'), 'the wizard shown on the machine’s own screen', vm);
        expect(await vm.screendumpWhenDrawn(join(SCREENS_DIR, 'hotswap-vm-wizard.png'), 4 * 60_000), 'the wizard drawn on the machine’s own screen').toBe(true);
      }
      if (slot === 3) await page.fill('#bay-label', 'Bottom right');
      await page.click('#accept-bay');
      await until(async () => (await stateOf(url))?.station?.wizard?.bays.length === slot + 1, `Bay ${slot + 1} accepted`, vm);
      await vm.unplug(slot);
    }
    // The data volume was seated all along: never offered to the wizard.
    expect((await stateOf(url))?.station?.wizard?.preexisting).toEqual([]);
    await page.click('#finish-mapping');
    await page.fill('#map-name', 'QEMU backplane');
    await until(async () => (await stateOf(url))?.station?.wizard?.name === 'QEMU backplane', 'the map named', vm);
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-wizard-naming-playwright.png') });
    await page.click('#save-map');
    await page.waitForSelector('[data-screen="bay-view"]');
    const db = (await import('better-sqlite3')).default(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const row = db.prepare('SELECT name, bays FROM chassis_maps').get() as { name: string; bays: string };
      expect(row.name).toBe('QEMU backplane');
      expect((JSON.parse(row.bays) as Array<{ label: string; lane: string }>).map((b) => b.label)).toEqual(['Bay 1', 'Bay 2', 'Bay 3', 'Bottom right']);
    } finally {
      db.close();
    }
  });

  it('keeps the erase policy saved in settings on the ERASURE-DATA volume across a reboot, finds the map and opens the bay view', async () => {
    expect(vm.serial()).toMatch(/ERASURE-DATA volume \/dev\/\S+ mounted at \/var\/lib\/erasure/);
    expect((await stateOf(url))?.station?.policy).toBe('auto');
    await setPolicyInSettings('confirm');
    await vm.stopAndWait();
    copyFileSync(vm.serialLog, join(SCREENS_DIR, `${vm.opts.name}-serial.log`));
    await boot('hotswap-reboot');
    await until(async () => (await stateOf(url))?.station?.phase === 'bays', 'the bay view', vm);
    await page.goto(url);
    await page.waitForSelector('[data-screen="bay-view"]');
    const state = await stateOf(url);
    expect(state?.station?.map).toEqual({ name: 'QEMU backplane', grid: { rows: 2, columns: 2 } });
    expect(state?.station?.bays.map((b) => [b.label, b.state])).toEqual([
      ['Bay 1', 'empty'],
      ['Bay 2', 'empty'],
      ['Bay 3', 'empty'],
      ['Bottom right', 'empty'],
    ]);
    // The saved setting outranks the boot option (auto); the data volume is not listed as a drive.
    expect(state?.station?.policy).toBe('confirm');
    expect(state?.station?.unmapped).toEqual([]);
    // Back to auto-start for the erases below.
    await setPolicyInSettings('auto');
  });

  /** Switches the erase policy on the kiosk's settings screen; resolves once the agent accepted (and saved) it, back on the bay view. */
  async function setPolicyInSettings(policy: 'auto' | 'confirm'): Promise<void> {
    await page.locator('nav.steps button', { hasText: 'Station settings' }).click();
    const accepted = page.waitForResponse((r) => r.url().endsWith('/api/intents') && (r.request().postData() ?? '').includes('station_policy'));
    await page.click(`[data-policy="${policy}"]`);
    expect((await accepted).ok()).toBe(true);
    expect((await stateOf(url))?.station?.policy).toBe(policy);
    await page.locator('nav.steps button', { hasText: /Station$/ }).click();
    await page.waitForSelector('[data-screen="bay-view"]');
  }

  // At BAY_RATE: Bays 1 and 2 erase for 8 s or more each. Bay 3 and Bottom right are seated at
  // PULL_RATE: Bay 3 then erases for 64 s, Bottom right for 128 s, so the two are at work together
  // however far apart their check-ins come under a loaded emulator. Bottom right's cap is lifted
  // once Bay 3 is pulled.
  const drives = [
    { slot: 0, label: 'Bay 1', serial: 'HS-BAY1-01', bytes: 32 * MiB },
    { slot: 1, label: 'Bay 2', serial: 'HS-BAY2-01', bytes: 32 * MiB },
    { slot: 2, label: 'Bay 3', serial: 'HS-BAY3-01', bytes: 32 * MiB },
    { slot: 3, label: 'Bottom right', serial: 'HS-BAY4-01', bytes: 64 * MiB },
  ].map((d) => ({ ...d, file: join(work.dir, `${d.serial}.img`) }));
  const originals = new Map<string, Set<string>>();

  it('erases two hot-plugged drives at the same time, verifies them and certifies each with its bay label', async () => {
    for (const d of drives) originals.set(d.serial, writePattern(d.file, d.serial, d.bytes));
    const sampler = sampleBays(url);
    const floorSampler = sampleFloor(floor, stack.cloud.url, 'HS-BAY1-01');
    await Promise.all(drives.slice(0, 2).map((d) => seatAndTime(d.slot, d.file, d.serial, d.label)));
    const bays = async () => (await stateOf(url))?.station?.bays ?? [];
    await until(async () => (await bays()).filter((b) => b.state === 'passed' && b.certificate_number).length === 2, 'two certified bays', vm);
    // The board ends the drive once its wipe result is stored: sampled until it shows it.
    await until(async () => (await floor.request.get(`${stack.cloud.url}/app/api/floor`)).json().then((b: FloorBoard) => b.machines.some((m) => m.drives.some((d) => d.serial === 'HS-BAY1-01' && d.result?.certificate_number))), 'Bay 1 certified on the floor board', vm);
    floorSamples = await floorSampler.stop();
    // Concurrently, not one after the other: the two bays' erasing intervals overlap.
    const samples = await sampler.stop();
    const one = erasingInterval(samples, 'Bay 1');
    const two = erasingInterval(samples, 'Bay 2');
    if (!one || !two) throw new Error(`Bay 1 and Bay 2 were not both seen erasing in ${samples.length} samples`);
    figures.erasingOverlapMs = Math.round(Math.min(one.to, two.to) - Math.max(one.from, two.from));
    expect(figures.erasingOverlapMs).toBeGreaterThan(0);
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

  it("the cloud's floor page follows a hot-plugged drive from its insertion to its certificate", async () => {
    const seen = floorSamples.filter((x) => x.drive);
    expect(seen.length, 'Bay 1 on the floor board').toBeGreaterThan(0);
    expect(seen[0]!.station).toBe('station');
    // At work first (an erase stage, its bay named), never shown done before it was; then its result.
    const working = seen.filter((x) => !x.drive!.result && !['waiting', 'erased', 'failed', 'cancelled'].includes(x.drive!.stage));
    expect(working.length, 'Bay 1 seen at work on the board').toBeGreaterThan(0);
    expect(working[0]!.drive!.bay).toBe('Bay 1');
    const done = seen.findIndex((x) => x.drive!.result);
    expect(done).toBeGreaterThan(seen.indexOf(working[0]!));
    expect(seen.slice(done).every((x) => x.drive!.result?.status === 'completed')).toBe(true);
    const certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as Array<{ drive_serial: string; certificate_number: string }>;
    const number = certificates.find((c) => c.drive_serial === 'HS-BAY1-01')?.certificate_number;
    expect(seen.at(-1)!.drive!.result?.certificate_number).toBe(number);
    // The page itself shows the station's drive with its result.
    await floor.goto(`${stack.cloud.url}/floor`);
    await floor.getByText('HS-BAY1-01').first().waitFor();
    await floor.screenshot({ path: join(SCREENS_DIR, 'hotswap-floor-page.png'), fullPage: true });
  });

  it('reports a drive pulled mid-erase failed with "removed during erase" while another bay erasing beside it carries on and passes, and erases it when re-plugged', async () => {
    const third = drives[2]!;
    const fourth = drives[3]!;
    const bay = async (label: string) => (await stateOf(url))?.station?.bays.find((b) => b.label === label);
    // Seated together; Bay 3 is pulled once it has written its first bytes and Bottom right is at
    // work too, never waiting for Bottom right's own first bytes (Bay 3 could be done by then).
    const seated = [seatAndTime(third.slot, third.file, third.serial, third.label, PULL_RATE), seatAndTime(fourth.slot, fourth.file, fourth.serial, fourth.label, PULL_RATE)];
    await seated[0];
    await until(async () => /^(erasing|verifying)$/.test((await bay('Bottom right'))?.state ?? ''), 'Bottom right at work', vm);
    expect((await bay('Bay 3'))?.state).toBe('erasing');
    await vm.unplug(third.slot);
    await seated[1];
    const pulled = await until(async () => {
      const b = await bay('Bay 3');
      return b?.state === 'pulled' ? b : undefined;
    }, 'Bay 3 pulled', vm);
    expect(pulled.reason).toBe('removed during erase');
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-bay-view-pulled-playwright.png') });
    const states = (await stateOf(url))?.station?.bays.map((b) => [b.label, b.state]);
    expect(states).toEqual([
      ['Bay 1', 'passed'],
      ['Bay 2', 'passed'],
      ['Bay 3', 'pulled'],
      ['Bottom right', expect.stringMatching(/^(erasing|verifying)$/)],
    ]);
    // Its slowness was needed only until here (both bays at work when Bay 3 was pulled): lifted,
    // Bottom right carries on at the emulator's speed instead of 128 s more of erase and as long verifying.
    await vm.throttle(fourth.slot, 0);
    // The other bay carries on to its certificate.
    await until(async () => {
      const b = await bay('Bottom right');
      return b?.state === 'passed' && Boolean(b.certificate_number);
    }, 'Bottom right certified', vm);
    const db = (await import('better-sqlite3')).default(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const failed = await until(async () => db.prepare("SELECT wipe_status, verification_result FROM wipe_results WHERE drive_serial = 'HS-BAY3-01'").get() as { wipe_status: string; verification_result: string } | undefined, 'the failed wipe result', vm);
      expect(failed).toMatchObject({ wipe_status: 'failed', verification_result: expect.stringMatching(/removed during erase/) });
      expect(db.prepare("SELECT wipe_status FROM wipe_results WHERE drive_serial = 'HS-BAY4-01'").all()).toEqual([{ wipe_status: 'completed' }]);
    } finally {
      db.close();
    }
    await seatAndTime(third.slot, third.file, third.serial, 'Bay 3');
    await until(async () => {
      const b = await bay('Bay 3');
      return b?.state === 'passed' && Boolean(b.certificate_number);
    }, 'Bay 3 certified', vm);
    await page.screenshot({ path: join(SCREENS_DIR, 'hotswap-bay-view-replugged-playwright.png') });
    // The guest's kiosk shell says its page shows (after any reload it needed, which the state would count).
    await until(async () => showingView(await stateOf(url), 'bay-view'), 'the bay view shown on the machine’s own screen', vm);
    expect(await vm.screendumpWhenDrawn(join(SCREENS_DIR, 'hotswap-vm-bay-view.png'), 5 * 60_000), 'the bay view drawn on the machine’s own screen').toBe(true);
  });

  it('leaves no block of the original pattern on any drive that passed', () => {
    for (const d of drives) expect({ drive: d.serial, survivors: survivingBlocks(d.file, originals.get(d.serial) ?? new Set()) }).toEqual({ drive: d.serial, survivors: 0 });
    const summary = {
      accelerator: SLOW === 1 ? 'kvm' : 'tcg',
      insertion_to_checked_in_median_ms: Math.round(median(figures.checkedInMs)),
      insertion_to_first_byte_erased_median_ms: Math.round(median(figures.firstByteMs)),
      bays_1_and_2_erasing_overlap_ms: figures.erasingOverlapMs,
      samples: figures,
    };
    writeFileSync(join(SCREENS_DIR, 'hotswap-figures.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`hotswap figures (${summary.accelerator}): insertion → checked in median ${summary.insertion_to_checked_in_median_ms} ms, insertion → first byte erased median ${summary.insertion_to_first_byte_erased_median_ms} ms over ${figures.checkedInMs.length} insertions`);
  });
});
