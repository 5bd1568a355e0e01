import { execFileSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { readAndCheckDrive } from '../../src/validate/read-drive.js';
import { describeValidation } from '../../src/validate/words.js';
import type { Expected } from '../../src/validate/expected.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const work = loopSkipReason ? '' : makeWorkDir('validate-loop-');
afterAll(() => work && removeDir(work));

/** A minimal PDF file, as a customer's document left on a drive. */
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n%%EOF\n', 'latin1');

/** Writes `bytes` at `offset` of the backing file and syncs it: the host's view of the drive. */
function plant(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const validate = async (device: string, expected: Expected) => {
  // Small chunks, so a 16 MiB drive still alternates buffers many times.
  const read = await readAndCheckDrive({ device, expected, chunkBytes: 1 * MiB });
  return { read, words: describeValidation(read, expected) };
};

describe.skipIf(Boolean(loopSkipReason))('validate reader on real loop devices (issue 29)', () => {
  it('approves a zeroed drive after reading every sector', async () => {
    const drive = loopWith(work, 'zeros.img', Buffer.alloc(16 * MiB));
    try {
      const { read, words } = await validate(drive.device, { kind: 'zeros' });
      expect(read).toMatchObject({ approved: true, bytesRead: 16 * MiB, mismatchedBlocks: 0, findings: [] });
      expect(words.reason).toBeNull();
      expect(words.findings).toContain('Every sector holds zeros');
    } finally {
      drive.cleanup();
    }
  });

  it('rejects a zeroed drive with a file written after the erase, naming the signature and its offset', async () => {
    const drive = loopWith(work, 'planted.img', Buffer.alloc(16 * MiB));
    try {
      plant(drive.file, 5 * MiB + 8192, PDF);
      const { read, words } = await validate(drive.device, { kind: 'zeros' });
      expect(read).toMatchObject({ approved: false, mismatchedBlocks: 1, firstMismatchAt: 5 * MiB + 8192 });
      expect(read.findings).toEqual([{ offset: 5 * MiB + 8192, what: 'a PDF document' }]);
      expect(words.reason).toBe('found a PDF document at byte 5,251,072');
    } finally {
      drive.cleanup();
    }
  });

  it('checks the last pass’s fixed pattern from the drive’s first byte, and names what breaks it', async () => {
    const drive = loopWith(work, 'pattern.img', Buffer.alloc(8 * MiB, 0xff));
    try {
      expect((await validate(drive.device, { kind: 'pattern', pattern: Buffer.from([0xff]) })).read.approved).toBe(true);
      expect((await validate(drive.device, { kind: 'zeros' })).read.approved).toBe(false);
      plant(drive.file, 3 * MiB, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
      const { read } = await validate(drive.device, { kind: 'pattern', pattern: Buffer.from([0xff]) });
      expect(read.findings).toEqual([{ offset: 3 * MiB, what: 'a PNG image' }]);
    } finally {
      drive.cleanup();
    }
  });

  it('after a crypto erase expects high entropy: random bytes pass, a filesystem made afterwards fails naming its superblock', async () => {
    const drive = loopWith(work, 'crypto.img', randomBytes(16 * MiB));
    try {
      expect((await validate(drive.device, { kind: 'random' })).read.approved).toBe(true);
      execFileSync('mkfs.ext4', ['-q', '-F', drive.device], { stdio: 'ignore' });
      const { read, words } = await validate(drive.device, { kind: 'random' });
      expect(read.approved).toBe(false);
      expect(read.findings.map((f) => f.what)).toContain('an ext2/3/4 filesystem superblock');
      expect(read.findings.find((f) => f.what === 'an ext2/3/4 filesystem superblock')!.offset).toBe(1024);
      expect(words.reason).toContain('an ext2/3/4 filesystem superblock at byte 1,024');
    } finally {
      drive.cleanup();
    }
  });

  it('approves a random last pass that the discard after the overwrite deallocated in part: the zero blocks are said, and hold no data', async () => {
    const drive = loopWith(work, 'random-discarded.img', randomBytes(16 * MiB));
    try {
      // The erase's own discard (TRIM) after its overwrite, on a loop device: its blocks then read zeros.
      execFileSync('blkdiscard', ['--offset', String(4 * MiB), '--length', String(4 * MiB), drive.device]);
      const { read, words } = await validate(drive.device, { kind: 'random' });
      expect(read).toMatchObject({ approved: true, mismatchedBlocks: 0, zeroBlocks: 1024 });
      expect(words.findings).toContain('1,024 blocks of 4 KiB read as zeros instead (deallocated');
      // Data written afterwards is still found among them.
      plant(drive.file, 5 * MiB, PDF);
      const again = await validate(drive.device, { kind: 'random' });
      expect(again.read.approved).toBe(false);
      expect(again.words.reason).toContain('a PDF document at byte 5,242,880');
    } finally {
      drive.cleanup();
    }
  });
});
