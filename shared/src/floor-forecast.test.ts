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
    expect(forecastSeconds(running, [{ bytes_total: 150, bytes_done: 0 }], [{ bytes_per_second: 30 }])).toBe(20);
  });

  it('gives a waiting disk the rate measured on disks and a waiting SSD the rate measured on SSDs', () => {
    const running = [
      { bytes_total: 1, bytes_done: 0, bytes_per_second: 10, eta_seconds: 0, media_type: 'HDD' as const },
      { bytes_total: 1, bytes_done: 0, bytes_per_second: 50, eta_seconds: 10, media_type: 'SSD' as const },
    ];
    // The disk (100 B at 10 B/s: 20 s) takes the slot free at 0, the SSD (500 B at 50 B/s: 20 s)
    // the one free at 10 s. One pooled rate (16.7 B/s) would have said 70 s.
    expect(forecastSeconds(running, [{ bytes_total: 100, bytes_done: 0, media_type: 'HDD' }, { bytes_total: 500, bytes_done: 0, media_type: 'SSD' }])).toBe(30);
    expect(forecastSeconds(running, [{ bytes_total: 500, bytes_done: 0, media_type: 'HDD' }])).toBe(100);
  });

  it('gives a drive of a type nothing measured yet, or of no known type, the harmonic mean of every rate', () => {
    // Only disks at 10 and 30 B/s measured: 15 B/s for the SSD and for the drive of no known type.
    const running = [
      { bytes_total: 1, bytes_done: 0, bytes_per_second: 10, eta_seconds: 0, media_type: 'HDD' as const },
      { bytes_total: 1, bytes_done: 0, bytes_per_second: 30, eta_seconds: 5, media_type: 'HDD' as const },
    ];
    expect(forecastSeconds(running.slice(0, 1), [{ bytes_total: 150, bytes_done: 0, media_type: 'SSD' }], [{ bytes_per_second: 30, media_type: 'HDD' }])).toBe(20);
    expect(forecastSeconds(running, [{ bytes_total: 150, bytes_done: 0 }])).toBe(20);
  });
});
