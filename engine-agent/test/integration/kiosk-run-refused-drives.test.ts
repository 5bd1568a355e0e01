import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listDrives } from '../../src/agent.js';
import { CertificateFollower } from '../../src/api/certificate-numbers.js';
import { EraseRun, type RunRequest } from '../../src/api/erase-run.js';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { planErase } from '../../src/drives/plan-erase.js';
import { parseHdparmIdentify } from '../../src/probes/hdparm.js';
import { discoverDrive, type DiscoveredDrive } from '../../src/probes/discover-drives.js';
import { refusedToPlan } from '../../src/session/not-erased.js';
import { derivedHdparmSecurity } from '../support/derived-hdparm.js';
import { fakeRunner } from '../support/fake-runner.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { fixturesPresent, FIXTURES_SKIP_NOTE, workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

// Issue 30 item 7 at the kiosk: when the operator presses Erase, every drive the agent refused to
// plan gets a not-erased result in that run's check-in, as headless and the station bays report
// them; a drive the operator did not tick gets none, and no drive is reported twice in one boot.
const MiB = 1024 * 1024;
const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const dirs: string[] = [];
let closeGateway: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeGateway?.();
  closeGateway = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A drive as the real probe finds it behind the loop device, with the fakes on PATH answering for its tools. */
async function probed(run: Parameters<typeof discoverDrive>[0], device: string): Promise<DiscoveredDrive> {
  const found = await discoverDrive(run, device);
  if ('listed' in found) throw new Error(found.reason);
  return found;
}

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`the kiosk run reports the drives the agent refused (loop devices, fake sg_raw, hdparm's identify ${FIXTURES_SKIP_NOTE})`, () => {
  it('a locked self-encrypting drive gets failed, review and an ATA drive locked at level maximum failed, destroy, each once with its reason; an unticked drive and the boot medium none', async () => {
    const work = makeWorkDir('kiosk-refused-');
    dirs.push(work);
    const sedBytes = randomBytes(4 * MiB);
    const ataBytes = randomBytes(4 * MiB);
    const sedLoop = loopWith(work, 'sed-locked.img', sedBytes);
    const ataLoop = loopWith(work, 'ata-maximum.img', ataBytes);
    const stickLoop = loopWith(work, 'boot-stick.img', randomBytes(MiB));
    try {
      const { run } = fakeRunner(
        {
          sg_raw: [{ match: `^-R -r 2048 ${escape(sedLoop.device)} a2 01 00 01 00 00 00 00 08 00 00 00$`, stderr: sed('sg-raw-level0-sata-opal2-locked.DERIVED.stderr.txt') }],
        },
        { without: ['sedutil-cli', 'lsblk', 'smartctl', 'hdparm', 'nvme'] },
      );
      const sedDrive = await probed(run, sedLoop.device);
      // The loop device is no SATA disk to the real probe: the ATA drive is built from hdparm's identify as the probe builds a SATA one.
      const identify = parseHdparmIdentify(derivedHdparmSecurity({ locked: true, level: 'maximum' }));
      if (!identify.ok) throw new Error(identify.reason);
      const ataCaps = buildCapabilities({ device: ataLoop.device, hdparm: identify.value });
      const ataDrive: DiscoveredDrive = { ...sedDrive, device: ataLoop.device, capabilities: ataCaps, plan: planErase(ataCaps) };
      expect(sedDrive.plan).toMatchObject({ ok: false });
      expect(ataDrive.plan).toMatchObject({ ok: false, disposition: 'destroy' });

      const gateway = await startFakeGateway();
      closeGateway = gateway.close;
      const dir = mkdtempSync(join(tmpdir(), 'kiosk-refused-env-'));
      dirs.push(dir);
      const env = outboxAgentEnv(dir, gateway.url);
      const [ticked, unticked] = await listDrives(env);
      if (!ticked || !unticked) throw new Error('the simulated machine has fewer than two drives');
      expect(unticked.plan.ok).toBe(true);
      // What markOwnMedia makes of the stick this machine started from: shown, never a target.
      const stick = await probed(run, stickLoop.device);
      const bootMedium: DiscoveredDrive = { ...stick, ownMedium: 'boot medium: never erased', plan: { ok: false, reason: 'boot medium: never erased', rejected: [] } };
      const seen = [ticked, unticked, bootMedium, sedDrive, ataDrive];

      const certificates = new CertificateFollower(async () => [], async () => undefined, [], () => undefined);
      const erase = new EraseRun(env, 'CW-20261128-120000', certificates, new AbortController().signal, { changed: () => undefined, progress: () => undefined, firmware: () => false });
      const press = async () => {
        let ended: () => void = () => undefined;
        const done = new Promise<void>((r) => (ended = r));
        const request: RunRequest = {
          devices: [ticked.device],
          account: 'Refurb',
          refused: async () => undefined,
          select: async () => ({ ok: true, drives: [ticked] }),
          // As the controller asks: the drives seen, less those ticked.
          refusedDrives: () => refusedToPlan(seen.filter((d) => d.device !== ticked.device)),
          ended: async () => ended(),
        };
        erase.begin(request);
        await done;
      };

      await press();
      expect(gateway.calls.filter((c) => c.path === '/api/checkin')).toHaveLength(1);
      const first = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
      // Three results: the ticked drive, and the two refused ones (the locked self-encrypting loop device has no serial).
      expect(first).toHaveLength(3);
      expect(first.find((r) => r.drive_serial === ticked.capabilities.serial)).toMatchObject({ wipe_status: 'completed', disposition: 'sanitized' });
      const sedWords = `Not erased: ${sedDrive.plan.ok ? '' : sedDrive.plan.reason}`;
      expect(first.filter((r) => r.verification_result === sedWords)).toEqual([expect.objectContaining({ wipe_status: 'failed', disposition: 'review', validation: 'rejected' })]);
      expect(first.find((r) => r.drive_serial === ataDrive.capabilities.serial)).toMatchObject({ wipe_status: 'failed', disposition: 'destroy', validation: 'rejected', verification_result: `Not erased: ${ataDrive.plan.ok ? '' : ataDrive.plan.reason}` });
      // The result screen's rows: the refused drives read "Not erased", never an erase that failed.
      expect(erase.view().results.filter((r) => r.refused).map((r) => r.device).sort()).toEqual([sedLoop.device, ataLoop.device].sort());

      // A second Erase press (the ticked drive again) reports the ticked drive only: the refused ones have their result.
      await press();
      const all = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
      expect(gateway.calls.filter((c) => c.path === '/api/checkin')).toHaveLength(2);
      expect(all).toHaveLength(4);
      expect(all.filter((r) => r.verification_result === sedWords)).toHaveLength(1);
      expect(all.filter((r) => r.drive_serial === ataDrive.capabilities.serial)).toHaveLength(1);
      expect(all.filter((r) => r.drive_serial === ticked.capabilities.serial)).toHaveLength(2);
      expect(all.some((r) => r.drive_serial === unticked.capabilities.serial)).toBe(false);
      // Nothing touched the refused drives' data.
      expect(readFileSync(sedLoop.file).equals(sedBytes)).toBe(true);
      expect(readFileSync(ataLoop.file).equals(ataBytes)).toBe(true);
    } finally {
      sedLoop.cleanup();
      ataLoop.cleanup();
      stickLoop.cleanup();
      removeDir(work);
    }
  });
});
