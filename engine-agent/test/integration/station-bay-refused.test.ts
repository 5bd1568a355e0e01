import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';
import type { AgentEnv } from '../../src/agent.js';
import { stationBayRunner } from '../../src/adapters/station-bay-runner.js';
import { readDriveIdentity } from '../../src/probes/drive-identity.js';
import type { BayEvent } from '../../src/station/bay-machine.js';
import { derivedHdparmSecurity } from '../support/derived-hdparm.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { fakeRunner } from '../support/fake-runner.js';
import { FIXTURES_SKIP_NOTE, fixturesPresent } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { bayAgentEnv, lsblkAsSata } from '../support/station-bay-env.js';

// Issue 30 item 7 at a station bay: a drive the bay will not erase still gets its row in the cloud.
// It is checked in (a station licence, as every bay's drive) and reported failed with its reason
// and disposition, nothing written. A loop device stands behind a fake hdparm replaying the
// DERIVED locked Samsung capture (test/support/derived-hdparm.ts).
const MiB = 1024 * 1024;
const SIZE = 8 * MiB;
const BOOT = { account: 'Station Refurb', recordId: 'CW-20261128-080000' };
const BAY = { bay: 'Bay 2', chassis: 'Front cage' };
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const work = loopSkipReason ? '' : makeWorkDir('station-bay-refused-');
afterAll(() => work && removeDir(work));

let gateway: Awaited<ReturnType<typeof startFakeGateway>>;
let dir = '';
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bay-refused-'));
  gateway = await startFakeGateway({ erasurePolicy: [200, { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'token' }] });
});
afterEach(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

const DRIVE = { model: 'Samsung SSD 850 EVO 2TB', serial: 'S2RLNX0H700433B' };
const envWith = (run: AgentEnv['run']) => bayAgentEnv(dir, gateway.url, run);

/** Runs the bay over a loop device the fake hdparm says is locked at `level`; answers the bay's events and the loop's bytes after. */
async function runLockedBay(level: 'high' | 'maximum') {
  const bytes = randomBytes(SIZE);
  const disk = loopWith(work, `bay-refused-${level}.img`, bytes);
  try {
    const { run } = fakeRunner({
      lsblk: [{ match: '.*', stdout: lsblkAsSata(disk.device, DRIVE) }],
      hdparm: [{ match: `^-I ${escape(disk.device)}$`, stdout: derivedHdparmSecurity({ locked: true, level, masterRevision: 3 }) }],
    });
    const env = envWith(run);
    const identity = await readDriveIdentity(env.sys, disk.device);
    const events: BayEvent[] = [];
    await stationBayRunner(env, BOOT)({ device: disk.device, identity, bay: BAY, signal: new AbortController().signal, emit: (e) => events.push(e) });
    return { device: disk.device, events, untouched: readFileSync(disk.file).equals(bytes) };
  } finally {
    disk.cleanup();
  }
}

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`a station bay's drive it will not erase (loop device, fake hdparm, derived ${FIXTURES_SKIP_NOTE})`, () => {
  it('checks in a drive locked at ATA level maximum and reports it failed, destroy, with the reason in plain words; nothing written', async () => {
    const { device, events, untouched } = await runLockedBay('maximum');
    expect(gateway.calls.filter((c) => c.path === '/api/checkin')).toHaveLength(1);
    const results = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ drive_serial: 'S2RLNX0H700433B', wipe_status: 'failed', disposition: 'destroy', verification_result: expect.stringMatching(/^Not erased: the drive is locked with a user password at security level "maximum": .* Destroy it\.$/) });
    expect(events.at(-1)).toEqual({ type: 'refused', reason: expect.stringMatching(new RegExp(`^${escape(device)}: .*\\(not erased; reported to the erasure service\\)$`)) });
    expect(events.some((e) => e.type === 'erase_failed' || e.type === 'checkin_allowed')).toBe(false);
    expect(untouched).toBe(true);
  });

  it('reports a drive locked at level high, with no master password to try, failed for review', async () => {
    const { events, untouched } = await runLockedBay('high');
    const results = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ wipe_status: 'failed', disposition: 'review', verification_result: expect.stringMatching(/^Not erased: /) });
    expect(events.at(-1)).toMatchObject({ type: 'refused' });
    expect(untouched).toBe(true);
  });
});
