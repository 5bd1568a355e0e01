import { describe, expect, it } from 'vitest';
import { pickAtRandom, sampleTarget } from './sampling.js';

describe('sampleTarget: how many drives of a lot are validated', () => {
  it.each([
    // certified, rate, closed, target
    [0, 5, true, 0],
    [1, 5, false, 0],
    [19, 5, false, 0],
    [20, 5, false, 1],
    [39, 5, false, 1],
    [40, 5, false, 2],
    [1, 5, true, 1],
    [21, 5, true, 2],
    [3, 50, true, 2],
    [3, 100, false, 3],
  ])('%i certified at %i %% (closed: %s) → %i', (certified, rate, closed, target) => {
    expect(sampleTarget(certified, rate, closed)).toBe(target);
  });
});

describe('pickAtRandom', () => {
  it('picks distinct items of the pool, as many as asked or the whole pool', () => {
    const pool = Array.from({ length: 50 }, (_, i) => i);
    const picked = pickAtRandom(pool, 7);
    expect(new Set(picked).size).toBe(7);
    for (const p of picked) expect(pool).toContain(p);
    expect(pickAtRandom([1, 2], 5).sort()).toEqual([1, 2]);
  });

  it('follows the random source it is given (every index reachable)', () => {
    expect(pickAtRandom(['a', 'b', 'c'], 1, () => 2)).toEqual(['c']);
    expect(pickAtRandom(['a', 'b', 'c'], 1, () => 0)).toEqual(['a']);
  });
});
