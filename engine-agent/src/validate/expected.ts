/**
 * What a validation expects each sector to hold, from what the erasure method left: zeros, the
 * last pass's fixed pattern, or high-entropy bytes (after a cryptographic erase or a final random
 * pass, where no fixed content can be predicted). Plain functions over buffers; written apart
 * from the erase code on purpose, so a fault there cannot hide itself here.
 */
export type Expected =
  | { readonly kind: 'zeros' }
  | { readonly kind: 'pattern'; readonly pattern: Buffer }
  | { readonly kind: 'random' };

/** In words, for the report: "zeros", "the pattern 0xFF", "high-entropy data". */
export function describeExpected(expected: Expected): string {
  switch (expected.kind) {
    case 'zeros':
      return 'zeros';
    case 'pattern':
      return `the pattern 0x${expected.pattern.toString('hex').toUpperCase()}`;
    case 'random':
      return 'high-entropy data (as a cryptographic erase or a random pass leaves)';
  }
}

/**
 * Bits of entropy per byte of a block (Shannon, over its byte histogram). 4 KiB of random bytes
 * measure about 7.95; text, file formats and zero-padded data measure far lower.
 */
export function entropyBitsPerByte(block: Buffer): number {
  const counts = new Uint32Array(256);
  for (let i = 0; i < block.length; i += 1) counts[block[i]!]! += 1;
  let bits = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const p = count / block.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Below this a 4 KiB block is not what a cipher or random pass wrote. */
export const MIN_RANDOM_ENTROPY = 7.5;

/**
 * A chunk-sized buffer of what the bytes from `offset` should be, for one memcmp per chunk (zeros,
 * pattern). A pattern repeats from the drive's first byte, so a chunk starts at its phase.
 */
export function referenceChunk(expected: Expected, size: number, offset = 0): Buffer | undefined {
  if (expected.kind === 'zeros') return Buffer.alloc(size);
  if (expected.kind === 'pattern') {
    const { pattern } = expected;
    const phase = offset % pattern.length;
    const chunk = Buffer.alloc(size);
    chunk.fill(Buffer.concat([pattern.subarray(phase), pattern.subarray(0, phase)]));
    return chunk;
  }
  return undefined;
}

/** Whether one block holds what the method left (`reference`: the same bytes of the reference chunk). */
export function blockMatches(expected: Expected, block: Buffer, reference: Buffer | undefined): boolean {
  if (expected.kind === 'random') return entropyBitsPerByte(block) >= MIN_RANDOM_ENTROPY;
  return reference !== undefined && block.equals(reference.subarray(0, block.length));
}
