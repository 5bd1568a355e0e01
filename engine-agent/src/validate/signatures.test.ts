import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signaturesIn } from './signatures.js';

const sector = (at: number, bytes: Buffer | string) => {
  const s = Buffer.alloc(512);
  Buffer.from(bytes as string, typeof bytes === 'string' ? 'latin1' : undefined).copy(s, at);
  return s;
};

describe('signaturesIn: magic numbers at their place in a sector', () => {
  it.each([
    ['a PDF document', sector(0, '%PDF-1.4')],
    ['a ZIP archive or Office document (docx, xlsx, pptx)', sector(0, Buffer.from([0x50, 0x4b, 0x03, 0x04]))],
    ['a JPEG image', sector(0, Buffer.from([0xff, 0xd8, 0xff, 0xe0]))],
    ['a Linux program or library (ELF)', sector(0, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]))],
    ['a Windows program (MZ/PE)', sector(0, 'MZ\x90\x00This program cannot be run in DOS mode.')],
    ['an SQLite database', sector(0, 'SQLite format 3\u0000')],
    ['a GPT partition table header', sector(0, 'EFI PART')],
    ['an NTFS filesystem boot sector', sector(3, 'NTFS    ')],
    ['a FAT32 filesystem boot sector', sector(82, 'FAT32   ')],
  ])('finds %s', (name, bytes) => {
    expect(signaturesIn(bytes)).toContain(name);
  });

  it('finds nothing in zeros, and does not take a bare "MZ" or a lone 0x55AA for a program or a partition table', () => {
    expect(signaturesIn(Buffer.alloc(512))).toEqual([]);
    expect(signaturesIn(sector(0, 'MZ'))).toEqual([]);
    expect(signaturesIn(sector(510, Buffer.from([0x55, 0xaa])))).toEqual([]);
  });

  it('finds an MBR only with partition entries beside its 0x55AA', () => {
    const mbr = sector(510, Buffer.from([0x55, 0xaa]));
    mbr[446 + 4] = 0x83;
    expect(signaturesIn(mbr)).toEqual(['an MBR partition table or boot sector']);
  });

  it('ignores random bytes (no signature is looked for at every byte)', () => {
    let hits = 0;
    for (let i = 0; i < 2000; i += 1) hits += signaturesIn(randomBytes(512)).length;
    // Only the 2-byte MBR marker with non-empty entries can match by chance: about 1 in 65,536.
    expect(hits).toBeLessThan(3);
  });
});
