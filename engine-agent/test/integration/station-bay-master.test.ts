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
import { fakeRunner, type FakeRule } from '../support/fake-runner.js';
import { FIXTURES_SKIP_NOTE, fixturesPresent } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { bayAgentEnv, lsblkAsSata } from '../support/station-bay-env.js';

// Issue 30 item 1 at a station bay: the bay erases under its token's policy, and that policy's
// ATA master passwords reach the erase of a drive locked with an unknown user password, as they
// do in the kiosk and headless runs. A loop device stands behind a fake hdparm replaying the
// DERIVED locked Samsung capture (test/support/derived-hdparm.ts).
const MiB = 1024 * 1024;
const SIZE = 8 * MiB;
const BOOT = { account: 'Station Refurb', recordId: 'CW-20261128-080000' };
const BAY = { bay: 'Bay 2', chassis: 'Front cage' };
const FLEET = 'Fleet-Master-2019';
const NOT_ENABLED = 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const work = loopSkipReason ? '' : makeWorkDir('station-bay-master-');
afterAll(() => work && removeDir(work));

let gateway: Awaited<ReturnType<typeof startFakeGateway>>;
let dir = '';
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bay-master-'));
  gateway = await startFakeGateway({
    erasurePolicy: [200, { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'token', ata_master_passwords: { passwords: ['Old-Fleet-1', FLEET], factory_defaults: false } }],
  });
});
afterEach(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

const DRIVE = { model: 'Samsung SSD 850 EVO 2TB', serial: 'S2KMNCAGB00042' };
const envWith = (run: AgentEnv['run']) => bayAgentEnv(dir, gateway.url, run);

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`a station bay's drive locked with an unknown ATA user password (loop device, fake hdparm, derived ${FIXTURES_SKIP_NOTE})`, () => {
  it("at security level high, tries the token policy's master passwords, unlocks the drive with the one that works, security-erases it and reports it erased, no password in any result", async () => {
    const disk = loopWith(work, 'bay-master.img', randomBytes(SIZE));
    const unlocked = join(work, 'bay-master.unlocked');
    const erased = join(work, 'bay-master.erased');
    try {
      const rules: Record<string, FakeRule[]> = {
        lsblk: [{ match: '.*', stdout: lsblkAsSata(disk.device, DRIVE) }],
        hdparm: [
          { match: `^-I ${escape(disk.device)}$`, stdout: derivedHdparmSecurity({ locked: true, level: 'high', masterRevision: 3 }), untilFile: unlocked },
          { match: `^-I ${escape(disk.device)}$`, stdout: derivedHdparmSecurity({ locked: false, level: 'high', masterRevision: 3 }), untilFile: erased },
          { match: `^-I ${escape(disk.device)}$`, fixture: NOT_ENABLED },
          { match: `--user-master m --security-unlock ${FLEET} ${escape(disk.device)}$`, stdout: `Issuing SECURITY_UNLOCK command, password="${FLEET}", user=master, mode=high\n`, touch: unlocked },
          { match: `--user-master m --security-unlock .* ${escape(disk.device)}$`, stderr: 'SECURITY_UNLOCK: Input/output error\n', exit: 5 },
          { match: `--user-master m --security-erase-enhanced ${FLEET} ${escape(disk.device)}$`, stdout: `Issuing SECURITY_ERASE command, password="${FLEET}", user=master, mode=high\n`, erase: { device: disk.device, bytes: SIZE, fill: 'zero' }, touch: erased },
        ],
      };
      const { run, calls } = fakeRunner(rules);
      const env = envWith(run);
      const identity = await readDriveIdentity(env.sys, disk.device);
      const events: BayEvent[] = [];
      await stationBayRunner(env, BOOT)({ device: disk.device, identity, bay: BAY, signal: new AbortController().signal, emit: (e) => events.push(e) });
      const unlocks = calls().filter((c) => c.includes('--security-unlock')).map((c) => c[4]);
      expect(unlocks).toEqual(['Old-Fleet-1', FLEET]);
      expect(events.at(-1)).toEqual({ type: 'erase_passed' });
      expect(events.find((e) => e.type === 'checkin_allowed')).toMatchObject({ firmware: true });
      const result = gateway.calls.find((c) => c.path === '/api/wipe_result')?.body as Record<string, unknown>;
      expect(result).toMatchObject({ wipe_status: 'completed', disposition: 'sanitized', wipe_method: 'NIST 800-88 R2 Purge' });
      expect(String(result.verification_result)).toContain('security erase with the master password completed');
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
      const sent = JSON.stringify(gateway.calls.filter((c) => c.path !== '/api/erasure_policy'));
      expect(sent).not.toContain(FLEET);
      expect(sent).not.toContain('Old-Fleet-1');
      expect(JSON.stringify(events)).not.toContain(FLEET);
    } finally {
      disk.cleanup();
    }
  });
});
