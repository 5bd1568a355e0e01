import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { eraseDrive, type EraseDeps } from '../../src/erase/erase-drive.js';
import { describeCapacityChanges, kernelMissesRestored, restoreDco, restoreHiddenAreas } from '../../src/erase/hidden-areas.js';
import type { FirmwareTiming } from '../../src/erase/nvme.js';
import type { SysfsReader } from '../../src/probes/sysfs-block.js';
import { fakeRunner, noSleep } from '../support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const fast: FirmwareTiming = { pollIntervalMs: 1, maxWaitMs: 50, commandTimeoutMs: 15_000 };
const DCO_IDENTIFY = 'hdparm/forensicswiki-hdparm-dco-identify.txt'; // /dev/sda, Real max sectors: 1465149168
const HPA_DISABLED = 'hdparm/forensicswiki-hdparm-N-hpa-disabled.txt'; // /dev/sda, 1465149168/1465149168
const FROZEN = 'hdparm/teamgroup-a400-2tb-sata-ssd-hdparm-I-frozen.txt';
const NOT_FROZEN = 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt';
// No capture of a DCO-shrunk drive's -N exists: hdparm's own layout, 4800 sectors short of the DCO's real max.
const SHRUNK = '\n/dev/sda:\n max sectors   = 1465144368/1465144368, HPA is disabled\n';
// hdparm 9.65's own strings (strings /sbin/hdparm): " issuing DCO restore command", perror(" HDIO_DRIVE_CMD(dco_restore) failed").
const RESTORE_OK = { match: '^--yes-i-know-what-i-am-doing --dco-restore /dev/sda$', stdout: '\n/dev/sda:\n issuing DCO restore command\n' };
const RESTORE_REFUSED = { match: '--dco-restore', stdout: '\n/dev/sda:\n issuing DCO restore command\n', stderr: ' HDIO_DRIVE_CMD(dco_restore) failed: Input/output error\n', exit: 5 };

describe.skipIf(!fixturesPresent)(`DCO removal against fake hdparm replaying ${FIXTURES_SKIP_NOTE}`, () => {
  it('a DCO that hides sectors is restored, and -N then shows the DCO real max as the native capacity', async () => {
    const { run, calls } = fakeRunner({
      hdparm: [
        { match: '^--dco-identify /dev/sda$', fixture: DCO_IDENTIFY },
        { match: '^-N /dev/sda$', stdout: SHRUNK, times: 1 },
        { match: '^-N /dev/sda$', fixture: HPA_DISABLED },
        RESTORE_OK,
      ],
    });
    const sut = await restoreDco({ run, sleep: noSleep }, '/dev/sda', fast);
    expect(sut).toMatchObject({ ok: true, detail: 'DCO removed: 4800 hidden sectors restored (1465144368 -> 1465149168)', change: { area: 'DCO', beforeSectors: 1465144368, afterSectors: 1465149168 } });
    expect(calls().map((c) => c.slice(1).join(' '))).toEqual(['--dco-identify /dev/sda', '-N /dev/sda', '--yes-i-know-what-i-am-doing --dco-restore /dev/sda', '-N /dev/sda']);
  });

  it('a DCO that hides nothing is left alone: no restore command', async () => {
    const { run, calls } = fakeRunner({ hdparm: [{ match: '^--dco-identify', fixture: DCO_IDENTIFY }, { match: '^-N', fixture: HPA_DISABLED }] });
    expect(await restoreDco({ run, sleep: noSleep }, '/dev/sda', fast)).toMatchObject({ ok: true, detail: 'no Device Configuration Overlay hides sectors' });
    expect(calls().some((c) => c.includes('--dco-restore'))).toBe(false);
  });

  it('a restore refused by a frozen drive fails as frozen and says the hidden sectors were not erased', async () => {
    const { run } = fakeRunner({
      hdparm: [{ match: '^--dco-identify', fixture: DCO_IDENTIFY }, { match: '^-N', stdout: SHRUNK }, RESTORE_REFUSED, { match: '^-I', fixture: FROZEN }],
    });
    const sut = await restoreDco({ run, sleep: noSleep }, '/dev/sda', fast);
    expect(sut).toMatchObject({ ok: false, code: 'frozen' });
    expect(sut.ok === false && sut.reason).toMatch(/frozen by the BIOS .*exit 5: .*dco_restore\) failed: Input\/output error.*the 4800 sectors it hides were not erased/);
  });

  it('a restore refused by a drive that is not frozen fails as command_failed', async () => {
    const { run } = fakeRunner({
      hdparm: [{ match: '^--dco-identify', fixture: DCO_IDENTIFY }, { match: '^-N', stdout: SHRUNK }, RESTORE_REFUSED, { match: '^-I', fixture: NOT_FROZEN }],
    });
    expect(await restoreDco({ run, sleep: noSleep }, '/dev/sda', fast)).toMatchObject({ ok: false, code: 'command_failed', reason: expect.stringMatching(/refused DEVICE CONFIGURATION RESTORE .*not erased/) });
  });

  it('a restore the drive accepts without effect fails as not_verified', async () => {
    const { run } = fakeRunner({ hdparm: [{ match: '^--dco-identify', fixture: DCO_IDENTIFY }, { match: '^-N', stdout: SHRUNK }, RESTORE_OK] });
    expect(await restoreDco({ run, sleep: noSleep }, '/dev/sda', fast)).toMatchObject({ ok: false, code: 'not_verified', reason: expect.stringMatching(/still shows 1465144368\/1465144368 of 1465149168/) });
  });

  it('HPA first, then DCO: a failed DCO restore stops the drive with the reason, after the HPA went', async () => {
    const { run, calls } = fakeRunner({
      hdparm: [
        { match: '^-N /dev/sda$', stdout: '\n/dev/sda:\n max sectors   = 1465000000/1465144368, HPA is enabled\n', times: 1 },
        { match: '^-N /dev/sda$', stdout: SHRUNK },
        { match: '-N p1465144368 /dev/sda', stdout: ' setting max visible sectors to 1465144368 (permanent)\n' },
        { match: '^--dco-identify', fixture: DCO_IDENTIFY },
        RESTORE_REFUSED,
        { match: '^-I', fixture: FROZEN },
      ],
    });
    const sut = await restoreHiddenAreas({ run, sleep: noSleep }, '/dev/sda', ['restore-dco', 'restore-hpa'], fast);
    expect(sut).toMatchObject({ ok: false, code: 'frozen', reason: expect.stringMatching(/^DCO not removed: /) });
    const order = calls().map((c) => c.slice(1).join(' '));
    expect(order.indexOf('--yes-i-know-what-i-am-doing -N p1465144368 /dev/sda')).toBeLessThan(order.indexOf('--yes-i-know-what-i-am-doing --dco-restore /dev/sda'));
  });

  it('both removals give the capacity before and after each, for the Erasure Report', async () => {
    const { run } = fakeRunner({
      hdparm: [
        { match: '^-N /dev/sda$', stdout: '\n/dev/sda:\n max sectors   = 1465000000/1465144368, HPA is enabled\n', times: 1 },
        { match: '^-N /dev/sda$', stdout: SHRUNK, times: 2 },
        { match: '^-N /dev/sda$', fixture: HPA_DISABLED },
        { match: '-N p1465144368 /dev/sda', stdout: ' setting max visible sectors to 1465144368 (permanent)\n' },
        { match: '^--dco-identify', fixture: DCO_IDENTIFY },
        RESTORE_OK,
      ],
    });
    const sut = await restoreHiddenAreas({ run, sleep: noSleep }, '/dev/sda', ['restore-hpa', 'restore-dco'], fast);
    expect(sut).toMatchObject({ ok: true, changes: [{ area: 'HPA', beforeSectors: 1465000000, afterSectors: 1465144368 }, { area: 'DCO', beforeSectors: 1465144368, afterSectors: 1465149168 }] });
    expect(describeCapacityChanges(sut.ok ? sut.changes : [], 512)).toBe(
      'Hidden areas removed before the erase: HPA removed, capacity before 1465000000 sectors (750.1 GB), after 1465144368 sectors (750.2 GB); ' +
        'DCO removed, capacity before 1465144368 sectors (750.2 GB), after 1465149168 sectors (750.2 GB). The full native capacity was erased',
    );
  });
});

describe('an overwrite after a removal', () => {
  const sysfs = (size: string): SysfsReader => ({
    listDir: async () => [],
    realPath: async () => undefined,
    readText: async (p) => (p === '/sys/block/sda/size' ? `${size}\n` : p === '/sys/block/sda/queue/logical_block_size' ? '512\n' : undefined),
  });
  const change = [{ area: 'DCO' as const, beforeSectors: 1465144368, afterSectors: 1465149168 }];

  it('is refused while the kernel still sees the old size, with a reboot as the way on', async () => {
    expect(await kernelMissesRestored(sysfs('1465144368'), '/dev/sda', change)).toMatch(/kernel still sees 1465144368 of 1465149168 sectors .*reboot/);
  });

  it('goes ahead once the kernel sees the restored size', async () => {
    expect(await kernelMissesRestored(sysfs('1465149168'), '/dev/sda', change)).toBeUndefined();
  });
});

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)('a DCO-shrunk drive erased end to end (loop device, fake hdparm)', () => {
  const work = loopSkipReason ? '' : makeWorkDir('dco-loop-');
  afterAll(() => work && removeDir(work));
  const MiB = 1024 * 1024;
  // The real --dco-identify capture with only its real max changed to this 8 MiB device's 16384 sectors.
  const dcoOf = (realMax: number) => fixtureText('hdparm', 'forensicswiki-hdparm-dco-identify.txt').replace('Real max sectors: 1465149168', `Real max sectors: ${realMax}`);
  const deps = (run: EraseDeps['run']): EraseDeps => ({ run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), firmwareTiming: fast });

  it('restores the DCO, overwrites the full native capacity and reports the capacity before and after', async () => {
    const target = loopWith(work, 'dco.img', randomBytes(8 * MiB));
    try {
      const { run } = fakeRunner({
        hdparm: [
          { match: '^--dco-identify', stdout: dcoOf(16384) },
          { match: '^-N', stdout: `\n${target.device}:\n max sectors   = 16000/16000, HPA is disabled\n`, times: 1 },
          { match: '^-N', stdout: `\n${target.device}:\n max sectors   = 16384/16384, HPA is disabled\n` },
          { match: '--dco-restore', stdout: ` issuing DCO restore command\n` },
        ],
      });
      const sut = await eraseDrive({ device: target.device, method: 'overwrite', preconditions: ['restore-dco'], selected: [target.device] }, deps(run));
      expect(sut).toMatchObject({ ok: true, restoredSizeBytes: 8 * MiB, bytesWritten: 8 * MiB });
      expect(sut.verification).toMatch(/^Hidden areas removed before the erase: DCO removed, capacity before 16000 sectors \(8\.2 MB\), after 16384 sectors \(8\.4 MB\)\. The full native capacity was erased\. /);
      expect(sut.commands).toContain(`hdparm --yes-i-know-what-i-am-doing --dco-restore ${target.device}`);
      expect(readFileSync(target.file).equals(Buffer.alloc(8 * MiB))).toBe(true);
    } finally {
      target.cleanup();
    }
  });

  it('writes nothing when the kernel does not see the restored sectors, and says to reboot', async () => {
    const bytes = randomBytes(8 * MiB);
    const target = loopWith(work, 'dco-short.img', bytes);
    try {
      const { run } = fakeRunner({
        hdparm: [
          { match: '^--dco-identify', stdout: dcoOf(20000) },
          { match: '^-N', stdout: `\n${target.device}:\n max sectors   = 16384/16384, HPA is disabled\n`, times: 1 },
          { match: '^-N', stdout: `\n${target.device}:\n max sectors   = 20000/20000, HPA is disabled\n` },
          { match: '--dco-restore', stdout: ` issuing DCO restore command\n` },
        ],
      });
      const sut = await eraseDrive({ device: target.device, method: 'overwrite', preconditions: ['restore-dco'], selected: [target.device] }, deps(run));
      expect(sut).toMatchObject({ ok: false, failureCode: 'not_verified', verification: expect.stringMatching(/kernel still sees 16384 of 20000 sectors.*reboot/) });
      expect(readFileSync(target.file).equals(bytes)).toBe(true);
    } finally {
      target.cleanup();
    }
  });
});
