import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { eraseDrive, type EraseDeps } from '../../src/erase/erase-drive.js';
import { eraseWithHealth, readSmartHealth } from '../../src/health/erase-health.js';
import { fakeRunner, noSleep, type FakeRule } from '../support/fake-runner.js';
import { fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const work = loopSkipReason ? '' : makeWorkDir('health-loop-');
afterAll(() => work && removeDir(work));

const HEALTHY = 'smartctl/wdc-wd140edfz-sata-hdd-smartctl-a.json';
const FAILING = 'smartctl/hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json';

/** Erases a fresh 8 MiB loop device by overwrite between two SMART reads the fake smartctl replays. */
async function eraseGraded(smartctl: FakeRule[]) {
  const disk = loopWith(work, `disk-${Math.random().toString(36).slice(2)}.img`, randomBytes(8 * MiB));
  const { run, calls } = fakeRunner({ smartctl });
  const deps: EraseDeps = { run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), tuning: { chunkBytes: 1 * MiB, inFlight: 3 } };
  try {
    const outcome = await eraseWithHealth(
      () => eraseDrive({ device: disk.device, method: 'overwrite', selected: [disk.device] }, deps),
      () => readSmartHealth(run, disk.device),
    );
    return { outcome, calls: calls(), zeroed: readFileSync(disk.file).equals(Buffer.alloc(8 * MiB)), device: disk.device };
  } finally {
    disk.cleanup();
  }
}

const skip = loopSkipReason ?? (fixturesPresent ? undefined : `${FIXTURES_SKIP_NOTE} absent`);
if (skip) console.warn(`[health-loop] skipped: ${skip}`);

describe.skipIf(Boolean(skip))('the health grade of a drive erased on a real loop device', () => {
  it('reads SMART before and after the overwrite, records its speed profile, and grades a healthy drive A', async () => {
    const { outcome, calls, zeroed, device } = await eraseGraded([{ match: '--json -x', fixture: HEALTHY }]);
    expect(zeroed).toBe(true);
    expect(outcome.ok).toBe(true);
    expect(calls).toEqual([['smartctl', '--json', '-x', device], ['smartctl', '--json', '-x', device]]);
    const profile = outcome.writeProfile;
    expect(profile).toMatchObject({ regionBytes: MiB, ioErrors: 0, retries: 0 });
    expect(profile?.mbps).toHaveLength(8);
    expect(profile?.mbps.every((r) => typeof r === 'number' && r > 0)).toBe(true);
    expect(outcome.health?.evidence).toMatchObject({ before: { powerOnHours: 1730 }, after: { powerOnHours: 1730 }, profile });
    expect(outcome.health?.verdict).toEqual({ grade: 'A', label: 'like new', reasons: [] });
  });

  it('a drive whose SMART fails after the erase is graded F and is still erased', async () => {
    const { outcome, zeroed } = await eraseGraded([{ match: '--json -x', fixture: HEALTHY, times: 1 }, { match: '--json -x', fixture: FAILING, exit: 8 }]);
    expect(zeroed).toBe(true);
    expect(outcome.ok).toBe(true);
    expect(outcome).not.toHaveProperty('failureCode');
    expect(outcome.health?.verdict.grade).toBe('F');
    expect(outcome.health?.verdict.reasons.map((r) => r.metric)).toEqual(expect.arrayContaining(['smart_failed', 'errors_rose_during_erase']));
  });

  it('without a SMART answer the erased drive is graded on the overwrite alone, and says so', async () => {
    const { outcome } = await eraseGraded([]);
    expect(outcome.ok).toBe(true);
    expect(outcome.health?.evidence.smartUnavailable).toMatch(/not smartctl JSON|JSON/);
    expect(outcome.health?.verdict).toMatchObject({ grade: 'B', reasons: [{ metric: 'smart_unavailable' }] });
  });
});
