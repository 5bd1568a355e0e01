import { createHash, randomBytes, randomInt } from 'node:crypto';
import { blockdev } from '../adapters/blockdev.js';
import { settle, type Medium } from './medium.js';

/** Markers planted before every firmware erase (issue 21: at least 256). */
export const MARKER_COUNT = 256;

/**
 * A marker "survives" when any piece of this many bytes is still in its place. 32 random bytes
 * matching by chance is 2^-256, so a crypto erase never trips it, while an erase that reached only
 * one 512-byte sector of a 4 KiB block, or shifted nothing, is still caught.
 */
const PIECE = 32;

/**
 * The LBAs that get a marker: the first and the last block, half of them spread evenly between,
 * the rest random (so firmware cannot guess them), sorted and unique. A device with fewer blocks
 * than `count` gets a marker in every block. `pick(n)` draws in [0, n); tests pass their own.
 */
export function markerLbas(blocks: number, count = MARKER_COUNT, pick: (n: number) => number = (n) => randomInt(n)): number[] {
  if (!Number.isSafeInteger(blocks) || blocks < 1) throw new RangeError(`a device of ${blocks} blocks has no room for markers`);
  if (blocks <= count) return Array.from({ length: blocks }, (_, i) => i);
  const chosen = new Set<number>();
  const spread = Math.max(2, Math.floor(count / 2));
  for (let i = 0; i < spread; i++) chosen.add(Math.floor((i * (blocks - 1)) / (spread - 1)));
  // blocks > count, so this ends; each draw hits a free block with probability > 1 - count/blocks.
  while (chosen.size < count) chosen.add(pick(blocks));
  return [...chosen].sort((a, b) => a - b);
}

/** Unique random blocks, one per LBA, kept in memory only: the firmware cannot predict them. */
export interface MarkerSet {
  readonly blockSize: number;
  readonly lbas: readonly number[];
  readonly blocks: readonly Buffer[];
}

/** Planting failed: a write failed, or a marker did not read back as written (so nothing could be proven). */
export type PlantResult = { readonly ok: true; readonly markers: MarkerSet } | { readonly ok: false; readonly reason: string };

/**
 * Writes a unique random block at each marker LBA with O_DIRECT writes of one logical block
 * (512 or 4096 bytes: the medium's alignment), makes them durable (fdatasync + BLKFLSBUF) and
 * reads every one back from the medium, to prove they landed before the firmware erase runs.
 */
export async function plantMarkers(medium: Medium, count = MARKER_COUNT): Promise<PlantResult> {
  const blockSize = medium.alignment;
  const lbas = markerLbas(Math.floor(medium.sizeBytes / blockSize), count);
  const blocks = lbas.map(() => randomBytes(blockSize));
  const io = blockdev().alignedBuffer(blockSize, Math.max(blockSize, 4096));
  for (const [i, lba] of lbas.entries()) {
    (blocks[i] as Buffer).copy(io);
    const { bytesWritten } = await medium.handle.write(io, 0, blockSize, lba * blockSize);
    if (bytesWritten !== blockSize) return { ok: false, reason: `short write at LBA ${lba}: ${bytesWritten} of ${blockSize} bytes` };
  }
  await settle(medium);
  let missing = 0;
  let first: number | undefined;
  for (const [i, lba] of lbas.entries()) {
    const { bytesRead } = await medium.handle.read(io, 0, blockSize, lba * blockSize);
    if (bytesRead !== blockSize || !io.equals(blocks[i] as Buffer)) {
      missing += 1;
      first ??= lba;
    }
  }
  if (missing > 0) return { ok: false, reason: `${missing} of ${lbas.length} test patterns did not read back as written (first at LBA ${first})` };
  return { ok: true, markers: { blockSize, lbas, blocks } };
}

/** What the marker LBAs held after the firmware erase. */
export interface MarkerCheck {
  readonly total: number;
  /** Markers with at least one 32-byte piece still in place. */
  readonly survived: number;
  /** Marker LBAs whose read failed or came back short: nothing proves those were erased. */
  readonly unreadable: number;
  /** Gone markers that read back as a fill pattern (zeros, 0xFF, a vendor pattern) rather than other data. */
  readonly filled: number;
  readonly firstSurvivor?: number;
  /** SHA-256 over the marker blocks as re-read, in LBA order: the wipe result's verification hash. */
  readonly sha256: string;
}

const survives = (now: Buffer, marker: Buffer): boolean => {
  for (let at = 0; at + PIECE <= marker.length; at += PIECE) {
    if (now.subarray(at, at + PIECE).equals(marker.subarray(at, at + PIECE))) return true;
  }
  return false;
};

const periodic = (b: Buffer): boolean =>
  [1, 2, 4, 8, 16].some((period) => {
    const head = b.subarray(0, period);
    for (let at = period; at < b.length; at += period) if (!head.equals(b.subarray(at, at + period))) return false;
    return true;
  });

/**
 * Reads every marker LBA back from the medium (BLKFLSBUF first, so no cached copy answers) and
 * counts the markers still there. Read errors are counted, never taken as erased (fail closed).
 */
export async function checkMarkers(medium: Medium, markers: MarkerSet): Promise<MarkerCheck> {
  const { blockSize } = markers;
  const io = blockdev().alignedBuffer(blockSize, Math.max(blockSize, 4096));
  await settle(medium);
  const hash = createHash('sha256');
  let survived = 0;
  let unreadable = 0;
  let filled = 0;
  let firstSurvivor: number | undefined;
  for (const [i, lba] of markers.lbas.entries()) {
    const got = await medium.handle.read(io, 0, blockSize, lba * blockSize).then(
      (r) => r.bytesRead,
      () => -1,
    );
    if (got !== blockSize) {
      unreadable += 1;
      continue;
    }
    hash.update(io);
    if (survives(io, markers.blocks[i] as Buffer)) {
      survived += 1;
      firstSurvivor ??= lba;
    } else if (periodic(io)) filled += 1;
  }
  return { total: markers.lbas.length, survived, unreadable, filled, ...(firstSurvivor !== undefined ? { firstSurvivor } : {}), sha256: hash.digest('hex') };
}

/** True when the check proves the erase: every marker read back, and none survived. */
export const markersGone = (c: MarkerCheck): boolean => c.survived === 0 && c.unreadable === 0 && c.total > 0;

/** The check in the words a customer reads on the certificate. */
export function describeMarkers(c: MarkerCheck): string {
  const gone = c.total - c.survived - c.unreadable;
  if (markersGone(c)) {
    const other = c.total - c.filled;
    const how = other === 0 ? 'all read back as a uniform fill' : c.filled === 0 ? 'all read back as unrelated data, as a cryptographic erase leaves them' : `${c.filled} read back as a uniform fill, ${other} as unrelated data`;
    return `${c.total} of ${c.total} test patterns written before the erase were gone after it (${how})`;
  }
  const parts = [
    ...(c.survived > 0 ? [`${c.survived} of ${c.total} test patterns written before the erase were still there after it (the first at LBA ${c.firstSurvivor ?? '?'})`] : []),
    ...(c.unreadable > 0 ? [`${c.unreadable} of ${c.total} test patterns could not be read back after the erase`] : []),
    ...(gone > 0 ? [`${gone} of ${c.total} were gone`] : []),
  ];
  return parts.join('; ');
}
