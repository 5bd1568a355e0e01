import { describe, expect, it } from 'vitest';
import { planSample, sampleBlockBytes } from './sample-read.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Picks inside each 1/100 of the drive. */
const perSubsection = (plan: ReturnType<typeof planSample>) =>
  Array.from({ length: 100 }, (_, s) => {
    const from = Math.floor((s * plan.blocks) / 100);
    const to = Math.floor(((s + 1) * plan.blocks) / 100);
    return plan.picks.filter((b) => b >= from && b < to).length;
  });

describe('the blocks a sampled verification reads', () => {
  it('reads N % of the blocks, spread evenly over the 100 subsections, distinct and in ascending order', () => {
    for (const percent of [1, 10, 50]) {
      const plan = planSample(64 * GiB, 512, percent);
      expect(plan).toMatchObject({ blockBytes: MiB, blocks: 65536 });
      expect(plan.picks).toHaveLength(Math.ceil((65536 * percent) / 100));
      expect(new Set(plan.picks).size).toBe(plan.picks.length);
      expect([...plan.picks].sort((a, b) => a - b)).toEqual(plan.picks);
      const counts = perSubsection(plan);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(2);
    }
  });

  it('reads at least two blocks in every 1/100 of a small drive, even where N % is fewer', () => {
    const plan = planSample(64 * MiB, 512, 1);
    expect(plan).toMatchObject({ blockBytes: 32768, blocks: 2048 });
    expect(perSubsection(plan).every((n) => n === 2)).toBe(true);
    expect(plan.picks).toHaveLength(200);
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
    expect(sampleBlockBytes(16 * MiB, 512)).toBe(8192);
    expect(sampleBlockBytes(4 * MiB, 512)).toBe(4096);
    expect(sampleBlockBytes(4 * MiB, 8192)).toBe(8192);
  });

  it('refuses a level outside 1..100', () => {
    expect(() => planSample(MiB, 512, 0)).toThrow(RangeError);
    expect(() => planSample(MiB, 512, 101)).toThrow(RangeError);
  });
});
