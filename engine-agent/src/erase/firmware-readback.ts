import { openMedium, type Medium } from './medium.js';
import { planSample, readSample, type SampleReadOptions } from './sample-read.js';

/**
 * After a firmware erase the drive decides what its medium reads back as: zeros mostly, a vendor
 * pattern sometimes (a Seagate writes `33 CC 55 AA` on Purge), random-looking data after a crypto
 * erase. So the read-back accepts one periodic pattern across every block read, or, after a crypto
 * erase only, high-entropy blocks; anything else (old data, a surviving marker in a zero field,
 * two different patterns) fails (ERASURE-NOTES, gap 7).
 */
export interface FirmwareReadback {
  readonly ok: boolean;
  readonly blocksRead: number;
  readonly blockBytes: number;
  readonly blocks: number;
  readonly percent: number;
  /** What the blocks showed, in a customer's words. */
  readonly showed: string;
  readonly sha256: string;
}

/** Periods a vendor fill may have (bytes); all divide the 4 KiB a block is at least. */
const PERIODS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/** The shortest run the block repeats, or undefined when it is not periodic. */
function periodicRun(block: Buffer): Buffer | undefined {
  for (const p of PERIODS) {
    if (block.length % p !== 0) continue;
    // The block equal to itself shifted by p has period p.
    if (block.subarray(p).equals(block.subarray(0, block.length - p))) return Buffer.from(block.subarray(0, p));
  }
  return undefined;
}

/** Shannon entropy in bits per byte. A random 4 KiB block measures about 7.95; text and zero fields far less. */
export function entropyBits(block: Buffer): number {
  const counts = new Array<number>(256).fill(0);
  for (const b of block) counts[b] = (counts[b] ?? 0) + 1;
  let bits = 0;
  for (const c of counts) if (c > 0) bits -= (c / block.length) * Math.log2(c / block.length);
  return bits;
}

/** Entropy above which a block counts as keystream-like (crypto erase); 4 KiB of random bytes measures ~7.95. */
const HIGH_ENTROPY = 7.5;

const hex = (b: Buffer) => [...b.subarray(0, 8)].map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ') + (b.length > 8 ? ' …' : '');

/**
 * Reads N % of the device (100: every block) after its firmware erase and judges it as above.
 * `percent` 100 reads every block.
 */
export async function readBackAfterFirmware(device: string, percent: number, crypto: boolean, options: SampleReadOptions = {}): Promise<FirmwareReadback> {
  const medium: Medium = await openMedium(device);
  try {
    const plan = planSample(medium.sizeBytes, medium.alignment, percent);
    let run: Buffer | undefined;
    let uniform = 0;
    let random = 0;
    let other = 0;
    let mixed = false;
    const stats = await readSample(
      medium,
      plan,
      (block) => {
        const found = periodicRun(block);
        if (found) {
          // A vendor fill repeats across the whole drive; a block with another run is not that fill.
          run ??= found;
          if (!found.equals(run)) {
            mixed = true;
            return false;
          }
          uniform += 1;
          return true;
        }
        if (crypto && entropyBits(block) >= HIGH_ENTROPY) {
          random += 1;
          return true;
        }
        other += 1;
        return false;
      },
      options,
    );
    const parts: string[] = [];
    if (uniform > 0 && run) parts.push(`${uniform} read back as one repeating pattern (${hex(run)})`);
    if (random > 0) parts.push(`${random} as random-looking data, as a crypto erase leaves it`);
    if (other > 0) parts.push(`${other} held other data (neither one pattern nor${crypto ? ' random-looking' : ''} erased data)`);
    if (mixed) parts.push('some blocks held a different pattern');
    return { ok: stats.bad === 0 && stats.blocksRead > 0, blocksRead: stats.blocksRead, blockBytes: plan.blockBytes, blocks: plan.blocks, percent, showed: parts.join(', '), sha256: stats.sha256 };
  } finally {
    await medium.handle.close();
  }
}
