import { describe, expect, it } from 'vitest';
import { graceMsOf } from './shutdown.js';

describe('the grace in-flight work gets after SIGTERM', () => {
  it.each([
    [30_000, 20_000],
    [12_000, 2_000],
    [10_000, 0],
    [1_000, 0],
  ])('is %i ms less the 10 s hand-back reserve: %i ms', (timeoutMs, graceMs) => {
    expect(graceMsOf(timeoutMs)).toBe(graceMs);
  });
});
