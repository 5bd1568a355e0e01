import { createHash } from 'node:crypto';
import { blockdev } from '../adapters/blockdev.js';
import { settle, type Medium } from './medium.js';

/** A sampled read-back after a firmware erase (NIST 4.7 representative sampling). */
export interface SampleStats {
  readonly sha256: string;
  readonly samples: number;
  /** Samples whose bytes repeat with a period of at most 16 bytes (zeros, 0xFF, a vendor fill such as 33 CC 55 AA). */
  readonly periodicSamples: number;
}

const periodic = (b: Buffer): boolean => {
  for (const period of [1, 2, 4, 8, 16]) {
    if (b.length < period * 2) continue;
    const head = b.subarray(0, period);
    let same = true;
    for (let at = period; at < b.length && same; at += period) same = head.equals(b.subarray(at, at + period));
    if (same) return true;
  }
  return false;
};

/**
 * Reads `count` chunks spread evenly over the medium (first and last included) and hashes them.
 * Crypto erase leaves ciphertext, so a non-periodic sample is reported, not treated as failure.
 */
export async function sampleReadBack(medium: Medium, count = 64, chunk = 1024 * 1024): Promise<SampleStats> {
  const size = Math.min(chunk - (chunk % medium.alignment), medium.sizeBytes);
  const buffer = blockdev().alignedBuffer(size, Math.max(medium.alignment, 4096));
  await settle(medium);
  const hash = createHash('sha256');
  const last = medium.sizeBytes - size;
  let periodicSamples = 0;
  const n = Math.max(1, Math.min(count, Math.floor(medium.sizeBytes / size)));
  for (let i = 0; i < n; i++) {
    const raw = n === 1 ? 0 : Math.floor((last * i) / (n - 1));
    const offset = raw - (raw % medium.alignment);
    const { bytesRead } = await medium.handle.read(buffer, 0, size, offset);
    const bytes = buffer.subarray(0, bytesRead);
    hash.update(bytes);
    if (periodic(bytes)) periodicSamples += 1;
  }
  return { sha256: hash.digest('hex'), samples: n, periodicSamples };
}
