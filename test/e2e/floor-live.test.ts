import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureValid, startReceiver } from '../../cloud/test/webhook-helpers.js';
import { launchChromium } from '../support/chromium.js';

const REPO = new URL('../..', import.meta.url).pathname;
const SCRIPT = join(REPO, 'scripts/start-stack.js');
const AGENT_BIN = join(REPO, 'engine-agent/bin/erasure-agent.js');
const SCREENS = join(REPO, 'test-results/screens');

/** Starts `node <args>` and resolves once `pattern` shows in its output, with the match and the child. */
function spawnUntil(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp, timeoutMs: number): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not come up: ${seen.slice(-4000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => seen });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${seen.slice(-4000)}`)));
  });
}

const stopChild = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * Issue 32 end to end on `npm start`: the stack's simulated station and a simulated machine on the
 * same gateway report to the floor page, which a signed-in admin watches in Chromium. The machine's
 * drives are erased from its real kiosk page and one is cancelled there; a station drive is paused
 * through the simulated backplane (`sim pause`), which stalls it; the gateway is stopped (SIGSTOP:
 * its port still takes connections and answers nothing, as a hung host does) and started again.
 */
describe('the floor page against npm start', { timeout: 420_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'erasure-floor-live-'));
  const stationData = join(dataDir, 'station');
  let stack: ChildProcess;
  let machine: ChildProcess;
  let cloudUrl = '';
  let machineUrl = '';
  let stationUrl = '';
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let floor: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const sim = (...args: string[]) => execFileSync(process.execPath, [AGENT_BIN, 'sim', ...args], { env: { ...process.env, DATA_DIR: stationData }, encoding: 'utf8' });
  type Station = { phase: string; wizard?: { proposal?: { lane: string } }; bays: Array<{ lane: string; label: string; state: string }> };
  const stationState = async () => ((await (await fetch(`${stationUrl}/api/state`)).json()) as { station: Station }).station;
  const stationIntent = async (body: unknown) => {
    const res = await fetch(`${stationUrl}/api/intents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const shoot = async (page: Page, name: string) => {
    mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
  };
  /** A JSON call of the web app as the signed-in page makes it (session cookie and CSRF token). */
  const appCall = (method: string, path: string, body?: unknown) =>
    floor.evaluate(
      async ([m, p, b]) => {
        const me = (await (await fetch('/app/api/me')).json()) as { csrf_token: string };
        const res = await fetch(p as string, { method: m as string, headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token }, ...(b === undefined ? {} : { body: JSON.stringify(b) }) });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> };
      },
      [method, path, body] as const,
    );
  const floorDrive = (serial: string) => floor.locator(`.floor-drive[data-serial="${serial}"]`);
  const percentOn = async (serial: string) => Number((await floorDrive(serial).locator('[role="progressbar"]').getAttribute('aria-valuenow')) ?? 'NaN');

  beforeAll(async () => {
    receiver = await startReceiver();

    // 2 MB/s: a 64 MiB drive writes for half a minute, long enough to watch it move and cancel it.
    const env = { ...process.env, DATA_DIR: dataDir, CLOUD_PORT: '0', GATEWAY_PORT: '0', SANDBOX_PORT: '0', AGENT_PORT: '0', KIOSK_OPEN: '0', ERASURE_SIMULATE_MBPS: '2' };
    const up = await spawnUntil([SCRIPT, '--station'], env, /Erasure stack is up\.[\s\S]*Press Ctrl\+C to stop\./, 240_000);
    stack = up.child;
    const text = up.output();
    cloudUrl = /^\s+cloud\s+(http:\/\/\S+)/m.exec(text)![1]!;
    const gatewayUrl = /^\s+gateway\s+(http:\/\/\S+)/m.exec(text)![1]!;
    stationUrl = /^\s+kiosk\s+(http:\/\/\S+)/m.exec(text)![1]!;
    // The station's first boot maps its chassis (bays 1 and 2), with the site it stands at.
    await until(async () => (await stationState()).phase === 'wizard', 'the mapping wizard opening');
    for (const bay of [1, 2]) {
      expect(sim('insert', String(bay), '--size', '1M')).toMatch(new RegExp(`^bay ${bay}: `));
      await until(async () => (await stationState()).wizard?.proposal !== undefined, `the wizard seeing bay ${bay}`);
      await stationIntent({ type: 'station_wizard', step: { action: 'accept' } });
    }
    await stationIntent({ type: 'station_wizard', step: { action: 'finish' } });
    await stationIntent({ type: 'station_wizard', step: { action: 'name', name: 'Simulated backplane', site: 'Leeds, floor 2' } });
    await stationIntent({ type: 'station_wizard', step: { action: 'save' } });
    await until(async () => (await stationState()).phase === 'bays', 'the bay view opening');
    // The simulated machine beside the station: `npm start` without --station, on the stack's engine token.
    const agent = await spawnUntil(
      [AGENT_BIN, 'serve'],
      { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(dataDir, 'machine'), ERASURE_GATEWAY_URL: gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: join(dataDir, 'device-token'), ERASURE_SIMULATE: '1', ERASURE_SIMULATE_MBPS: '2' },
      /listening on (http:\/\/[^\s"]+)/,
      120_000,
    );
    machine = agent.child;
    machineUrl = agent.match[1]!;

    browser = await launchChromium({ viewport: { width: 1440, height: 900 } });
    floor = browser.page;
    await floor.goto(`${cloudUrl}/login`);
    await floor.fill('input[name="email"]', 'admin@demo.local');
    await floor.fill('input[name="password"]', 'demo-password');
    await Promise.all([floor.waitForURL(/\/wipes/), floor.click('button[type="submit"]')]);
    await floor.goto(`${cloudUrl}/floor`);
    await floor.waitForSelector('[data-screen="floor"]');
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await stopChild(machine);
    await stopChild(stack);
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('shows the simulated machine’s drive moving, and the drive leaves the running drives once cancelled at the kiosk', async () => {
    const kiosk = await browser.context.newPage();
    await kiosk.goto(machineUrl);
    await kiosk.waitForSelector('[data-screen="machine"]', { timeout: 120_000 });
    await kiosk.locator('nav.steps button', { hasText: 'Drives' }).click();
    await kiosk.waitForSelector('.drive');
    const all = kiosk.locator('button', { hasText: 'Select all 2' });
    if ((await all.count()) > 0) await all.click();
    await kiosk.locator('.next-step button', { hasText: 'Next: Erase' }).click();
    await kiosk.locator('#confirm-text').fill('ERASE 2 DRIVES');
    await kiosk.locator('#confirm-text').press('Enter');
    await kiosk.waitForSelector('[data-screen="erase"]');

    // The 64 MiB drive (SIM0000000001) on the floor page, its bar moving.
    await expect.poll(() => floorDrive('SIM0000000001').getAttribute('data-running'), { timeout: 60_000 }).toBe('yes');
    const first = await percentOn('SIM0000000001');
    await expect.poll(() => percentOn('SIM0000000001'), { timeout: 60_000 }).toBeGreaterThan(first);
    await shoot(floor, 'floor-live-01-machine-erasing');

    // Cancelled at the kiosk: on the floor page it stops running and says so, never "running".
    const drives = ((await (await fetch(`${machineUrl}/api/state`)).json()) as { drives: Array<{ device: string; serial: string }> }).drives;
    const row = kiosk.locator(`.progress-item[data-device="${drives.find((d) => d.serial === 'SIM0000000001')?.device}"]`);
    await row.locator('.cancel-btn').click({ timeout: 60_000 });
    await row.locator('button', { hasText: 'Stop this drive' }).click();
    await expect.poll(() => floorDrive('SIM0000000001').getAttribute('data-running'), { timeout: 60_000 }).toBe('no');
    await expect.poll(() => floorDrive('SIM0000000001').locator('.floor-drive-stage').textContent(), { timeout: 60_000 }).toMatch(/^Cancelled/);
    await shoot(floor, 'floor-live-02-machine-drive-cancelled');
    await kiosk.close();
  });

  it('raises a stall for a paused station drive, on the page and as one signed drive_stalled webhook', async () => {
    expect((await appCall('PUT', '/app/api/floor/settings', { stall_minutes: 1 })).status).toBe(200);
    const hook = await appCall('POST', '/app/api/webhooks', { url: receiver.url, event_type: 'drive_stalled' });
    expect(hook.status).toBe(201);
    const secret = String(hook.json.signing_secret);

    // The drive seated while mapping is pulled; a bigger one seated now starts at once (auto-start).
    expect(sim('pull', '2')).toMatch(/^bay 2: drive pulled/);
    expect(sim('insert', '2', '--size', '32M')).toMatch(/^bay 2: SIMULATED SATA/);
    const serial = String((JSON.parse(sim('list', '--json')) as { seated: Array<{ bay: number; serial: string }> }).seated.find((d) => d.bay === 2)?.serial);
    // The station stands where its chassis map says, the machine where its token does (none).
    await expect.poll(() => floor.locator('.floor-site[aria-label="Leeds, floor 2"] .floor-machine').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => floorDrive(serial).getAttribute('data-running'), { timeout: 90_000 }).toBe('yes');
    await expect.poll(() => percentOn(serial), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(sim('pause', '2')).toMatch(/^bay 2: drive paused/);

    const alert = floor.locator('.floor-problem', { hasText: 'has made no progress since' });
    await alert.waitFor({ timeout: 180_000 });
    // The drive's own row says so too, instead of its last rate and a time left that no longer holds.
    await expect.poll(() => floorDrive(serial).locator('.floor-drive-rate').innerText()).toMatch(/^No progress since \d{2}:\d{2}$/);
    // And the station's own line: no finish time while one of its drives stands still.
    const station = floor.locator('.floor-site[aria-label="Leeds, floor 2"] .floor-machine-head .muted');
    await expect.poll(() => station.innerText()).toMatch(/^A drive has made no progress since \d{2}:\d{2}$/);
    await shoot(floor, 'floor-live-03-station-drive-stalled');
    const stalledHooks = () => receiver.requests.filter((d) => d.headers['x-erase-engine-event'] === 'drive_stalled');
    await expect.poll(() => stalledHooks().length, { timeout: 60_000 }).toBe(1);
    const stalled = stalledHooks()[0]!;
    expect(signatureValid(secret, stalled)).toBe(true);
    expect(stalled.json).toMatchObject({ event_type: 'drive_stalled' });
    expect(stalled.body).toContain(serial);

    // Resumed, it moves again and is erased; the alert goes.
    expect(sim('resume', '2')).toMatch(/^bay 2: drive resumed/);
    await expect.poll(() => alert.count(), { timeout: 90_000 }).toBe(0);
    await expect.poll(() => floorDrive(serial).locator('.floor-drive-stage').textContent(), { timeout: 120_000 }).toMatch(/^Erased/);
  });

  it('shows "lost contact" for both while the gateway is stopped, and live again once it is started', async () => {
    const gatewayPid = Number(execFileSync('pgrep', ['-P', String(stack.pid), '-f', 'erasure-gateway'], { encoding: 'utf8' }).trim().split('\n')[0]);
    expect(gatewayPid).toBeGreaterThan(0);
    process.kill(gatewayPid, 'SIGSTOP');
    try {
      await expect.poll(() => floor.locator('.floor-machine.lost').count(), { timeout: 180_000 }).toBe(2);
      expect(await floor.locator('.floor-problem', { hasText: 'lost contact (last heard' }).count()).toBe(2);
      await shoot(floor, 'floor-live-04-gateway-stopped-lost-contact');
    } finally {
      process.kill(gatewayPid, 'SIGCONT');
    }
    await expect.poll(() => floor.locator('.floor-machine.lost').count(), { timeout: 120_000 }).toBe(0);
    expect(await floor.locator('.floor-machine').count()).toBe(2);
    await shoot(floor, 'floor-live-05-gateway-back');
  });
});
