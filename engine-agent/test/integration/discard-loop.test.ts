import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunner, type Runner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { METHOD_INFO } from '../../src/drives/erase-methods.js';
import { secureDiscardSupport } from '../../src/erase/discard.js';
import { eraseDrive, type EraseDeps } from '../../src/erase/erase-drive.js';
import { openMedium } from '../../src/erase/medium.js';
import { wipeResultBody } from '../../src/session/wipe-result.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
const work = loopSkipReason ? '' : makeWorkDir('discard-loop-');
afterAll(() => work && removeDir(work));

const usageKiB = (file: string) => Number(execFileSync('du', ['-k', file], { encoding: 'utf8' }).split('\t')[0]);
const overwrite = (device: string, run: Runner = createRunner()) => {
  const deps: EraseDeps = { run, sleep: async () => undefined, sys: nodeSystemView(), now: () => new Date(), tuning: { chunkBytes: MiB, inFlight: 2 } };
  return eraseDrive({ device, method: 'overwrite', selected: [device] }, deps);
};

describe.skipIf(Boolean(loopSkipReason))('discard after a verified overwrite, on loop devices (which support discard)', () => {
  it("discards the whole device: the backing file's blocks are deallocated, and the report says so without counting it as the sanitization", async () => {
    const disk = loopWith(work, 'discard.img', randomBytes(SIZE));
    try {
      const before = usageKiB(disk.file);
      expect(before).toBeGreaterThanOrEqual(SIZE / 1024);
      const sut = await overwrite(disk.device);
      expect(sut).toMatchObject({ ok: true, method: 'overwrite', passes: 1 });
      expect(sut.verification).toContain('afterwards the whole drive was discarded (TRIM, blkdiscard)');
      expect(sut.verification).toContain('the discard is not part of the sanitization');
      expect(sut.commands).toEqual([METHOD_INFO.overwrite.command, `blkdiscard ${disk.device}`]);
      expect(usageKiB(disk.file)).toBeLessThan(before / 8);
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
      // Still Clear by overwrite: the discard changes no method.
      const wire = wipeResultBody({ device: disk.device, method: 'overwrite', preconditions: [], label: 'NIST 800-88 R2 Clear', technique: METHOD_INFO.overwrite.technique }, sut, 'job-1', 'test');
      expect(wire).toMatchObject({ wipe_method: 'NIST 800-88 R2 Clear', technique: METHOD_INFO.overwrite.technique, wipe_status: 'completed' });
    } finally {
      disk.cleanup();
    }
  });

  it('reports a discard that fails (the device claimed by another holder) without failing the verified overwrite', async () => {
    const disk = loopWith(work, 'busy.img', randomBytes(SIZE));
    const real = createRunner();
    // Another holder opens the disk O_EXCL right when the discard runs, so the real blkdiscard gets EBUSY.
    const run: Runner = async (tool, args, options) => {
      if (tool !== 'blkdiscard') return real(tool, args, options);
      const holder = await fsp.open(disk.device, constants.O_RDONLY | constants.O_EXCL);
      try {
        return await real(tool, args, options);
      } finally {
        await holder.close();
      }
    };
    try {
      const sut = await overwrite(disk.device, run);
      expect(sut).toMatchObject({ ok: true, passes: 1 });
      expect(sut.verification).toMatch(/the discard \(TRIM\) afterwards failed \(exit 1: .*Device or resource busy\); the drive is sanitized all the same/);
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
    } finally {
      disk.cleanup();
    }
  });

  it('asks a loop device whether it takes a secure discard without discarding anything: it does not', async () => {
    const bytes = randomBytes(4 * MiB);
    const disk = loopWith(work, 'secure.img', bytes);
    try {
      const medium = await openMedium(disk.device);
      try {
        expect(secureDiscardSupport(medium)).toBe(false);
        expect(secureDiscardSupport(medium, '5.10.0-28-amd64')).toBeUndefined();
      } finally {
        await medium.handle.close();
      }
      expect(readFileSync(disk.file).equals(bytes)).toBe(true);
    } finally {
      disk.cleanup();
    }
  });
});
