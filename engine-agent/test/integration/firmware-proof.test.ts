import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { METHOD_INFO, type EraseMethod } from '../../src/drives/erase-methods.js';
import { nistLabel } from '../../src/drives/plan-erase.js';
import { eraseDrive, type EraseDeps, type EraseOutcome } from '../../src/erase/erase-drive.js';
import { plantMarkersOn } from '../../src/erase/firmware-proof.js';
import type { FirmwareTiming } from '../../src/erase/nvme.js';
import { wipeResultBody } from '../../src/session/wipe-result.js';
import { fakeRunner, noSleep, type FakeRule } from '../support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
const work = loopSkipReason ? '' : makeWorkDir('firmware-proof-');
afterAll(() => work && removeDir(work));

const fast: FirmwareTiming = { pollIntervalMs: 1, maxWaitMs: 2000, commandTimeoutMs: 15_000 };
const NOT_FROZEN = 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt';
// A real capture changed only in its freeze line (no capture of an unfrozen sanitize drive exists).
const unfrozenSanitizeText = () => fixtureText('hdparm', 'tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt').replace(/^(\s+)frozen$/m, '        not     frozen');
// nvme-cli's sanitize-log JSON layout; SSTAT 0x101 = completed, global data erased.
const sanitizeDone = JSON.stringify({ nvme0: { sprog: 65535, sstat: 0x101, cdw10_info: 0, time_over_write: 0 } });
const sanitizeStatusDone = '\n/dev/sda:\nIssuing SANITIZE_STATUS command\nSanitize status:\n    State:    SD0 Sanitize Idle\n    Last Sanitize Operation Completed Without Error\n';

type Erase = FakeRule['erase'];

/** Each firmware method's tool conversation answering success; `erase` decides whether the drive really erases. */
const scenarios: Record<string, (device: string, erase: Erase) => { method: EraseMethod; rules: Record<string, FakeRule[]> }> = {
  'nvme format --ses=1': (device, erase) => ({
    method: 'nvme-format-user-data',
    rules: { nvme: [{ match: `^format ${device} --ses=1 --force$`, stdout: 'Success formatting namespace:1\n', ...(erase ? { erase } : {}) }] },
  }),
  'nvme sanitize --sanact=4': (device, erase) => ({
    method: 'nvme-sanitize-crypto',
    rules: { nvme: [{ match: `^sanitize ${device} --sanact=4$`, stdout: '', ...(erase ? { erase } : {}) }, { match: '^sanitize-log', stdout: sanitizeDone }] },
  }),
  'hdparm --security-erase-enhanced': (device, erase) => ({
    method: 'ata-secure-erase-enhanced',
    rules: {
      hdparm: [
        { match: `^-I ${device}$`, fixture: NOT_FROZEN },
        { match: '--security-set-pass', fixture: 'hdparm/intel-ssdsc2cw240a3-hdparm-security-set-pass-and-erase-transcript.txt' },
        { match: '--security-erase-enhanced', stdout: ' Issuing SECURITY_ERASE command, password="x", user=user\n', ...(erase ? { erase } : {}) },
      ],
    },
  }),
  'hdparm --sanitize-block-erase': (device, erase) => ({
    method: 'ata-sanitize-block',
    rules: {
      hdparm: [
        { match: `^-I ${device}$`, stdout: unfrozenSanitizeText() },
        { match: `--sanitize-block-erase ${device}$`, stdout: 'Operation started in background\n', ...(erase ? { erase } : {}) },
        { match: '--sanitize-status', stdout: sanitizeStatusDone },
      ],
    },
  }),
  'sg_sanitize --crypto': (device, erase) => ({
    method: 'scsi-sanitize-crypto',
    rules: { sg_sanitize: [{ match: `^--crypto --quick ${device}$`, stdout: '', ...(erase ? { erase } : {}) }] },
  }),
};

const eraseWith = (device: string, method: EraseMethod, rules: Record<string, FakeRule[]>) => {
  const { run, calls } = fakeRunner(rules);
  const deps: EraseDeps = { run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), firmwareTiming: fast, tuning: { chunkBytes: MiB, inFlight: 2 } };
  return { sut: eraseDrive({ device, method, selected: [device] }, deps), calls };
};

/** The wipe result the cloud certifies, for a drive whose plan was `method` (a Purge). */
const wireOf = (device: string, method: EraseMethod, outcome: EraseOutcome) =>
  wipeResultBody({ device, method, preconditions: [], label: nistLabel(METHOD_INFO[method].category), technique: METHOD_INFO[method].technique }, outcome, 'job-1', 'erasure-agent test');

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`firmware erases proven by markers, on loop devices with fake tools replaying ${FIXTURES_SKIP_NOTE}`, () => {
  it.each(Object.keys(scenarios))('a drive whose firmware lies (%s answers success, erases nothing) is not certified Purge: it fails the firmware step and is erased by overwrite', async (name) => {
    const disk = loopWith(work, 'liar.img', randomBytes(SIZE));
    try {
      const { method, rules } = (scenarios[name] as (typeof scenarios)[string])(disk.device, undefined);
      const { sut } = eraseWith(disk.device, method, rules);
      const outcome = await sut;
      expect(outcome).toMatchObject({ ok: true, method: 'overwrite', passes: 1, certifiedAs: { label: 'NIST 800-88 R2 Clear' } });
      expect(outcome.verification).toMatch(/^Firmware erase failed: overwritten\. /);
      expect(outcome.verification).toContain(`${METHOD_INFO[method].technique} reported success`);
      expect(outcome.verification).toContain('256 of 256 test patterns written before the erase were still there after it');
      expect(outcome.verification).toMatch(/Overwrite: full verification: all 16777216 bytes read back/);
      // Both steps are on the certificate: the firmware commands, then the overwrite.
      const components = outcome.commands.join('\n');
      expect(components).toContain(name.split(' ')[0] as string);
      expect(components).toContain(METHOD_INFO.overwrite.command);
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
      const wire = wireOf(disk.device, method, outcome);
      expect(wire).toMatchObject({ wipe_method: 'NIST 800-88 R2 Clear', passes_completed: 1, wipe_status: 'completed' });
      expect(`${wire.wipe_method} ${wire.technique}`).not.toMatch(/\bPurge\b/);
      expect(wire.technique).toBe(`${METHOD_INFO.overwrite.technique}, after ${METHOD_INFO[method].technique} failed its check`);
    } finally {
      disk.cleanup();
    }
  });

  it.each(Object.keys(scenarios))('a drive whose firmware erases (%s) is certified Purge with all 256 test patterns gone', async (name) => {
    const disk = loopWith(work, 'honest.img', randomBytes(SIZE));
    try {
      const fill = /crypto/.test(name) ? 'random' : 'zero';
      const { method, rules } = (scenarios[name] as (typeof scenarios)[string])(disk.device, { device: disk.device, bytes: SIZE, fill });
      const outcome = await eraseWith(disk.device, method, rules).sut;
      expect(outcome).toMatchObject({ ok: true, method, passes: null });
      expect(outcome.certifiedAs).toBeUndefined();
      expect(outcome.verification).toMatch(/^256 of 256 test patterns written before the erase were gone after it/);
      // A crypto erase leaves the markers as other data, which passes; a zeroing erase leaves a fill.
      expect(outcome.verification).toContain(fill === 'random' ? 'all read back as unrelated data' : 'all read back as a uniform fill');
      expect(outcome.verificationHash).toMatch(/^[0-9a-f]{64}$/);
      expect(wireOf(disk.device, method, outcome)).toMatchObject({ wipe_method: 'NIST 800-88 R2 Purge', technique: METHOD_INFO[method].technique, passes_completed: null });
    } finally {
      disk.cleanup();
    }
  });

  it('a drive whose firmware erases only part of it (the first half) fails the firmware step: the markers in the rest survive', async () => {
    const disk = loopWith(work, 'partial.img', randomBytes(SIZE));
    try {
      const { method, rules } = (scenarios['nvme format --ses=1'] as (typeof scenarios)[string])(disk.device, { device: disk.device, bytes: SIZE / 2, fill: 'zero' });
      const outcome = await eraseWith(disk.device, method, rules).sut;
      expect(outcome).toMatchObject({ ok: true, method: 'overwrite', certifiedAs: { label: 'NIST 800-88 R2 Clear' } });
      const survived = Number(/(\d+) of 256 test patterns written before the erase were still there after it/.exec(outcome.verification)?.[1]);
      // The last block always carries a marker and half of the evenly spread ones lie in the second half.
      expect(survived).toBeGreaterThanOrEqual(64);
      expect(survived).toBeLessThan(256);
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });

  it('on a 4Kn drive a lying firmware is caught and an honest one proven, markers written at the 4096-byte logical block size', async () => {
    const liar = loopWith(work, 'liar-4kn.img', randomBytes(SIZE), 4096);
    const honest = loopWith(work, 'honest-4kn.img', randomBytes(SIZE), 4096);
    try {
      const lie = (scenarios['nvme format --ses=1'] as (typeof scenarios)[string])(liar.device, undefined);
      expect(await eraseWith(liar.device, lie.method, lie.rules).sut).toMatchObject({ ok: true, method: 'overwrite', certifiedAs: { label: 'NIST 800-88 R2 Clear' } });
      const truth = (scenarios['nvme format --ses=1'] as (typeof scenarios)[string])(honest.device, { device: honest.device, bytes: SIZE, fill: 'zero' });
      const outcome = await eraseWith(honest.device, truth.method, truth.rules).sut;
      expect(outcome).toMatchObject({ ok: true, method: 'nvme-format-user-data' });
      expect(outcome.verification).toContain('256 of 256 test patterns written before the erase were gone after it');
    } finally {
      liar.cleanup();
      honest.cleanup();
    }
  });
});

describe.skipIf(Boolean(loopSkipReason))('markers on real loop devices', () => {
  it.each([512, 4096])('plants 256 unique random blocks of the %i-byte logical block size, the first and last LBA among them, where they read back from the backing file', async (sectorSize) => {
    const disk = loopWith(work, `markers-${sectorSize}.img`, Buffer.alloc(4 * MiB), sectorSize);
    try {
      const planted = await plantMarkersOn(disk.device);
      if (!planted.ok) throw new Error(planted.reason);
      const { markers } = planted;
      const blocks = (4 * MiB) / sectorSize;
      expect(markers.blockSize).toBe(sectorSize);
      expect(markers.lbas).toHaveLength(256);
      expect(markers.lbas[0]).toBe(0);
      expect(markers.lbas.at(-1)).toBe(blocks - 1);
      const file = readFileSync(disk.file);
      for (const [i, lba] of markers.lbas.entries()) expect(file.subarray(lba * sectorSize, (lba + 1) * sectorSize).equals(markers.blocks[i] as Buffer)).toBe(true);
      expect(new Set(markers.blocks.map((b) => b.toString('hex'))).size).toBe(256);
    } finally {
      disk.cleanup();
    }
  });
});
