/**
 * File and disk signatures (magic numbers) a validation looks for in sectors that are not what
 * the erasure left. Files and filesystems start on sector boundaries, so each signature is
 * checked at its fixed offset within a sector, never at every byte: that keeps the scan cheap
 * and random bytes from "finding" two-byte signatures everywhere. Names are plain words for the
 * report a customer reads. Sources: each format's own specification (PDF 1.7 §7.5.2, APPNOTE
 * 4.3.7, JFIF, PNG §5.2, ELF gABI, PE/COFF §2, SQLite file format §1.3, UEFI 2.10 §5.3.2, ext4
 * disk layout, NTFS boot sector, FAT32 BPB, XFS superblock, LUKS1/2, gzip RFC 1952).
 */
export interface Signature {
  /** What was found, in words: "a PDF document". */
  readonly name: string;
  /** Offset of the magic within the sector (for `sectorOffset` 0, at the sector's first byte). */
  readonly at: number;
  readonly magic: Buffer;
  /** A second check that rules out chance matches of short magics. */
  readonly also?: (sector: Buffer) => boolean;
}

const bytes = (text: string) => Buffer.from(text, 'latin1');

export const SIGNATURES: readonly Signature[] = [
  { name: 'a PDF document', at: 0, magic: bytes('%PDF-') },
  { name: 'a ZIP archive or Office document (docx, xlsx, pptx)', at: 0, magic: Buffer.from([0x50, 0x4b, 0x03, 0x04]) },
  { name: 'a JPEG image', at: 0, magic: Buffer.from([0xff, 0xd8, 0xff]), also: (s) => s[3] !== undefined && s[3] >= 0xc0 },
  { name: 'a PNG image', at: 0, magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { name: 'a Linux program or library (ELF)', at: 0, magic: Buffer.from([0x7f, 0x45, 0x4c, 0x46]) },
  { name: 'a Windows program (MZ/PE)', at: 0, magic: bytes('MZ'), also: (s) => s.includes(bytes('This program cannot be run in DOS mode')) || peHeaderAt(s) },
  { name: 'an SQLite database', at: 0, magic: bytes('SQLite format 3\u0000') },
  { name: 'a gzip archive', at: 0, magic: Buffer.from([0x1f, 0x8b, 0x08]) },
  { name: 'a GPT partition table header', at: 0, magic: bytes('EFI PART') },
  { name: 'an MBR partition table or boot sector', at: 510, magic: Buffer.from([0x55, 0xaa]), also: (s) => !s.subarray(446, 510).every((b) => b === 0) },
  { name: 'an ext2/3/4 filesystem superblock', at: 56, magic: Buffer.from([0x53, 0xef]), also: (s) => s.readUInt32LE(0) > 0 && s.readUInt32LE(4) > 0 && s.readUInt32LE(24) <= 6 },
  { name: 'an NTFS filesystem boot sector', at: 3, magic: bytes('NTFS    ') },
  { name: 'a FAT32 filesystem boot sector', at: 82, magic: bytes('FAT32   ') },
  { name: 'a FAT12/16 filesystem boot sector', at: 54, magic: bytes('FAT1') },
  { name: 'an XFS filesystem superblock', at: 0, magic: bytes('XFSB') },
  { name: 'a LUKS encrypted volume header', at: 0, magic: Buffer.from([0x4c, 0x55, 0x4b, 0x53, 0xba, 0xbe]) },
];

function peHeaderAt(sector: Buffer): boolean {
  if (sector.length < 0x40) return false;
  const at = sector.readUInt32LE(0x3c);
  return at + 4 <= sector.length && sector.readUInt32BE(at) === 0x50450000;
}

/** The signatures found in one sector (its bytes from its first byte), by name. */
export function signaturesIn(sector: Buffer): string[] {
  const found: string[] = [];
  for (const sig of SIGNATURES) {
    if (sig.at + sig.magic.length > sector.length) continue;
    if (sector.compare(sig.magic, 0, sig.magic.length, sig.at, sig.at + sig.magic.length) !== 0) continue;
    if (sig.also && !sig.also(sector)) continue;
    found.push(sig.name);
  }
  return found;
}
