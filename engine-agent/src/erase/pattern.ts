import { createCipheriv, randomBytes } from 'node:crypto';

/** What an overwrite pass writes: zeros, or an AES-128-CTR keystream from a recorded seed. */
export type Pattern = { readonly kind: 'zero' } | { readonly kind: 'prng'; readonly seed: Buffer };

/** A fresh PRNG pattern with a random 128-bit key. The seed is kept so verification can regenerate it. */
export const prngPattern = (seed: Buffer = randomBytes(16)): Pattern => ({ kind: 'prng', seed });

/** The zero pattern. */
export const ZERO: Pattern = { kind: 'zero' };

// Keystream is produced in 1 MiB pieces. Measured (issue 3): the piece size barely matters
// (64 KiB to 4 MiB within 15 %); what costs is cipher.update allocating its output, which glibc
// maps and trims per call unless the heap is tuned (KeystreamPool does that for the erase path).
// The erase path generates in worker threads (keystream-pool.ts); this is the reference the
// tests check those workers against.
const PIECE = 1024 * 1024;
const zeros = Buffer.alloc(PIECE);

/** The CTR counter block for a byte offset: the keystream is addressable, so any chunk can be regenerated alone. */
function counterAt(offset: number): Buffer {
  if (offset % 16 !== 0) throw new RangeError(`PRNG offsets are 16-byte aligned, got ${offset}`);
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(offset / 16), 8);
  return iv;
}

/**
 * Writes the pattern's bytes for `[offset, offset + target.length)` into `target`.
 * Pure with respect to (pattern, offset): the verifier calls it again to know what to expect.
 */
export function fillPattern(pattern: Pattern, offset: number, target: Buffer): void {
  if (pattern.kind === 'zero') {
    target.fill(0);
    return;
  }
  const cipher = createCipheriv('aes-128-ctr', pattern.seed, counterAt(offset));
  for (let at = 0; at < target.length; at += PIECE) {
    const length = Math.min(PIECE, target.length - at);
    cipher.update(length === PIECE ? zeros : zeros.subarray(0, length)).copy(target, at);
  }
}

/** Short label for reports. */
export const patternLabel = (p: Pattern): string => (p.kind === 'zero' ? 'zeros' : 'AES-128-CTR keystream');
