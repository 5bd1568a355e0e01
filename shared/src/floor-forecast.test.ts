import { describe, expect, it } from 'vitest';
import { forecastSeconds } from './floor-forecast.js';

describe('the lot forecast', () => {
  it('is done (0) when nothing runs or waits, and not known until a rate is measured', () => {
    expect(forecastSeconds([], [])).toBe(0);
    expect(forecastSeconds([{ bytes_total: 10, bytes_done: 0 }], [])).toBeUndefined();
  });

  it('starts each waiting drive, in the order they wait, on the first slot a running drive frees', () => {
    const running = [
      { bytes_total: 100, bytes_done: 0, bytes_per_second: 20, eta_seconds: 5 },
      { bytes_total: 100, bytes_done: 0, bytes_per_second: 20, eta_seconds: 30 },
    ];
    // 20 B/s: a 100-byte drive takes 10 s written and read back, a 300-byte one 30 s.
    // The first (100 B) takes slot 1 at 5 s → 15 s; the second (300 B) slot 1 again at 15 s → 45 s.
    expect(forecastSeconds(running, [{ bytes_total: 100, bytes_done: 0 }, { bytes_total: 300, bytes_done: 0 }])).toBe(45);
  });

  it('takes the harmonic mean of the measured rates, those of drives done included: time goes with 1/rate', () => {
    // Rates 10 and 30 B/s: harmonic mean 15 B/s, so a 150-byte drive takes 20 s, starting at 0.
    const running = [{ bytes_total: 1, bytes_done: 0, bytes_per_second: 10, eta_seconds: 0 }];
    expect(forecastSeconds(running, [{ bytes_total: 150, bytes_done: 0 }], [30])).toBe(20);
  });
});
