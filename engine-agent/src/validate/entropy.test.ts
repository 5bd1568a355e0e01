import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blockdev } from '../adapters/blockdev.js';
import { entropyBitsPerByte, MIN_RANDOM_ENTROPY } from './expected.js';

describe('the entropy of each 4 KiB block, measured in the addon for the validation read', () => {
  it('equals the JS measure block by block: random bytes, text, one byte repeated, and a short last block', () => {
    const chunk = Buffer.concat([randomBytes(3 * 4096), Buffer.from('%PDF-1.7 customer invoice '.repeat(160)).subarray(0, 4096), Buffer.alloc(4096, 0x5a), randomBytes(1000)]);
    const out = new Float64Array(6);
    expect(blockdev().blockEntropy?.(chunk, 4096, out)).toBe(6);
    const js = Array.from({ length: 6 }, (_, i) => entropyBitsPerByte(chunk.subarray(i * 4096, (i + 1) * 4096)));
    expect([...out]).toEqual(js);
    // What the validation decides from it: random blocks pass, the document and the fill do not.
    expect([...out].slice(0, 5).map((bits) => bits >= MIN_RANDOM_ENTROPY)).toEqual([true, true, true, false, false]);
  });

  it('measures the same on the thread pool, into the part of the output it is given', async () => {
    const chunk = Buffer.concat([Buffer.alloc(4096, 1), randomBytes(2 * 4096)]);
    const out = new Float64Array(4).fill(-1);
    expect(await blockdev().blockEntropyAsync?.(chunk.subarray(4096), 4096, out.subarray(2))).toBe(2);
    expect([...out]).toEqual([-1, -1, entropyBitsPerByte(chunk.subarray(4096, 8192)), entropyBitsPerByte(chunk.subarray(8192))]);
  });

  it('refuses an output too small for the buffer', () => {
    expect(() => blockdev().blockEntropy?.(Buffer.alloc(8192), 4096, new Float64Array(1))).toThrow(/fewer entries/);
  });
});
