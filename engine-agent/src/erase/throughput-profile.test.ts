import { describe, expect, it } from 'vitest';
import { ProfileRecorder } from './throughput-profile.js';

const MiB = 1024 * 1024;

describe('the overwrite speed profile', () => {
  it('cuts the drive into at most 100 regions of whole requests and rates each from the completions', () => {
    const p = new ProfileRecorder(1000 * 4 * MiB, 4 * MiB, 0);
    expect(p.regionBytes).toBe(40 * MiB);
    // Region 0 written in 1 s, region 1 in 4 s (a slow zone).
    for (let i = 0; i < 10; i++) p.wrote(i * 4 * MiB, 4 * MiB, 100 * (i + 1));
    for (let i = 10; i < 20; i++) p.wrote(i * 4 * MiB, 4 * MiB, 1000 + 400 * (i - 9));
    const r = p.result();
    expect(r.mbps).toHaveLength(100);
    expect(r.mbps[0]).toBeCloseTo(41.9, 1);
    expect(r.mbps[1]).toBeCloseTo(10.5, 1);
    expect(r.mbps[2]).toBeNull();
    expect(r.ioErrors).toBe(0);
  });

  it('has one region per request on a drive smaller than 100 requests, and counts failed writes', () => {
    const p = new ProfileRecorder(10 * MiB, 4 * MiB, 0);
    expect(p.regionBytes).toBe(4 * MiB);
    p.wrote(0, 4 * MiB, 10);
    p.failed();
    const r = p.result();
    expect(r.mbps).toEqual([419.4, null, null]);
    expect(r.ioErrors).toBe(1);
  });
});
