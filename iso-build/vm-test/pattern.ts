import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const BLOCK = 4096;

/** Block `i` of a pattern: SHA-256 of `name:i` repeated, so every block of every drive is distinct. */
function patternBlock(name: string, i: number): Buffer {
  const digest = createHash('sha256').update(`${name}:${i}`).digest();
  return Buffer.concat(Array.from({ length: BLOCK / digest.length }, () => digest));
}

const blockKey = (b: Buffer) => createHash('sha1').update(b).digest('hex');

/** Fills `file` with the named pattern; returns the set of its block hashes. */
export function writePattern(file: string, name: string, bytes: number): Set<string> {
  const keys = new Set<string>();
  const fd = openSync(file, 'w');
  try {
    const batch = 256;
    for (let i = 0; i < bytes / BLOCK; i += batch) {
      const blocks = Array.from({ length: Math.min(batch, bytes / BLOCK - i) }, (_, k) => patternBlock(name, i + k));
      for (const b of blocks) keys.add(blockKey(b));
      writeSync(fd, Buffer.concat(blocks));
    }
  } finally {
    closeSync(fd);
  }
  return keys;
}

/** How many 4 KiB blocks of `file` still equal any block of the original pattern. */
export function survivingBlocks(file: string, original: ReadonlySet<string>): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(BLOCK * 256);
  let survivors = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      for (let off = 0; off + BLOCK <= n; off += BLOCK) if (original.has(blockKey(buf.subarray(off, off + BLOCK)))) survivors++;
    }
  } finally {
    closeSync(fd);
  }
  return survivors;
}

/** SHA-256 of `file`, or of its first `length` bytes. */
export const sha256File = (file: string, length = Number.POSITIVE_INFINITY) => {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1 << 20);
  let left = length;
  try {
    while (left > 0) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, left), null);
      if (n <= 0) break;
      hash.update(buf.subarray(0, n));
      left -= n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
};

const SECTOR = 512;

/** Sector `i` of a pattern: SHA-256 of `name:s:i` repeated, so every 512-byte sector of every drive is distinct. */
function patternSector(name: string, i: number): Buffer {
  const digest = createHash('sha256').update(`${name}:s:${i}`).digest();
  return Buffer.concat(Array.from({ length: SECTOR / digest.length }, () => digest));
}

/** Fills `file` with `bytes` (a whole number of 512-byte sectors, 4 KiB-aligned or not) of the named sector pattern. */
export function writeSectorPattern(file: string, name: string, bytes: number): void {
  if (bytes % SECTOR !== 0) throw new Error(`${bytes} is not a whole number of sectors`);
  const fd = openSync(file, 'w');
  try {
    const sectors = bytes / SECTOR;
    for (let i = 0; i < sectors; i += 2048) writeSync(fd, Buffer.concat(Array.from({ length: Math.min(2048, sectors - i) }, (_, k) => patternSector(name, i + k))));
  } finally {
    closeSync(fd);
  }
}

/** How many 512-byte sectors of `file` still hold what `writeSectorPattern` put there, and how many sectors it has. */
export function survivingSectors(file: string, name: string): { survivors: number; sectors: number } {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(SECTOR * 2048);
  let survivors = 0;
  let sectors = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      for (let off = 0; off + SECTOR <= n; off += SECTOR, sectors++) if (buf.subarray(off, off + SECTOR).equals(patternSector(name, sectors))) survivors++;
    }
  } finally {
    closeSync(fd);
  }
  return { survivors, sectors };
}
