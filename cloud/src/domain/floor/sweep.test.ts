import { describe, expect, it } from 'vitest';
import { sweepPacer } from './sweep.js';

describe('the floor rows sweep', () => {
  it('is due on the first report, then once per period of the clock', () => {
    const pacer = sweepPacer(600_000);
    expect(pacer.due(1_000)).toBe(true);
    expect(pacer.due(2_000)).toBe(false);
    expect(pacer.due(600_999)).toBe(false);
    expect(pacer.due(601_000)).toBe(true);
    expect(pacer.due(601_001)).toBe(false);
  });
});
