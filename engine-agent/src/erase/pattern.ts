import { createCipheriv, randomBytes } from 'node:crypto';
import type { PassPattern } from '@erasure/shared';

/**
 * What an overwrite pass writes: zeros, a repeating run of bytes laid from byte 0 of the device
 * (0xFF, 0xAA, Gutmann's 0x92 0x49 0x24), or an AES-128-CTR keystream from a recorded seed.
 */
export type Pattern = { readonly kind: 'zero' } | { readonly kind: 'fill'; readonly bytes: Buffer } | { readonly kind: 'prng'; readonly seed: Buffer };

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
  if (pattern.kind === 'fill') {
    // Buffer.fill repeats from the run's start: rotate the run so byte `offset` gets its own byte.
    const period = pattern.bytes.length;
    const phase = offset % period;
    target.fill(Buffer.concat([pattern.bytes.subarray(phase), pattern.bytes.subarray(0, phase)]));
    return;
  }
  const cipher = createCipheriv('aes-128-ctr', pattern.seed, counterAt(offset));
  for (let at = 0; at < target.length; at += PIECE) {
    const length = Math.min(PIECE, target.length - at);
    cipher.update(length === PIECE ? zeros : zeros.subarray(0, length)).copy(target, at);
  }
}

const hex = (bytes: Buffer) => [...bytes].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');

/** Short label for reports. */
export const patternLabel = (p: Pattern): string => (p.kind === 'zero' ? 'zeros' : p.kind === 'fill' ? `pattern ${hex(p.bytes)}` : 'AES-128-CTR keystream');

/** A fixed byte run as a pattern: all zeros stays the zero pattern (its writes share one buffer). */
export function bytesPattern(bytes: readonly number[]): Pattern {
  return bytes.every((b) => b === 0) ? ZERO : { kind: 'fill', bytes: Buffer.from(bytes) };
}

/**
 * The patterns of a catalogue method's passes, with fresh PRNG seeds. `complement` is the bitwise
 * complement of the pass before; the catalogue only puts it after a fixed pattern (a complement
 * of a keystream is another keystream, and no source asks for one), so anything else throws.
 */
export function passPatterns(passes: readonly { readonly pattern: PassPattern }[]): Pattern[] {
  const out: Pattern[] = [];
  for (const { pattern } of passes) {
    const before = out.at(-1);
    switch (pattern.kind) {
      case 'zero':
        out.push(ZERO);
        break;
      case 'one':
        out.push(bytesPattern([0xff]));
        break;
      case 'byte':
        out.push(bytesPattern([pattern.value]));
        break;
      case 'bytes':
        out.push(bytesPattern(pattern.values));
        break;
      case 'prng':
        out.push(prngPattern());
        break;
      case 'complement':
        if (!before || before.kind === 'prng') throw new RangeError('a complement pass must follow a fixed-pattern pass');
        out.push(bytesPattern(before.kind === 'zero' ? [0xff] : [...before.bytes].map((b) => ~b & 0xff)));
        break;
    }
  }
  return out;
}

/**
 * Buffers holding a fixed pattern for any chunk-aligned offset: one per phase of the run (a
 * 3-byte run over 4 MiB chunks starts each chunk at another byte of the run), built on first use
 * and aligned for O_DIRECT. Zero and single-byte patterns need one.
 */
export function fixedBuffers(pattern: Exclude<Pattern, { kind: 'prng' }>, size: number, alloc: (size: number) => Buffer): (offset: number) => Buffer {
  const period = pattern.kind === 'zero' ? 1 : pattern.bytes.length;
  const built = new Map<number, Buffer>();
  return (offset) => {
    const phase = offset % period;
    let buffer = built.get(phase);
    if (!buffer) {
      buffer = alloc(size);
      fillPattern(pattern, phase, buffer);
      built.set(phase, buffer);
    }
    return buffer;
  };
}
