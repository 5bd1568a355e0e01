import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { METHOD_INFO, type EraseMethod } from '../../src/drives/erase-methods.js';
import { nistLabel, planErase } from '../../src/drives/plan-erase.js';
import { eraseDrive, type EraseDeps } from '../../src/erase/erase-drive.js';
import type { FirmwareTiming } from '../../src/erase/nvme.js';
import { readMmcExtcsd } from '../../src/probes/mmc-card.js';
import { wipeResultBody } from '../../src/session/wipe-result.js';
import { fakeRunner, noSleep, type FakeRule } from '../support/fake-runner.js';
import { workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

// Issue 30 item 4: an eMMC's own erase commands, through a fake `mmc` on PATH replaying real and
// DERIVED mmc-utils outputs (test/fixtures/mmc/PROVENANCE.md), with a loop device behind it: the
// markers and the read-back run on real blocks, and the fake card erases them when it says it does.

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
const work = loopSkipReason ? '' : makeWorkDir('mmc-erase-');
afterAll(() => work && removeDir(work));

const fast: FirmwareTiming = { pollIntervalMs: 1, maxWaitMs: 2000, commandTimeoutMs: 15_000 };
const mmcFixture = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'mmc', name), 'utf8');
const EXTCSD = 'extcsd-emmc51-sanitize.txt';
// The real card's SEC_COUNT is 0x1d200000: the range every erase command names.
const LAST = String(0x1d200000 - 1);

const eraseWith = (device: string, method: EraseMethod, mmc: FakeRule[]) => {
  const { run, calls } = fakeRunner({ mmc });
  const deps: EraseDeps = { run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), firmwareTiming: fast, tuning: { chunkBytes: MiB, inFlight: 2 } };
  return { sut: eraseDrive({ device, method, selected: [device], verification: 'full' }, deps), calls };
};

describe('an eMMC is planned from its EXT_CSD (mmc extcsd read, replayed)', () => {
  const capsFrom = async (fixture: string | undefined, stderr?: string) => {
    const { run } = fakeRunner({ mmc: [fixture ? { match: '^extcsd read /dev/mmcblk0$', stdout: mmcFixture(fixture) } : { match: '^extcsd read', stderr: mmcFixture(stderr ?? ''), exit: 1 }] });
    const mmcExtCsd = await readMmcExtcsd(run, '/dev/mmcblk0');
    return buildCapabilities({ device: '/dev/mmcblk0', mmcCard: { kind: 'emmc', name: 'DG4064', serial: '0x8a4b21c3' }, mmcExtCsd });
  };

  it('sanitize where SEC_FEATURE_SUPPORT sets SEC_SANITIZE (Purge), the other eMMC commands ranked below it', async () => {
    const plan = planErase(await capsFrom(EXTCSD));
    expect(plan).toMatchObject({ ok: true, method: 'mmc-sanitize', label: 'NIST 800-88 R2 Purge', technique: METHOD_INFO['mmc-sanitize'].technique });
    expect(plan.ok && plan.warnings).toContain('EXT_CSD SEC_FEATURE_SUPPORT 0x55: Sanitize supported (bit 6)');
    expect(plan.rejected.find((r) => r.method === 'mmc-secure-erase')?.reason).toBe('supported, but mmc-sanitize ranks stronger');
  });

  it('secure erase where the card has no sanitize but sets SECURE_ER_EN (Purge)', async () => {
    const plan = planErase(await capsFrom('extcsd-emmc51-no-sanitize.DERIVED.txt'));
    expect(plan).toMatchObject({ ok: true, method: 'mmc-secure-erase', label: 'NIST 800-88 R2 Purge' });
    expect(plan.rejected.find((r) => r.method === 'mmc-sanitize')?.reason).toBe('EXT_CSD SEC_FEATURE_SUPPORT 0x15: bit 6 (SEC_SANITIZE) not set, the eMMC has no Sanitize');
  });

  it('overwrite (Clear) where the card sets none of them, each refusal naming its EXT_CSD bit', async () => {
    const plan = planErase(await capsFrom('extcsd-emmc51-no-secure-features.DERIVED.txt'));
    expect(plan).toMatchObject({ ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear' });
    expect(plan.rejected.filter((r) => r.method.startsWith('mmc-')).map((r) => r.reason)).toEqual([
      'EXT_CSD SEC_FEATURE_SUPPORT 0x00: bit 6 (SEC_SANITIZE) not set, the eMMC has no Sanitize',
      'EXT_CSD SEC_FEATURE_SUPPORT 0x00: bit 0 (SECURE_ER_EN) not set, the eMMC has no Secure Erase or Secure Trim',
      'EXT_CSD SEC_FEATURE_SUPPORT 0x00: bit 0 (SECURE_ER_EN) not set, the eMMC has no Secure Erase or Secure Trim',
    ]);
  });

  it('an EXT_CSD that cannot be read sends no eMMC command: overwrite, with the reason', async () => {
    const caps = await capsFrom(undefined, 'mmc-extcsd-read-failed.DERIVED.stderr.txt');
    const plan = planErase(caps);
    expect(plan).toMatchObject({ ok: true, method: 'overwrite' });
    expect(plan.rejected.find((r) => r.method === 'mmc-sanitize')?.reason).toBe(
      "the eMMC's EXT_CSD could not be read (mmc extcsd read failed (exit 1: ioctl: Connection timed out / Could not read EXT_CSD from /dev/mmcblk0)): its erase commands cannot be checked, so none is sent",
    );
  });

  it('an SD card (no EXT_CSD) is discard plus overwrite (Clear), and is never sent an eMMC command', () => {
    const caps = buildCapabilities({ device: '/dev/mmcblk1', mmcCard: { kind: 'sd', name: 'SC32G', serial: '0x1c2b3a49' }, lsblk: { name: 'mmcblk1', type: 'disk', discardMaxBytes: 4194304, rotational: false, children: [] } as never });
    const plan = planErase(caps);
    expect(caps).toMatchObject({ transport: 'mmc', model: 'SC32G', serial: '0x1c2b3a49' });
    expect(plan).toMatchObject({ ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear' });
    expect(plan.ok && plan.warnings.some((w) => w.startsWith('the whole card is discarded first'))).toBe(true);
    expect(plan.rejected.find((r) => r.method === 'mmc-sanitize')?.reason).toBe('an SD card has no EXT_CSD and no sanitize or secure erase command: it is erased by overwrite (Clear)');
  });
});

describe.skipIf(Boolean(loopSkipReason))('eMMC erases through mmc-utils, replayed by a fake mmc with a loop device behind it', () => {
  it('sanitize: the EXT_CSD checked again, the whole user area trimmed, then sanitized; the markers and the full read-back prove it (Purge)', async () => {
    const disk = loopWith(work, 'emmc.img', randomBytes(SIZE));
    try {
      const { sut, calls } = eraseWith(disk.device, 'mmc-sanitize', [
        { match: `^extcsd read ${disk.device}$`, stdout: mmcFixture(EXTCSD) },
        { match: `^erase trim 0 ${LAST} ${disk.device}$`, stdout: mmcFixture('mmc-erase-trim.DERIVED.txt') },
        { match: `^sanitize ${disk.device}$`, stdout: '', erase: { device: disk.device, bytes: SIZE, fill: 'zero' } },
      ]);
      const out = await sut;
      expect(out).toMatchObject({ ok: true, method: 'mmc-sanitize', passes: null });
      expect(out.verification).toMatch(/^256 of 256 test patterns written before the erase were gone after it/);
      expect(out.verification).toContain('full read-back');
      expect(out.verification).toContain(`eMMC Sanitize (JEDEC JESD84), after a TRIM of the whole user area: TRIM of all ${0x1d200000} sectors of the user area, then Sanitize, completed (mmc exit status 0)`);
      expect(calls().filter((c) => c[0] === 'mmc')).toEqual([
        ['mmc', 'extcsd', 'read', disk.device],
        ['mmc', 'erase', 'trim', '0', LAST, disk.device],
        ['mmc', 'sanitize', disk.device],
      ]);
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
      const wire = wipeResultBody({ device: disk.device, method: 'mmc-sanitize', preconditions: [], label: nistLabel('Purge'), technique: METHOD_INFO['mmc-sanitize'].technique }, out, 'job-1', 'test');
      expect(wire).toMatchObject({ wipe_method: 'NIST 800-88 R2 Purge', technique: METHOD_INFO['mmc-sanitize'].technique, wipe_status: 'completed' });
    } finally {
      disk.cleanup();
    }
  });

  it('a sanitize the card reports done but that leaves the data is never certified Purge: the card is overwritten instead (Clear)', async () => {
    const disk = loopWith(work, 'emmc-liar.img', randomBytes(SIZE));
    try {
      const { sut } = eraseWith(disk.device, 'mmc-sanitize', [
        { match: '^extcsd read', stdout: mmcFixture(EXTCSD) },
        { match: '^erase trim', stdout: mmcFixture('mmc-erase-trim.DERIVED.txt') },
        { match: '^sanitize', stdout: '' },
      ]);
      const out = await sut;
      expect(out).toMatchObject({ ok: true, method: 'overwrite', certifiedAs: { label: 'NIST 800-88 R2 Clear' } });
      expect(out.verification).toMatch(/^Firmware erase failed: overwritten\. eMMC Sanitize/);
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });

  it('a sanitize that fails (the card stays busy past the ioctl timeout) fails the erase with the tool\'s words and writes nothing more', async () => {
    const disk = loopWith(work, 'emmc-timeout.img', randomBytes(SIZE));
    try {
      const { sut } = eraseWith(disk.device, 'mmc-sanitize', [
        { match: '^extcsd read', stdout: mmcFixture(EXTCSD) },
        { match: '^erase trim', stdout: mmcFixture('mmc-erase-trim.DERIVED.txt') },
        { match: '^sanitize', stderr: mmcFixture('mmc-sanitize-timed-out.DERIVED.stderr.txt'), exit: 1 },
      ]);
      const out = await sut;
      expect(out).toMatchObject({ ok: false, failureCode: 'erase_failed', verification: 'the Sanitize failed (exit 1: ioctl: Connection timed out / Could not write 0x01 to EXT_CSD[165] in /dev/mmcblk0)' });
    } finally {
      disk.cleanup();
    }
  });

  it('the EXT_CSD read right before the erase rules sanitize out (the card lost the bit): unsupported, no erase command sent', async () => {
    const disk = loopWith(work, 'emmc-nosan.img', randomBytes(SIZE));
    try {
      const { sut, calls } = eraseWith(disk.device, 'mmc-sanitize', [{ match: '^extcsd read', stdout: mmcFixture('extcsd-emmc51-no-sanitize.DERIVED.txt') }]);
      const out = await sut;
      expect(out).toMatchObject({ ok: false, failureCode: 'unsupported', verification: 'EXT_CSD SEC_FEATURE_SUPPORT 0x15: bit 6 (SEC_SANITIZE) not set, the eMMC has no Sanitize' });
      expect(calls().filter((c) => c[0] === 'mmc' && c[1] !== 'extcsd')).toEqual([]);
    } finally {
      disk.cleanup();
    }
  });

  it('secure erase of the whole user area, proven the same way (Purge); the tool refusing it fails the erase with its words', async () => {
    const disk = loopWith(work, 'emmc-se.img', randomBytes(SIZE));
    try {
      const { sut } = eraseWith(disk.device, 'mmc-secure-erase', [
        { match: '^extcsd read', stdout: mmcFixture('extcsd-emmc51-no-sanitize.DERIVED.txt') },
        { match: `^erase secure-erase 0 ${LAST} ${disk.device}$`, stdout: mmcFixture('mmc-erase-secure-erase.DERIVED.txt'), erase: { device: disk.device, bytes: SIZE, fill: 'zero' } },
      ]);
      const out = await sut;
      expect(out).toMatchObject({ ok: true, method: 'mmc-secure-erase' });
      expect(out.verification).toContain(`eMMC Secure Erase (JEDEC JESD84, CMD38) of the whole user area: Secure Erase of all ${0x1d200000} sectors of the user area completed`);
      const refused = await eraseWith(disk.device, 'mmc-secure-erase', [
        { match: '^extcsd read', stdout: mmcFixture('extcsd-emmc51-no-sanitize.DERIVED.txt') },
        { match: '^erase secure-erase', stdout: mmcFixture('mmc-erase-secure-erase-not-supported.DERIVED.txt'), stderr: mmcFixture('mmc-erase-secure-erase-not-supported.DERIVED.stderr.txt'), exit: 161 },
      ]).sut;
      expect(refused).toMatchObject({ ok: false, failureCode: 'erase_failed', verification: 'the Secure Erase failed (exit 161: Secure Erase is not supported in /dev/mmcblk0 / Secure Erase Failed!)' });
    } finally {
      disk.cleanup();
    }
  });

  it('an SD card is discarded first and then overwritten and verified (Clear): the discard comes before the overwrite, and the card ends in zeros', async () => {
    const disk = loopWith(work, 'sd.img', randomBytes(SIZE));
    try {
      const { run } = fakeRunner({});
      const real = (await import('../../src/adapters/runner.js')).createRunner();
      const deps: EraseDeps = { run: (tool, args, o) => (tool === 'blkdiscard' ? real(tool, args, o) : run(tool, args, o)), sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), tuning: { chunkBytes: MiB, inFlight: 2 } };
      const out = await eraseDrive({ device: disk.device, method: 'overwrite', selected: [disk.device], discardFirst: true }, deps);
      expect(out).toMatchObject({ ok: true, method: 'overwrite', passes: 1 });
      expect(out.commands).toEqual([`blkdiscard ${disk.device}`, METHOD_INFO.overwrite.command]);
      expect(out.verification).toContain('before the overwrite the whole card was discarded (blkdiscard');
      expect(out.verification).not.toContain('afterwards the whole drive was discarded');
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });
});
