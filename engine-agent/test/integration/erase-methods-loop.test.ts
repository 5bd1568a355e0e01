import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { findMethod, METHOD_CATALOGUE, type VerificationLevel } from '@erasure/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { planErase } from '../../src/drives/plan-erase.js';
import { eraseDrive, type EraseDeps } from '../../src/erase/erase-drive.js';
import type { FirmwareTiming } from '../../src/erase/nvme.js';
import type { EraseProgress } from '../../src/erase/progress.js';
import { fillPattern, passPatterns, type Pattern } from '../../src/erase/pattern.js';
import { wipeResultBody } from '../../src/session/wipe-result.js';
import { fakeRunner, noSleep, type FakeRule } from '../support/fake-runner.js';
import { fixturesPresent } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const work = loopSkipReason ? '' : makeWorkDir('erase-methods-');
afterAll(() => work && removeDir(work));
const fast: FirmwareTiming = { pollIntervalMs: 1, maxWaitMs: 2000, commandTimeoutMs: 15_000 };

/** Sectors the kernel has read from a loop device (field 3 of /sys/block/loopN/stat). */
const sectorsRead = (device: string) => Number(readFileSync(`/sys/block/${basename(device)}/stat`, 'utf8').trim().split(/\s+/)[2]);

/** What a pass must have left on the whole device: the pattern regenerated from its own definition. */
function expected(pattern: Pattern, size: number): Buffer {
  const out = Buffer.alloc(size);
  fillPattern(pattern, 0, out);
  return out;
}

const overwriteDeps = (extra: Partial<EraseDeps> = {}): EraseDeps => ({ run: fakeRunner({}).run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), tuning: { chunkBytes: MiB, inFlight: 2 }, ...extra });

const named = METHOD_CATALOGUE.filter((m) => m.technique === 'overwrite');

describe.skipIf(Boolean(loopSkipReason))('named methods on loop devices (issue 29)', () => {
  it.each(named.map((m) => [m.id] as const))('%s writes exactly its passes, read from the device between passes while the engine waits', async (id) => {
    const method = findMethod(id);
    if (!method) throw new Error(id);
    const size = 4 * MiB;
    const disk = loopWith(work, `${id}.img`, randomBytes(size));
    try {
      const patterns = passPatterns(method.passes);
      const seen: Array<{ pass: number; content: Buffer }> = [];
      // The hook is where the engine stops: the test reads the backing file, then lets it go on.
      const afterPass = async (pass: number) => {
        seen.push({ pass, content: readFileSync(disk.file) });
      };
      const outcome = await eraseDrive({ device: disk.device, method: 'overwrite', selected: [disk.device], passes: patterns, verification: 'full' }, overwriteDeps({ afterPass }));
      expect(outcome).toMatchObject({ ok: true, passes: method.passes.length });
      expect(seen.map((s) => s.pass)).toEqual(method.passes.map((_, i) => i + 1));
      for (const [i, { content }] of seen.entries()) {
        const source = method.passes[i]?.pattern;
        const pattern = patterns[i] as Pattern;
        expect(content.equals(expected(pattern, size)) ? "same" : `${id} pass ${i + 1} (${source?.kind}) differs at ${content.findIndex((b, at) => b !== expected(pattern, size)[at])}: ${content.subarray(0, 8).toString("hex")} vs ${expected(pattern, size).subarray(0, 8).toString("hex")}`).toBe("same");
        if (source?.kind === 'complement') {
          const before = seen[i - 1]?.content as Buffer;
          expect(content.every((b, at) => b === (~(before[at] as number) & 0xff))).toBe(true);
        }
        if (source?.kind === 'prng') {
          // A random pass differs from whatever came before it, and from any other random pass.
          expect(content.equals(seen[i - 1]?.content ?? Buffer.alloc(0))).toBe(false);
        }
      }
      // The final content is the last pass's, as verified; a drive that takes discards (a loop
      // device does) is then discarded as a whole, which the result says, and reads as zeros.
      expect(outcome.verification).toMatch(new RegExp(`^full verification: all ${size} bytes read back .* of pass ${method.passes.length}(;|$)`));
      const discarded = /the whole drive was discarded/.test(outcome.verification);
      expect(readFileSync(disk.file).equals(discarded ? Buffer.alloc(size) : expected(patterns.at(-1) as Pattern, size))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });

  it('puts DoD 5220.22-M (3 passes) on the wire by its name, with its technique, real pass count and level', async () => {
    const size = 16 * MiB;
    const disk = loopWith(work, 'dod-wire.img', randomBytes(size));
    try {
      const plan = planErase({ device: disk.device, transport: 'unknown', viaUsbBridge: false, viaRaidController: false, rotational: true, sizeBytes: size }, { methodId: 'dod-5220.22-m-3', erasure: { default_method: 'nist-800-88-purge', verification: { sample: 10 }, allowed_methods: ['dod-5220.22-m-3', 'nist-800-88-purge'] } });
      if (!plan.ok || !plan.overwritePasses || !plan.verification) throw new Error('no plan');
      const outcome = await eraseDrive({ device: disk.device, method: plan.method, selected: [disk.device], passes: passPatterns(plan.overwritePasses), verification: plan.verification }, overwriteDeps());
      const wire = wipeResultBody({ device: disk.device, method: plan.method, preconditions: [], label: plan.label, technique: plan.technique }, outcome, 'job-1', 'erasure-agent test');
      expect(wire).toMatchObject({ wipe_method: 'DoD 5220.22-M (3 passes)', passes_completed: 3, wipe_status: 'completed' });
      expect(wire.technique).toMatch(/^IEEE 2883 Clear, overwrite through the write path: 3 passes \(0x00, complement, random\)/);
      expect(wire.verification_result).toMatch(/^10% sampled verification: 205 of 2048 blocks of 8192 bytes, picked at random in each 1\/100 of the drive, all match the AES-128-CTR keystream of pass 3(;|$)/);
    } finally {
      disk.cleanup();
    }
  });

  it.each([
    [{ sample: 10 }, 'sample 10%'],
    ['full', 'full'],
    ['every-pass', 'every pass'],
  ] as Array<[VerificationLevel, string]>)('verification %j (%s) reads the expected number of blocks from the device', async (level) => {
    const size = 64 * MiB;
    const disk = loopWith(work, 'levels.img', randomBytes(size));
    try {
      const patterns = passPatterns(findMethod('hmg-is5-enhanced')?.passes ?? []);
      let before = 0;
      const reads: number[] = [];
      // Counted from a pass's end to the end of its read-back (the last progress report of a verify).
      const afterPass = async () => {
        before = sectorsRead(disk.device);
      };
      const onProgress = (p: EraseProgress) => {
        if (p.stage === 'verify' && p.percent === 100) reads.push(sectorsRead(disk.device) - before);
      };
      const outcome = await eraseDrive({ device: disk.device, method: 'overwrite', selected: [disk.device], passes: patterns, verification: level }, overwriteDeps({ afterPass, onProgress }));
      expect(outcome.ok).toBe(true);
      const bytesRead = reads.map((sectors) => sectors * 512);
      if (level === 'full') {
        expect(bytesRead).toEqual([size]);
        expect(outcome.verification).toContain(`all ${size} bytes read back`);
      } else if (level === 'every-pass') {
        expect(bytesRead).toEqual([size, size, size]);
        expect(outcome.verification).toMatch(/^every pass verified in full: .*pass 1; .*pass 2; .*pass 3(;|$)/);
      } else {
        // 10 % of 2048 blocks of 32 KiB, rounded up; read from the device, not the page cache.
        expect(outcome.verification).toMatch(/^10% sampled verification: 205 of 2048 blocks of 32768 bytes/);
        expect(bytesRead).toEqual([205 * 32768]);
      }
    } finally {
      disk.cleanup();
    }
  });

  it('a sampled verification fails an overwrite whose result was changed behind it', async () => {
    const size = 64 * MiB;
    const disk = loopWith(work, 'tamper.img', randomBytes(size));
    try {
      // Old data put back over the whole device after the last pass: any sample must find it.
      const afterPass = async () => {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(disk.file, randomBytes(size));
      };
      const outcome = await eraseDrive({ device: disk.device, method: 'overwrite', selected: [disk.device], passes: passPatterns([{ pattern: { kind: 'zero' } }]), verification: { sample: 1 } }, overwriteDeps({ afterPass }));
      expect(outcome).toMatchObject({ ok: false, failureCode: 'not_verified' });
      expect(outcome.verification).toMatch(/^verification FAILED: 1% sampled verification/);
    } finally {
      disk.cleanup();
    }
  });
});

const sanitizeDone = JSON.stringify({ nvme0: { sprog: 65535, sstat: 0x101, cdw10_info: 0, time_over_write: 0 } });
const nvmeFormat = (device: string, erase: FakeRule['erase']) => ({ nvme: [{ match: `^format ${device} --ses=1 --force$`, stdout: 'Success formatting namespace:1\n', ...(erase ? { erase } : {}) }] });
const nvmeCrypto = (device: string, erase: FakeRule['erase']) => ({ nvme: [{ match: `^sanitize ${device} --sanact=4$`, stdout: '', ...(erase ? { erase } : {}) }, { match: '^sanitize-log', stdout: sanitizeDone }] });

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)('the read-back after a firmware erase, on loop devices with fake tools (issue 29)', () => {
  const levels: VerificationLevel[] = [{ sample: 10 }, 'full'];
  it.each(levels.map((l) => [l] as const))('at %j, a firmware erase that leaves a marker in place fails, and the drive is overwritten and certified Clear', async (level) => {
    const size = 16 * MiB;
    const disk = loopWith(work, 'liar.img', randomBytes(size));
    try {
      // The "firmware" zeroes only the first half: markers in the second half survive.
      const { run } = fakeRunner(nvmeFormat(disk.device, { device: disk.device, bytes: size / 2, fill: 'zero' }));
      const outcome = await eraseDrive({ device: disk.device, method: 'nvme-format-user-data', selected: [disk.device], verification: level }, overwriteDeps({ run, firmwareTiming: fast }));
      expect(outcome).toMatchObject({ ok: true, method: 'overwrite', certifiedAs: { label: 'NIST 800-88 R2 Clear' } });
      expect(outcome.verification).toMatch(/^Firmware erase failed: overwritten\. .*test patterns written before the erase were still there after it/);
      expect(readFileSync(disk.file).equals(Buffer.alloc(size))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });

  it.each(levels.map((l) => [l] as const))('at %j, an honest firmware erase is certified Purge with the read-back saying what the blocks showed', async (level) => {
    const size = 16 * MiB;
    const disk = loopWith(work, 'honest.img', randomBytes(size));
    try {
      const { run } = fakeRunner(nvmeFormat(disk.device, { device: disk.device, bytes: size, fill: 'zero' }));
      const before = sectorsRead(disk.device);
      const outcome = await eraseDrive({ device: disk.device, method: 'nvme-format-user-data', selected: [disk.device], verification: level }, overwriteDeps({ run, firmwareTiming: fast }));
      expect(outcome).toMatchObject({ ok: true, method: 'nvme-format-user-data', passes: null });
      const read = (sectorsRead(disk.device) - before) * 512;
      if (level === 'full') {
        expect(outcome.verification).toContain('; full read-back: all 2048 blocks of 8192 bytes read; 2048 read back as one repeating pattern (00)');
        expect(read).toBeGreaterThanOrEqual(size);
      } else {
        expect(outcome.verification).toContain('; 10% sampled read-back: 205 of 2048 blocks of 8192 bytes, picked at random in each 1/100 of the drive; 205 read back as one repeating pattern (00)');
        // The markers' own read-back comes on top of the sample: far less than a full read either way.
        expect(read).toBeLessThan(size / 2);
      }
    } finally {
      disk.cleanup();
    }
  });

  it('BSI-GS writes its random pass first, then the firmware erase proven by markers and the read-back', async () => {
    const size = 16 * MiB;
    const disk = loopWith(work, 'bsi-gs.img', Buffer.alloc(size));
    try {
      const { run } = fakeRunner(nvmeFormat(disk.device, { device: disk.device, bytes: size, fill: 'zero' }));
      const passes = passPatterns(findMethod('bsi-gs')?.passes ?? []);
      const seen: Buffer[] = [];
      const afterPass = async () => {
        seen.push(readFileSync(disk.file));
      };
      const outcome = await eraseDrive({ device: disk.device, method: 'nvme-format-user-data', selected: [disk.device], passesBeforeFirmware: passes, verification: { sample: 10 } }, overwriteDeps({ run, firmwareTiming: fast, afterPass }));
      expect(outcome).toMatchObject({ ok: true, method: 'nvme-format-user-data', passes: 1 });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.equals(expected(passes[0] as Pattern, size))).toBe(true);
      expect(outcome.commands.join('\n')).toMatch(/1 pass\(es\) before the firmware erase[\s\S]*test patterns[\s\S]*nvme format/);
      expect(outcome.verification).toMatch(/^256 of 256 test patterns written before the erase were gone after it.*; 10% sampled read-back: 205 of 2048 blocks/);
      expect(readFileSync(disk.file).equals(Buffer.alloc(size))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });

  it('after a crypto erase the read-back accepts random-looking data', async () => {
    const size = 16 * MiB;
    const disk = loopWith(work, 'crypto.img', randomBytes(size));
    try {
      const { run } = fakeRunner(nvmeCrypto(disk.device, { device: disk.device, bytes: size, fill: 'random' }));
      const outcome = await eraseDrive({ device: disk.device, method: 'nvme-sanitize-crypto', selected: [disk.device], verification: { sample: 10 } }, overwriteDeps({ run, firmwareTiming: fast }));
      expect(outcome).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto' });
      expect(outcome.verification).toMatch(/10% sampled read-back: 205 of 2048 blocks of 8192 bytes, picked at random in each 1\/100 of the drive; \d+ as random-looking data, as a crypto erase leaves it/);
    } finally {
      disk.cleanup();
    }
  });
});
