import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';
import { runErase, selectDrives, type AgentEnv } from '../../src/agent.js';
import { createRunner, type Runner } from '../../src/adapters/runner.js';
import { selectInserted, stationBayRunner } from '../../src/adapters/station-bay-runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { planErase } from '../../src/drives/plan-erase.js';
import { eraseDrive } from '../../src/erase/erase-drive.js';
import { readDriveIdentity } from '../../src/probes/drive-identity.js';
import { CANCELLED_BY_OPERATOR, REMOVED_DURING_ERASE, type BayEvent } from '../../src/station/bay-machine.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { FIXTURES_SKIP_NOTE, fixtureText, fixturesPresent } from '../support/fixtures.js';
import { detachLoop, loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { frozenLaptop } from '../support/frozen-laptop.js';
import { currentBootId, writeBootState } from '../../src/boot-prep/boot-state.js';

const MiB = 1024 * 1024;
const BOOT = { account: 'Station Refurb', recordId: 'CW-20261125-010000' };
const BAY = { bay: 'Bay 3', chassis: 'Front cage' };

let gateway: Awaited<ReturnType<typeof startFakeGateway>>;
let dir = '';
let env: AgentEnv;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bay-runner-'));
  gateway = await startFakeGateway({ hold: new Set(['/api/checkin']) });
  writeFileSync(join(dir, 'token'), 'eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl\n');
  env = {
    config: loadConfig({ DATA_DIR: join(dir, 'data'), ERASURE_GATEWAY_URL: gateway.url, ERASURE_DEVICE_TOKEN_FILE: join(dir, 'token') }),
    run: createRunner(),
    sys: nodeSystemView(),
    si: {} as AgentEnv['si'],
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    version: '0.1.0-test',
    limits: { ...DEFAULT_LIMITS, retryBaseMs: 5, retryCapMs: 10 },
  };
});
afterEach(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

// The erasure policy read before each bay's work (issue 29) sends and spends nothing: left out here.
const paths = () => gateway.calls.map((c) => c.path).filter((p) => p !== '/api/erasure_policy');
const until = async (check: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('a bay stopped before its check-in went out', () => {
  it('never checks in a drive pulled while the bay probes it: no quota spent, nothing reported', async () => {
    const abort = new AbortController();
    const events: BayEvent[] = [];
    const run = stationBayRunner(env, BOOT)({ device: '/dev/loop-not-seated', identity: { device: '/dev/loop-not-seated', devT: '7:99' }, bay: BAY, signal: abort.signal, emit: (e) => events.push(e) });
    abort.abort(REMOVED_DURING_ERASE); // the bay is selecting its drive (lsblk runs) when the pull-out lands
    gateway.release('/api/checkin');
    await run;
    expect(paths()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('refuses a device lsblk does not list: its node is gone (a pull not yet settled), nothing is planned for it', async () => {
    expect(await selectInserted(env, '/dev/loop-not-seated')).toEqual({ ok: false, reason: '/dev/loop-not-seated is not listed by lsblk (gone, or not a block device): not erased' });
  });

  it('says a drive gone before its bay could probe it was removed, and checks nothing in', async () => {
    const events: BayEvent[] = [];
    await stationBayRunner(env, BOOT)({ device: '/dev/loop-not-seated', identity: undefined, bay: BAY, signal: new AbortController().signal, emit: (e) => events.push(e) });
    expect(events).toEqual([{ type: 'removed' }]);
    expect(paths()).toEqual([]);
  });

  it('never sends the check-in of a session whose drive was withdrawn before it', async () => {
    const abort = new AbortController();
    abort.abort(CANCELLED_BY_OPERATOR);
    const capabilities = buildCapabilities({ device: '/dev/loop-not-seated' });
    const drives = [{ device: '/dev/loop-not-seated', internal: false, capabilities, plan: planErase(capabilities, { forceMethod: 'overwrite' }) }];
    const sut = await runErase(env, drives, {}, { ...BOOT, product: 'hotswap', bay: BAY, eraseSignal: abort.signal });
    expect(sut).toEqual({ phase: 'failed', reason: 'cancelled by the operator before check-in: nothing was sent', reports: [] });
    expect(paths()).toEqual([]);
  });
});

describe.skipIf(Boolean(loopSkipReason))('a bay stopped while its check-in is on the wire (loop device behind a bay node)', () => {
  const work = loopSkipReason ? '' : makeWorkDir('bay-runner-loop-');
  afterAll(() => work && removeDir(work));

  /** Seats a loop drive behind a device node of its own (a symlink the test can pull), starts its bay, waits for the check-in. */
  async function seatedBayCheckingIn(name: string) {
    const bytes = randomBytes(4 * MiB);
    const loop = loopWith(work, `${name}.img`, bytes);
    const node = join(work, name);
    symlinkSync(loop.device, node);
    const abort = new AbortController();
    const events: BayEvent[] = [];
    const identity = await readDriveIdentity(env.sys, node);
    const run = stationBayRunner(env, BOOT)({ device: node, identity, bay: BAY, signal: abort.signal, emit: (e) => events.push(e) });
    await until(() => paths().includes('/api/checkin'));
    const finish = async () => {
      gateway.release('/api/checkin');
      await run;
      const result = gateway.calls.find((c) => c.path === '/api/wipe_result')?.body;
      const untouched = readFileSync(loop.file).equals(bytes);
      loop.cleanup();
      return { result, untouched, events };
    };
    return { abort, pull: () => unlinkSync(node), swap: () => seatAnother(loop.device, name), finish };
  }

  // Issue 30 item 6: a bay's erased drive is graded with the account's table read with its policy,
  // and its self-test is tried where the account enables it (this machine has no smartctl).
  it('grades the erased drive with the account’s table from its policy, and tries the self-test the account enabled', async () => {
    await gateway.close();
    const health_grading = { rules: [{ metric: 'smart_unavailable', grade: 'C', at_least: 1 }], smart_self_test: true };
    gateway = await startFakeGateway({ hold: new Set(['/api/checkin']), erasurePolicy: [200, { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account', health_grading }] });
    env = { ...env, config: { ...env.config, ERASURE_GATEWAY_URL: gateway.url } };
    const bay = await seatedBayCheckingIn('graded');
    const { result, events } = await bay.finish();
    expect(events.at(-1)).toEqual({ type: 'erase_passed' });
    expect(result).toMatchObject({ wipe_status: 'completed', health: { grade: 'C', reasons: [expect.stringMatching(/\(rule: no SMART answer gives C\)$/)] } });
    expect((result as { health: { self_test?: unknown } }).health.self_test).toMatchObject({ outcome: 'not_supported' });
  });

  /**
   * The pull-out the station missed, and the kernel's next disk under the same name: the loop
   * device detached and attached again to another file (same dev_t, new diskseq), as sdb is
   * given to the next disk seated. Returns that disk's bytes and backing file.
   */
  function seatAnother(device: string, name: string): { file: string; bytes: Buffer } {
    const bytes = randomBytes(4 * MiB);
    const file = join(work, `${name}-next.img`);
    writeFileSync(file, bytes);
    detachLoop(device);
    execFileSync('losetup', ['--direct-io=on', device, file]);
    return { file, bytes };
  }

  it('never checks in a bay whose node names another disk by the check-in: said as a pull-out, nothing sent, nothing written', async () => {
    const bytes = randomBytes(4 * MiB);
    const loop = loopWith(work, 'renamed.img', bytes);
    const node = join(work, 'renamed');
    symlinkSync(loop.device, node);
    try {
      const identity = await readDriveIdentity(env.sys, node);
      expect(identity).toMatchObject({ device: node, devT: expect.stringMatching(/^7:\d+$/), diskseq: expect.stringMatching(/^\d+$/) });
      const next = seatAnother(loop.device, 'renamed');
      const events: BayEvent[] = [];
      await stationBayRunner(env, BOOT)({ device: node, identity, bay: BAY, signal: new AbortController().signal, emit: (e) => events.push(e) });
      expect(paths()).toEqual([]);
      expect(events).toEqual([{ type: 'removed' }]);
      expect(readFileSync(loop.file).equals(bytes)).toBe(true);
      expect(readFileSync(next.file).equals(next.bytes)).toBe(true);
    } finally {
      loop.cleanup();
    }
  });

  it('checks the device the overwrite opened before its first write: a disk swapped in after the last check is still caught', async () => {
    const bytes = randomBytes(4 * MiB);
    const loop = loopWith(work, 'opened.img', bytes);
    try {
      const identity = await readDriveIdentity(env.sys, loop.device);
      if (!identity) throw new Error('no identity for the loop device');
      const next = seatAnother(loop.device, 'opened');
      // The check before the erase reads sysfs as it was (the swap lands right after it); the one after the open does not.
      let stale = true;
      const sys = { ...env.sys, readText: async (p: string) => (p.endsWith('/diskseq') && stale ? ((stale = false), `${identity.diskseq}\n`) : env.sys.readText(p)) };
      const sut = await eraseDrive({ device: loop.device, method: 'overwrite', selected: [loop.device] }, { run: env.run, sleep: env.sleep, sys, now: env.now, boundTo: identity });
      expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'removed', commands: [], verification: expect.stringMatching(/^removed during erase: .* is another disk now/) });
      expect(stale).toBe(false);
      expect(readFileSync(next.file).equals(next.bytes)).toBe(true);
    } finally {
      loop.cleanup();
    }
  });

  it('writes nothing when the node names another disk by the time the check-in is answered: failed, "removed during erase"', async () => {
    const bay = await seatedBayCheckingIn('swapped');
    const next = bay.swap();
    const { result, untouched, events } = await bay.finish();
    expect(result).toMatchObject({ wipe_status: 'failed', validation: 'rejected', verification_result: expect.stringMatching(/^removed during erase: .* is another disk now \(diskseq \d+, was \d+\); nothing was written$/) });
    expect(events.at(-1)).toEqual({ type: 'removed' });
    expect(untouched).toBe(true);
    expect(readFileSync(next.file).equals(next.bytes)).toBe(true);
  });

  it('reports a drive pulled meanwhile as failed, "removed during erase", and writes nothing', async () => {
    const bay = await seatedBayCheckingIn('pulled');
    bay.pull();
    bay.abort.abort(REMOVED_DURING_ERASE);
    const { result, untouched } = await bay.finish();
    expect(result).toMatchObject({ job_id: '6f1c2b1e-0000-4000-8000-000000000001', wipe_status: 'failed', validation: 'rejected', verification_result: expect.stringMatching(/^removed during erase/) });
    expect(untouched).toBe(true);
  });

  it('reports a drive whose node is gone before udev settled the pull-out as removed, not refused', async () => {
    const bay = await seatedBayCheckingIn('vanished');
    bay.pull();
    const { result, untouched, events } = await bay.finish();
    expect(result).toMatchObject({ wipe_status: 'failed', verification_result: expect.stringMatching(/^removed during erase/) });
    expect(events.at(-1)).toEqual({ type: 'removed' });
    expect(untouched).toBe(true);
  });

  // Issue 32, lights-out: a drive seated while the erasure service is down waits, untouched, and
  // is checked in, erased and reported once the service answers.
  it('keeps a drive untouched while the erasure service does not answer, asks again, then checks it in once and erases it', async () => {
    await gateway.close();
    gateway = await startFakeGateway({ erasurePolicyFailures: 1, checkinFailures: 2 });
    env = { ...env, config: { ...env.config, ERASURE_GATEWAY_URL: gateway.url }, limits: { ...env.limits!, cloudWaitBaseMs: 20, cloudWaitCapMs: 40 } };
    const bytes = randomBytes(4 * MiB);
    const loop = loopWith(work, 'offline.img', bytes);
    try {
      const events: BayEvent[] = [];
      const identity = await readDriveIdentity(env.sys, loop.device);
      const untouchedWhileWaiting: boolean[] = [];
      await stationBayRunner(env, BOOT)({
        device: loop.device,
        identity,
        bay: BAY,
        signal: new AbortController().signal,
        emit: (e) => {
          if (e.type === 'cloud_unreachable') untouchedWhileWaiting.push(readFileSync(loop.file).equals(bytes));
          events.push(e);
        },
      });
      const waits = events.flatMap((e) => (e.type === 'cloud_unreachable' ? [e.wait] : []));
      expect(waits.map((w) => [w.attempts, w.reason])).toEqual([
        [1, 'cloud unavailable (503)'],
        [2, 'validation_unavailable'],
        [3, 'validation_unavailable'],
      ]);
      expect(new Set(waits.map((w) => w.since)).size).toBe(1);
      expect(untouchedWhileWaiting).toEqual([true, true, true]);
      // Three check-ins went out, the last one allowed; one wipe result, for the job it issued.
      expect(paths().filter((p) => p === '/api/checkin')).toHaveLength(3);
      expect(events.filter((e) => e.type === 'checkin_allowed')).toHaveLength(1);
      expect(events.at(-1)).toEqual({ type: 'erase_passed' });
      const results = gateway.calls.filter((c) => c.path === '/api/wipe_result');
      expect(results.map((c) => c.body)).toEqual([expect.objectContaining({ job_id: '6f1c2b1e-0000-4000-8000-000000000001', wipe_status: 'completed' })]);
      expect(readFileSync(loop.file).equals(bytes)).toBe(false);
    } finally {
      loop.cleanup();
    }
  });

  it('stops waiting for the erasure service when the operator cancels: no check-in allowed, nothing written, nothing reported', async () => {
    await gateway.close();
    gateway = await startFakeGateway({ checkinFailures: 1_000 });
    env = { ...env, config: { ...env.config, ERASURE_GATEWAY_URL: gateway.url }, limits: { ...env.limits!, cloudWaitBaseMs: 20, cloudWaitCapMs: 40 } };
    const bytes = randomBytes(4 * MiB);
    const loop = loopWith(work, 'offline-cancel.img', bytes);
    try {
      const abort = new AbortController();
      const events: BayEvent[] = [];
      const run = stationBayRunner(env, BOOT)({ device: loop.device, identity: await readDriveIdentity(env.sys, loop.device), bay: BAY, signal: abort.signal, emit: (e) => events.push(e) });
      await until(() => events.filter((e) => e.type === 'cloud_unreachable').length >= 2);
      abort.abort(CANCELLED_BY_OPERATOR);
      await run;
      expect(events.every((e) => e.type === 'cloud_unreachable')).toBe(true);
      expect(paths().filter((p) => p === '/api/wipe_result')).toEqual([]);
      expect(readFileSync(loop.file).equals(bytes)).toBe(true);
    } finally {
      loop.cleanup();
    }
  });

  it('reports an operator cancel as cancelled (spec 2), never certifiable, and writes nothing', async () => {
    const bay = await seatedBayCheckingIn('cancelled');
    bay.abort.abort(CANCELLED_BY_OPERATOR);
    const { result, untouched } = await bay.finish();
    expect(result).toMatchObject({ wipe_status: 'cancelled', validation: 'rejected', disposition: 'review', verification_result: 'cancelled by the operator: stopped before anything was written' });
    expect(result).not.toHaveProperty('verification_hash');
    expect(untouched).toBe(true);
  });
});

/**
 * A machine replayed from real captures: a laptop with a SATA SSD (sda), an NVMe SSD (nvme0n1)
 * and loop devices. Each lsblk call with a device answers that device's own entry, as lsblk does.
 */
function capturedMachine() {
  const listing = fixtureText('lsblk', 'laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json');
  const entries = (JSON.parse(listing) as { blockdevices: Array<{ path?: string }> }).blockdevices;
  const calls: string[][] = [];
  const run: Runner = async (tool, args) => {
    calls.push([tool, ...args]);
    const device = args.find((a) => a.startsWith('/dev/')) ?? '';
    const answer: Record<string, () => string> = {
      lsblk: () => (args.length === 3 ? listing : JSON.stringify({ blockdevices: entries.filter((e) => e.path === device) })),
      smartctl: () => fixtureText('smartctl', device.includes('nvme') ? 'samsung-970evo-nvme-smartctl-x.json' : 'micron-5200-mtfddak960tdn-sata-ssd-smartctl-a.json'),
      hdparm: () => fixtureText('hdparm', args[0] === '-I' ? 'samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt' : 'forensicswiki-hdparm-N-hpa-disabled.txt'),
      nvme: () => fixtureText('nvme', 'samsung-980pro-1tb-nvme-id-ctrl-json-sorted.json'),
    };
    return { exitCode: 0, stdout: answer[tool]?.() ?? '', stderr: '', timedOut: false, outputTruncated: false, durationMs: 1 };
  };
  return { run, calls };
}

describe.skipIf(!fixturesPresent)(`selecting the drive inserted into a bay (${FIXTURES_SKIP_NOTE})`, () => {
  it.each(['/dev/sda', '/dev/nvme0n1', '/dev/loop3'])('probes %s alone, with its own tool calls, and plans it exactly as the whole-machine selection does', async (device) => {
    const whole = capturedMachine();
    const own = capturedMachine();
    const expected = await selectDrives({ ...env, run: whole.run }, [device]);
    const sut = await selectInserted({ ...env, run: own.run }, device);
    expect(expected.ok).toBe(true);
    expect(sut).toEqual(expected.ok ? { ok: true, drives: expected.drives } : expected);
    // No other drive is listed or probed; this one gets every call the whole-machine selection made for it.
    expect(own.calls[0]).toEqual(['lsblk', '-J', '-b', '-O', device]);
    expect(own.calls.slice(1)).toEqual(whole.calls.filter((c) => c[0] !== 'lsblk' && c.includes(device)));
    expect(whole.calls.length).toBeGreaterThan(own.calls.length);
  });
});

describe('a bay under its token’s erasure policy (issue 29)', () => {
  it.each([
    ['cannot be read (a garbled answer)', [502, { error: 'invalid answer from the cloud' }]],
    ['names a default outside its allowed methods', [200, { erasure_policy: { default_method: 'zeros', verification: 'full', allowed_methods: ['gutmann'] }, source: 'token' }]],
  ] as const)('is refused in words when the policy %s: no check-in, nothing written', async (_what, answer) => {
    await gateway.close();
    gateway = await startFakeGateway({ erasurePolicy: answer });
    env = { ...env, config: { ...env.config, ERASURE_GATEWAY_URL: gateway.url } };
    const events: BayEvent[] = [];
    await stationBayRunner(env, BOOT)({ device: '/dev/loop-not-seated', identity: { device: '/dev/loop-not-seated', devT: '7:99' }, bay: BAY, signal: new AbortController().signal, emit: (e) => events.push(e) });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'refused', reason: expect.stringMatching(/^nothing can be erased: the erasure policy/) });
    expect(gateway.calls.map((c) => c.path)).toEqual(['/api/erasure_policy']);
  });
});

describe.skipIf(!fixturesPresent)(`a bay planned for its token policy's method (a frozen SATA SSD replayed from ${FIXTURES_SKIP_NOTE})`, () => {
  it('keeps what the machine adds to every plan: BSI-GS is refused saying this boot’s freeze lock removal was off, and nothing is checked in', async () => {
    await gateway.close();
    gateway = await startFakeGateway({ erasurePolicy: [200, { erasure_policy: { default_method: 'bsi-gs', verification: 'full', allowed_methods: ['bsi-gs'] }, source: 'token' }] });
    const machineEnv: AgentEnv = { ...env, config: { ...env.config, ERASURE_GATEWAY_URL: gateway.url }, run: frozenLaptop().run };
    // What this boot's drive preparation recorded: the freeze lock removal was switched off.
    await writeBootState(env.config.DATA_DIR, { bootId: await currentBootId(env.sys), unfreeze: { kind: 'off', source: 'erasure.unfreeze=off' }, failureModeExited: [] });
    const events: BayEvent[] = [];
    await stationBayRunner(machineEnv, BOOT)({ device: '/dev/sda', identity: { device: '/dev/sda', devT: '8:0' }, bay: BAY, signal: new AbortController().signal, emit: (e) => events.push(e) });
    expect(events).toEqual([
      {
        type: 'refused',
        reason: '/dev/sda: BSI-GS needs a firmware erase after its overwrite, and none can run on this drive: the drive is frozen by the BIOS (freeze lock) and freeze lock removal is off (erasure.unfreeze=off), so Clear by overwrite',
      },
    ]);
    expect(paths()).toEqual([]);
  });
});
