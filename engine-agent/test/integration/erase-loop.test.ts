import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, mkdirSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockdev } from '../../src/adapters/blockdev.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { eraseDrive, type EraseDeps } from '../../src/erase/erase-drive.js';
import { openMedium } from '../../src/erase/medium.js';
import { writePass } from '../../src/erase/overwrite.js';
import { prngPattern } from '../../src/erase/pattern.js';
import { verifyPass } from '../../src/erase/verify.js';
import { createRunner } from '../../src/adapters/runner.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const work = loopSkipReason ? '' : makeWorkDir('erase-loop-');
afterAll(() => work && removeDir(work));

const deps: EraseDeps = {
  run: createRunner(),
  sleep: async () => undefined,
  sys: nodeSystemView(),
  now: () => new Date(),
  // Small chunks so an 8 MiB device still exercises several requests in flight.
  tuning: { chunkBytes: 1 * MiB, inFlight: 3 },
};

const blockHashes = (bytes: Buffer) => {
  const set = new Set<string>();
  for (let at = 0; at < bytes.length; at += 4096) set.add(createHash('sha256').update(bytes.subarray(at, at + 4096)).digest('hex'));
  return set;
};
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.skipIf(Boolean(loopSkipReason))('overwrite and verify on real loop devices', () => {
  it('gives O_DIRECT buffers aligned to 4 KiB', () => {
    const buffer = blockdev().alignedBuffer(MiB, 4096);
    expect(blockdev().addressMod(buffer) % 4096).toBe(0);
  });

  it('leaves no original 4 KiB block, verifies with SHA-256 over the re-read bytes and spares the bystander', async () => {
    const target = loopWith(work, 'target.img', randomBytes(8 * MiB));
    const bystanderBytes = randomBytes(4 * MiB);
    const bystander = loopWith(work, 'bystander.img', bystanderBytes);
    try {
      const original = blockHashes(readFileSync(target.file));
      const sut = await eraseDrive({ device: target.device, method: 'overwrite', selected: [target.device], overwrite: 'prng+zero' }, deps);
      expect(sut).toMatchObject({ ok: true, refused: false, passes: 2, bytesWritten: 16 * MiB });
      const after = readFileSync(target.file);
      expect([...blockHashes(after)].filter((h) => original.has(h))).toEqual([]);
      expect(after.equals(Buffer.alloc(8 * MiB))).toBe(true);
      expect(sut.verificationHash).toBe(sha256(after));
      expect(readFileSync(bystander.file).equals(bystanderBytes)).toBe(true);
    } finally {
      target.cleanup();
      bystander.cleanup();
    }
  });

  it('refuses a loop device the operator did not select and leaves it untouched', async () => {
    const bytes = randomBytes(2 * MiB);
    const other = loopWith(work, 'other.img', bytes);
    try {
      const sut = await eraseDrive({ device: other.device, method: 'overwrite', selected: ['/dev/loop-not-this-one'] }, deps);
      expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'not_selected' });
      expect(readFileSync(other.file).equals(bytes)).toBe(true);
    } finally {
      other.cleanup();
    }
  });

  it('refuses a mounted loop device and keeps its data', async () => {
    const disk = loopWith(work, 'mounted.img', Buffer.alloc(16 * MiB));
    const mnt = join(work, 'mnt');
    mkdirSync(mnt, { recursive: true });
    try {
      execFileSync('mkfs.ext4', ['-q', '-F', disk.device], { stdio: 'ignore' });
      execFileSync('mount', [disk.device, mnt]);
      writeFileSync(join(mnt, 'keep.txt'), 'customer data');
      execFileSync('sync');
      const sut = await eraseDrive({ device: disk.device, method: 'overwrite', selected: [disk.device] }, deps);
      expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'mounted' });
      expect(readFileSync(join(mnt, 'keep.txt'), 'utf8')).toBe('customer data');
    } finally {
      execFileSync('umount', [mnt], { stdio: 'ignore' });
      disk.cleanup();
    }
  });

  it('refuses a disk another process holds open exclusively (EBUSY from the O_EXCL open)', async () => {
    const bytes = randomBytes(2 * MiB);
    const held = loopWith(work, 'held.img', bytes);
    const fd = openSync(held.device, constants.O_RDONLY | constants.O_EXCL);
    try {
      const sut = await eraseDrive({ device: held.device, method: 'overwrite', selected: [held.device] }, deps);
      expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'in_use' });
      expect(readFileSync(held.file).equals(bytes)).toBe(true);
    } finally {
      closeSync(fd);
      held.cleanup();
    }
  });

  it('detects a block that does not hold the PRNG pattern', async () => {
    const disk = loopWith(work, 'corrupt.img', Buffer.alloc(4 * MiB));
    try {
      const medium = await openMedium(disk.device);
      const pattern = prngPattern();
      try {
        await writePass(medium, pattern, { tuning: { chunkBytes: MiB } });
        const clean = await verifyPass(medium, pattern, { tuning: { chunkBytes: MiB } });
        expect(clean).toMatchObject({ matches: true, mismatchedChunks: 0, fromMedium: true });
        // Overwrite one sector behind the verifier's back, straight on the backing file.
        const fd = openSync(disk.file, 'r+');
        writeFileSync(fd, Buffer.alloc(512, 0xab), { flag: 'r+' });
        closeSync(fd);
        execFileSync('sync');
        const dirty = await verifyPass(medium, pattern, { tuning: { chunkBytes: MiB } });
        expect(dirty).toMatchObject({ matches: false, mismatchedChunks: 1, firstMismatchOffset: 0 });
        expect(dirty.sha256).not.toBe(clean.sha256);
      } finally {
        await medium.handle.close();
      }
    } finally {
      disk.cleanup();
    }
  });

  it('hashes on its own thread yet gives the SHA-256 of the device as sha256sum reads it', async () => {
    const disk = loopWith(work, 'hash.img', randomBytes(9 * MiB + 4096));
    try {
      const medium = await openMedium(disk.device);
      try {
        const pattern = prngPattern();
        await writePass(medium, pattern, { tuning: { chunkBytes: MiB } });
        const stats = await verifyPass(medium, pattern, { tuning: { chunkBytes: MiB, inFlight: 4 } });
        const independent = execFileSync('sha256sum', [disk.device], { encoding: 'utf8' }).split(' ')[0];
        expect(stats).toMatchObject({ matches: true, bytes: 9 * MiB + 4096 });
        expect(stats.sha256).toBe(independent);
      } finally {
        await medium.handle.close();
      }
    } finally {
      disk.cleanup();
    }
  });

  it('fails the verification when the hash thread dies, never passing it', async () => {
    const disk = loopWith(work, 'hash-crash.img', Buffer.alloc(8 * MiB));
    try {
      const medium = await openMedium(disk.device);
      try {
        const pattern = prngPattern();
        await writePass(medium, pattern, { tuning: { chunkBytes: MiB } });
        const verifying = verifyPass(medium, pattern, { tuning: { chunkBytes: MiB }, onHashWorker: (worker) => void worker.crash() });
        await expect(verifying).rejects.toThrow(/hash worker/);
      } finally {
        await medium.handle.close();
      }
    } finally {
      disk.cleanup();
    }
  });

  it('refuses the device the running system is mounted from', async () => {
    const rootDev = execFileSync('findmnt', ['-n', '-o', 'SOURCE', '/'], { encoding: 'utf8' }).trim();
    if (!rootDev.startsWith('/dev/')) return; // overlay or container root: no disk to protect here
    const sut = await eraseDrive({ device: rootDev, method: 'overwrite', selected: [rootDev] }, deps);
    expect(sut).toMatchObject({ ok: false, refused: true });
    expect(['boot_medium', 'not_whole_disk']).toContain(sut.failureCode);
  });
});
