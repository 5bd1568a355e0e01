import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runErase } from '../../src/agent.js';
import { PsidDesk } from '../../src/api/psid-intent.js';
import { driveView } from '../../src/api/state-view.js';
import { discoverDrive, type DiscoveredDrive } from '../../src/probes/discover-drives.js';
import { seenAs } from '../../src/session/not-erased.js';
import { fakeRunner } from '../support/fake-runner.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');
const PSID = 'QX7R2KD9M4T8W1ZP6B3N5C0V9F2H7J4L';
const MARK = Buffer.from('CUSTOMER DATA ON A LOCKED RANGE ');

let closeGateway: (() => Promise<void>) | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await closeGateway?.();
  closeGateway = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A locked SATA or SAS self-encrypting drive on the image as built: sg_raw reads its level 0
 * discovery, and there is no sedutil-cli to revert it. The loop device stands for the drive's
 * media (the real lsblk lists it); the fakes on PATH answer for the drive's tools.
 */
describe.skipIf(Boolean(loopSkipReason))('a locked SATA/SAS self-encrypting drive and an image without sedutil-cli (loop device, fake sg_raw)', () => {
  const work = loopSkipReason ? '' : makeWorkDir('sed-no-sedutil-');

  it('is failed with disposition review and the reason: a PSID revert on another computer, with the tool and the label step; nothing is written', async () => {
    const bytes = Buffer.concat(Array.from({ length: 32 * 1024 }, () => MARK));
    const loop = loopWith(work, 'locked.img', bytes);
    try {
      // No fake lsblk, smartctl or hdparm either: the host's real lsblk lists the loop device, the rest are absent, as on a bare machine.
      const { run, calls } = fakeRunner({ sg_raw: [{ match: `^-R -r 2048 ${loop.device} a2 01 00 01 00 00 00 00 08 00 00 00$`, stderr: sed('sg-raw-level0-sata-opal2-locked.DERIVED.stderr.txt') }] }, { without: ['sedutil-cli', 'lsblk', 'smartctl', 'hdparm', 'nvme'] });
      const found = await discoverDrive(run, loop.device);
      if ('listed' in found) throw new Error(found.reason);
      const drive: DiscoveredDrive = found;
      expect(drive.capabilities.selfEncryption).toMatchObject({ kind: 'tcg', tool: 'sg_raw security protocol in', family: 'Opal 2', locked: true });
      expect(drive.plan.ok).toBe(false);
      const reason = drive.plan.ok ? '' : drive.plan.reason;
      expect(reason).toBe(
        'the drive is self-encrypting (Opal 2, locked): its data cannot be read or written until it is unlocked, and this image has no tool that can PSID-revert a SATA or SAS drive (sedutil-cli): it needs a PSID revert on another computer, with the 32-character PSID printed on its label. On a computer with sedutil-cli, run: sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID <the 32-character PSID from the label> <the drive>, then bring the drive back to be erased and certified.',
      );
      // The kiosk asks for no PSID it cannot use.
      expect(driveView(drive).self_encryption).toEqual({ words: 'self-encrypting (Opal 2, locked)', locked: true, revert_here: false });

      // A PSID typed anyway goes nowhere: the same step, failed for review.
      const desk = new PsidDesk({ drives: () => [drive], run, relist: async () => undefined, changed: () => undefined });
      const typed = await desk.apply({ type: 'psid_revert', device: loop.device, psid: PSID }, undefined);
      expect(typed).toEqual({ ok: false, reason: expect.stringMatching(/^this drive needs a PSID revert on a machine with sedutil-cli: this image does not carry it\. On a computer with sedutil-cli, run: /) });
      expect(JSON.stringify(calls())).not.toContain(PSID);

      // The result the cloud gets, as the headless run reports a drive its planner refused.
      const gateway = await startFakeGateway();
      closeGateway = gateway.close;
      const dir = mkdtempSync(join(tmpdir(), 'sed-no-sedutil-env-'));
      dirs.push(dir);
      await runErase({ ...outboxAgentEnv(dir, gateway.url), run }, [], {}, { notErased: [{ ...seenAs(drive), reason, disposition: 'review' }] });
      const results = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ wipe_status: 'failed', disposition: 'review', validation: 'rejected' });
      expect(String(results[0]!.verification_result)).toContain('it needs a PSID revert on another computer, with the 32-character PSID printed on its label. On a computer with sedutil-cli, run: sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID');
      // Nothing touched the drive's data.
      expect(readFileSync(loop.file).equals(bytes)).toBe(true);
    } finally {
      loop.cleanup();
      removeDir(work);
    }
  });
});
