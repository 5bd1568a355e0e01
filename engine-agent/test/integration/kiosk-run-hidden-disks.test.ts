import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listDrives } from '../../src/agent.js';
import { CertificateFollower } from '../../src/api/certificate-numbers.js';
import { EraseRun } from '../../src/api/erase-run.js';
import { BEHIND_VIRTUAL_DISK } from '../../src/probes/raid-disks.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

// Issue 30 item 7 at the kiosk: a run that erases a RAID virtual disk reports each physical disk
// the controller hides behind it, in the same check-in, as headless does (session/not-erased.ts).
let dir = '';
let closeGateway: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeGateway?.();
  closeGateway = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

const HIDDEN = [
  { through: '/dev/bus/0', deviceType: 'megaraid,0', model: 'ST6000NM0115-1YZ110', serial: 'ZAD2C11G', capacityBytes: 6e12, reason: BEHIND_VIRTUAL_DISK },
  { through: '/dev/bus/0', deviceType: 'megaraid,1', model: 'WD4000FYYX', serial: 'WD-WMC1F0D12345', capacityBytes: 4e12, reason: BEHIND_VIRTUAL_DISK },
];

describe('the kiosk run of a RAID virtual disk', () => {
  it('reports the virtual disk erased and each physical disk it hides failed, review, "Not erased" with the reason, in the one check-in', async () => {
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    dir = mkdtempSync(join(tmpdir(), 'kiosk-hidden-'));
    const env = outboxAgentEnv(dir, gateway.url);
    const [first] = await listDrives(env);
    if (!first) throw new Error('no simulated drive');
    // The simulated drive as a MegaRAID virtual disk spanning two physical disks.
    const virtual = { ...first, connection: { kind: 'raid-virtual', reportLine: 'RAID virtual disk (MegaRAID) spanning 2 physical disks', hidden: HIDDEN } } as unknown as typeof first;
    const certificates = new CertificateFollower(async () => [], async () => undefined, [], () => undefined);
    const run = new EraseRun(env, 'CW-20261128-080000', certificates, new AbortController().signal, { changed: () => undefined, progress: () => undefined, firmware: () => false });
    let ended: () => void = () => undefined;
    const done = new Promise<void>((r) => (ended = r));
    run.begin({ devices: [virtual.device], account: 'Refurb', refused: async () => undefined, select: async () => ({ ok: true, drives: [virtual] }), ended: async () => ended() });
    await done;
    expect(gateway.calls.filter((c) => c.path === '/api/checkin')).toHaveLength(1);
    const results = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
    expect(results).toHaveLength(3);
    expect(results.find((r) => r.drive_serial === first.capabilities.serial)).toMatchObject({ wipe_status: 'completed', disposition: 'sanitized' });
    for (const h of HIDDEN) {
      expect(results.find((r) => r.drive_serial === h.serial)).toMatchObject({ drive_model: h.model, wipe_status: 'failed', disposition: 'review', validation: 'rejected', verification_result: `Not erased: ${BEHIND_VIRTUAL_DISK}` });
    }
    // The result screen's rows: the hidden disks are refused (shown "Not erased"), never an erase that failed.
    const rows = run.view().results;
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.refused).map((r) => r.device).sort()).toEqual(['/dev/bus/0 (megaraid,0)', '/dev/bus/0 (megaraid,1)']);
  });
});
