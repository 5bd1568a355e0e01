import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PsidDesk } from '../../src/api/psid-intent.js';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { planErase } from '../../src/drives/plan-erase.js';
import type { DiscoveredDrive } from '../../src/probes/discover-drives.js';
import { probeSelfEncryption } from '../../src/probes/self-encryption.js';
import { fakeRunner } from '../support/fake-runner.js';
import { workspaceDir } from '../support/fixtures.js';

const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');
const PSID = 'QX7R2KD9M4T8W1ZP6B3N5C0V9F2H7J4L';

describe('the psid_revert intent', () => {
  it('reverts a locked drive, lists the drives again, and marks the drive so its wipe result reports the revert', async () => {
    const { run } = fakeRunner({
      nvme: [
        { match: '^sed revert --psid /dev/nvme0n1$', stdout: sed('nvme-sed-revert-psid-prompts.txt'), times: 1 },
        { match: '^sed discover -v /dev/nvme0n1$', stdout: sed('nvme-sed-discover-not-enabled.DERIVED.txt') },
      ],
    });
    // The drive as the agent listed it at boot (locked), and as the same probe lists it after the revert.
    const listed = async (locked: boolean): Promise<DiscoveredDrive> => {
      const selfEncryption = locked ? { kind: 'tcg' as const, tool: 'nvme sed discover' as const, family: 'Opal 2' as const, lockingSupported: true, lockingEnabled: true, locked: true, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false } : await probeSelfEncryption(run, '/dev/nvme0n1', 'nvme');
      const capabilities = buildCapabilities({ device: '/dev/nvme0n1', lsblk: { name: 'nvme0n1', type: 'disk', transport: 'nvme', sizeBytes: 512e9 } as never, selfEncryption });
      return { device: '/dev/nvme0n1', internal: true, capabilities, plan: planErase(capabilities) };
    };
    let drives: DiscoveredDrive[] = [await listed(true)];
    const desk: PsidDesk = new PsidDesk({ drives: () => drives, run, relist: async () => void (drives = desk.mark([await listed(false)])), changed: () => undefined });
    expect(drives[0]?.plan.ok).toBe(false);

    expect(await desk.apply({ type: 'psid_revert', device: '/dev/nvme0n1', psid: PSID }, undefined)).toEqual({ ok: true });
    expect(drives[0]?.plan.ok).toBe(true);
    expect(drives[0]?.psidRevert).toBe('PSID revert: the drive discarded its media encryption key (a cryptographic erase) and is now self-encrypting (Opal 2, locking off)');
    expect(JSON.stringify(desk.view())).not.toContain(PSID);
    // Once unlocked, the drive needs no second revert.
    expect(await desk.apply({ type: 'psid_revert', device: '/dev/nvme0n1', psid: PSID }, undefined)).toEqual({ ok: false, reason: '/dev/nvme0n1 is not a locked self-encrypting drive: it needs no PSID revert' });
  });

  it('is refused while the boot is locked or an erase runs', async () => {
    const desk = new PsidDesk({ drives: () => [], run: fakeRunner({}).run, relist: async () => undefined, changed: () => undefined });
    expect(await desk.apply({ type: 'psid_revert', device: '/dev/nvme0n1', psid: PSID }, 'a session is running')).toEqual({ ok: false, reason: 'a session is running' });
  });
});
