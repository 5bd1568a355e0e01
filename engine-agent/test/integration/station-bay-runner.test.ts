import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runErase, selectDrives, type AgentEnv } from '../../src/agent.js';
import { createRunner, type Runner } from '../../src/adapters/runner.js';
import { selectInserted, stationBayRunner } from '../../src/adapters/station-bay-runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { CANCELLED_BY_OPERATOR, REMOVED_DURING_ERASE, type BayEvent } from '../../src/station/bay-machine.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { FIXTURES_SKIP_NOTE, fixtureText, fixturesPresent } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

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

const paths = () => gateway.calls.map((c) => c.path);
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
    const run = stationBayRunner(env, BOOT)({ device: '/dev/loop-not-seated', bay: BAY, signal: abort.signal, emit: (e) => events.push(e) });
    abort.abort(REMOVED_DURING_ERASE); // the bay is selecting its drive (lsblk runs) when the pull-out lands
    gateway.release('/api/checkin');
    await run;
    expect(paths()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('never sends the check-in of a session whose drive was withdrawn before it', async () => {
    const abort = new AbortController();
    abort.abort(CANCELLED_BY_OPERATOR);
    const drive = (await selectInserted(env, '/dev/loop-not-seated')) as { ok: true; drives: Parameters<typeof runErase>[1] };
    const sut = await runErase(env, drive.drives, {}, { ...BOOT, product: 'hotswap', bay: BAY, eraseSignal: abort.signal });
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
    const run = stationBayRunner(env, BOOT)({ device: node, bay: BAY, signal: abort.signal, emit: (e) => events.push(e) });
    await until(() => paths().includes('/api/checkin'));
    const finish = async () => {
      gateway.release('/api/checkin');
      await run;
      const result = gateway.calls.find((c) => c.path === '/api/wipe_result')?.body;
      const untouched = readFileSync(loop.file).equals(bytes);
      loop.cleanup();
      return { result, untouched, events };
    };
    return { abort, pull: () => unlinkSync(node), finish };
  }

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
