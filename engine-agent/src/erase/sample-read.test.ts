import { describe, expect, it } from 'vitest';
import { planSample, sampleBlockBytes } from './sample-read.js';

const MiB = 1024 * 1024;

describe('the blocks a sampled verification reads', () => {
  it('reads N % of the blocks, at least two in every 1/100 of the drive, distinct and in ascending order', () => {
    const size = 64 * MiB;
    for (const percent of [1, 10, 50]) {
      const plan = planSample(size, 512, percent);
      expect(plan.blockBytes).toBe(4096);
      expect(plan.blocks).toBe(16384);
      expect(new Set(plan.picks).size).toBe(plan.picks.length);
      expect([...plan.picks].sort((a, b) => a - b)).toEqual(plan.picks);
      for (let s = 0; s < 100; s++) {
        const from = Math.floor((s * plan.blocks) / 100);
        const to = Math.floor(((s + 1) * plan.blocks) / 100);
        const inside = plan.picks.filter((b) => b >= from && b < to).length;
        expect(inside).toBeGreaterThanOrEqual(2);
        // N % of the subsection, rounded up.
        expect(inside).toBe(Math.max(2, Math.ceil(((to - from) * percent) / 100)));
      }
      // No more than one block per subsection above N % of the drive.
      expect(plan.picks.length).toBeGreaterThanOrEqual((plan.blocks * percent) / 100);
      expect(plan.picks.length).toBeLessThanOrEqual((plan.blocks * percent) / 100 + 100);
    }
  });

  it('reads every block at 100 %', () => {
    const plan = planSample(8 * MiB, 4096, 100);
    expect(plan.picks).toEqual(Array.from({ length: plan.blocks }, (_, i) => i));
  });

  it('spreads its samples at random: two plans of one drive differ', () => {
    expect(planSample(64 * MiB, 512, 10).picks).not.toEqual(planSample(64 * MiB, 512, 10).picks);
  });

  it('uses 1 MiB blocks on a large drive and smaller ones on a small drive, never below the sector size', () => {
    expect(sampleBlockBytes(1e12, 512)).toBe(MiB);
    expect(sampleBlockBytes(4 * MiB, 512)).toBe(4096);
    expect(sampleBlockBytes(4 * MiB, 8192)).toBe(8192);
  });

  it('refuses a level outside 1..100', () => {
    expect(() => planSample(MiB, 512, 0)).toThrow(RangeError);
    expect(() => planSample(MiB, 512, 101)).toThrow(RangeError);
  });
});
