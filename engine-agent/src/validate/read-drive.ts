import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { blockdev } from '../adapters/blockdev.js';
import { blockMatches, MIN_RANDOM_ENTROPY, referenceChunk, type Expected } from './expected.js';
import { signaturesIn } from './signatures.js';

/** One thing found where the erasure should have left nothing. */
export interface Finding {
  /** Byte offset on the drive of the sector it starts in. */
  readonly offset: number;
  readonly what: string;
}

/** What a full validation read saw. */
export interface ValidationRead {
  readonly device: string;
  readonly bytesRead: number;
  readonly sectorSize: number;
  /** 4 KiB blocks (the last one may be shorter) whose bytes are not what the method left. */
  readonly mismatchedBlocks: number;
  readonly firstMismatchAt: number | null;
  /**
   * Blocks that read as zeros where something else was expected: deallocated. The erase discards
   * (TRIMs) a drive after its overwrite, and most SSDs then read zeros, whatever the last pass
   * wrote. A block of zeros holds no data, so it meets the need a validation checks.
   */
  readonly zeroBlocks: number;
  /** File and disk signatures found in those blocks, in drive order, at most `maxFindings`. */
  readonly findings: readonly Finding[];
  readonly approved: boolean;
}

export interface ReadOptions {
  readonly device: string;
  readonly expected: Expected;
  /** Bytes per read (default 8 MiB, a multiple of 4 KiB). */
  readonly chunkBytes?: number;
  readonly maxFindings?: number;
  /** Called after each chunk (bytes done, total), for progress. */
  readonly onProgress?: (done: number, total: number) => void;
}

const BLOCK = 4096;
const SECTOR_SCAN = 512;
/** Slices a chunk's entropy is measured in, side by side. */
const ENTROPY_SLICES = 4;

/**
 * Reads a whole drive with O_DIRECT (the medium, not the page cache) and checks every 4 KiB
 * block against what the erasure method left; blocks that differ are scanned sector by sector
 * for file and disk signatures. Two buffers alternate, so the next read is in flight while the
 * current chunk is checked: the read runs at the drive's sequential speed, like `dd`.
 * Independent of the erase code on purpose (issue 29): it shares only the aligned-buffer addon.
 */
export async function readAndCheckDrive(options: ReadOptions): Promise<ValidationRead> {
  const chunkBytes = options.chunkBytes ?? 8 * 1024 * 1024;
  if (chunkBytes % BLOCK !== 0) throw new Error(`chunkBytes must be a multiple of ${BLOCK}`);
  const maxFindings = options.maxFindings ?? 50;
  const addon = blockdev();
  const handle = await open(options.device, constants.O_RDONLY | constants.O_DIRECT);
  try {
    // A simulated machine's drives are image files: their size is the file's, in 512-byte sectors.
    const stat = await handle.stat();
    const file = stat.isFile();
    const total = file ? stat.size : addon.deviceSize(handle.fd);
    const sectorSize = file ? 512 : addon.sectorSize(handle.fd);
    const buffers = [addon.alignedBuffer(chunkBytes, 4096), addon.alignedBuffer(chunkBytes, 4096)];
    const fixedReference = options.expected.kind === 'pattern' ? undefined : referenceChunk(options.expected, chunkBytes);
    // High-entropy blocks: each 4 KiB block's byte histogram, in C when the addon has it (the JS
    // loop reads a fraction of the drive's speed), else in JS; the same measure either way.
    // The chunk is measured in slices on the thread pool, so several cores share it beside the
    // next read (one core's histogram is slower than a fast drive).
    const entropies = new Float64Array(Math.ceil(chunkBytes / BLOCK));
    const measure = options.expected.kind === 'random' ? addon.blockEntropyAsync?.bind(addon) : undefined;
    const entropyOf = measure
      ? async (chunk: Buffer) => {
          const slice = Math.max(BLOCK, Math.ceil(chunk.length / ENTROPY_SLICES / BLOCK) * BLOCK);
          const jobs: Array<Promise<number>> = [];
          for (let at = 0; at < chunk.length; at += slice) jobs.push(measure(chunk.subarray(at, at + slice), BLOCK, entropies.subarray(at / BLOCK)));
          await Promise.all(jobs);
        }
      : undefined;
    const findings: Finding[] = [];
    let mismatched = 0;
    let firstMismatch: number | null = null;
    let zeroBlocks = 0;
    const zeroBlock = Buffer.alloc(BLOCK);

    const readAt = async (offset: number, buffer: Buffer): Promise<number> => {
      const length = Math.min(chunkBytes, total - offset);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await handle.read(buffer, got, length - got, offset + got);
        if (bytesRead === 0) throw new Error(`${options.device} ended at byte ${offset + got}, before its size ${total}`);
        got += bytesRead;
      }
      return got;
    };

    let offset = 0;
    let index = 0;
    let pending = total > 0 ? readAt(0, buffers[0]!) : undefined;
    while (pending) {
      const length = await pending;
      const chunk = buffers[index % 2]!.subarray(0, length);
      const next = offset + length;
      pending = next < total ? readAt(next, buffers[(index + 1) % 2]!) : undefined;
      const reference = fixedReference ?? referenceChunk(options.expected, chunkBytes, offset);
      // Fast path: the whole chunk is what the method left (one memcmp).
      if (!(reference && chunk.equals(reference.subarray(0, length)))) {
        await entropyOf?.(chunk);
        for (let at = 0; at < length; at += BLOCK) {
          if (entropyOf && (entropies[at / BLOCK] as number) >= MIN_RANDOM_ENTROPY) continue;
          const block = chunk.subarray(at, Math.min(at + BLOCK, length));
          if (!entropyOf && blockMatches(options.expected, block, reference?.subarray(at, at + block.length))) continue;
          if (block.equals(zeroBlock.subarray(0, block.length))) {
            zeroBlocks += 1;
            continue;
          }
          mismatched += 1;
          firstMismatch ??= offset + at;
          for (let s = 0; s < block.length && findings.length < maxFindings; s += SECTOR_SCAN) {
            for (const what of signaturesIn(block.subarray(s, s + SECTOR_SCAN))) {
              if (findings.length < maxFindings) findings.push({ offset: offset + at + s, what });
            }
          }
        }
      }
      offset = next;
      index += 1;
      options.onProgress?.(offset, total);
    }
    return { device: options.device, bytesRead: offset, sectorSize, mismatchedBlocks: mismatched, firstMismatchAt: firstMismatch, zeroBlocks, findings, approved: mismatched === 0 };
  } finally {
    await handle.close();
  }
}
