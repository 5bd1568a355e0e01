import { afterEach, describe, expect, it } from 'vitest';
import { blockdev } from '../adapters/blockdev.js';
import { KeystreamPool, sharedSlots } from './keystream-pool.js';
import { fillPattern, prngPattern } from './pattern.js';

const MiB = 1024 * 1024;
let sut: KeystreamPool | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

describe('KeystreamPool', () => {
  it('hands out shared slots aligned for O_DIRECT', () => {
    const slots = sharedSlots(3, MiB, 4096);
    for (const b of slots.buffers) {
      expect(b.length).toBe(MiB);
      expect(blockdev().addressMod(b) % 4096).toBe(0);
    }
  });

  it('fills a slot with exactly the keystream of the reference fillPattern, at any offset, piece boundaries included', async () => {
    const pattern = prngPattern();
    const slots = sharedSlots(2, 3 * MiB, 4096);
    sut = new KeystreamPool(pattern.seed, slots, 2);
    // An odd length spanning pieces, at an offset far into the device.
    const offset = 7 * 1024 * MiB + 4096;
    const length = 2 * MiB + 512;
    await Promise.all([sut.fill(0, offset, length), sut.fill(1, 0, MiB)]);
    const expected = Buffer.alloc(length);
    fillPattern(pattern, offset, expected);
    expect(slots.buffers[0]?.subarray(0, length).equals(expected)).toBe(true);
    const first = Buffer.alloc(MiB);
    fillPattern(pattern, 0, first);
    expect(slots.buffers[1]?.subarray(0, MiB).equals(first)).toBe(true);
  });

  it('matches a slot holding the keystream and rejects one with a single flipped byte', async () => {
    const pattern = prngPattern();
    const slots = sharedSlots(1, 2 * MiB, 4096);
    sut = new KeystreamPool(pattern.seed, slots, 1);
    const slot = slots.buffers[0] as Buffer;
    fillPattern(pattern, 4 * MiB, slot);
    expect(await sut.matches(0, 4 * MiB, 2 * MiB)).toBe(true);
    expect(await sut.matches(0, 6 * MiB, 2 * MiB)).toBe(false); // right bytes, wrong place
    slot[MiB + 17] = (slot[MiB + 17] ?? 0) ^ 1;
    expect(await sut.matches(0, 4 * MiB, 2 * MiB)).toBe(false);
  });

  it('refuses offsets that are not counter-block aligned and rejects work after close', async () => {
    const slots = sharedSlots(1, MiB, 4096);
    const pool = new KeystreamPool(prngPattern().seed, slots, 1);
    await expect(pool.fill(0, 8, 16)).rejects.toThrow(/16-byte aligned/);
    await pool.close();
    await expect(pool.fill(0, 0, 16)).rejects.toThrow(/closed/);
  });
});
