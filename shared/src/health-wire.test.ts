import { describe, expect, it } from 'vitest';
import { WipeResultRecord } from './contracts/wipe.js';
import { InternalWipeResultRequest } from './contracts/internal.js';
import { gradeHealth } from './health-grade.js';
import type { HealthEvidence } from './health-evidence.js';
import { healthForWire } from './health-wire.js';
import { parseUnknown } from './validate.js';

const worn: HealthEvidence = {
  before: { protocol: 'ATA', passed: true, powerOnHours: 41_200, reallocatedSectors: 8, pendingSectors: 0, crcErrors: 2 },
  after: { protocol: 'ATA', passed: true, powerOnHours: 41_201, reallocatedSectors: 8, pendingSectors: 0, crcErrors: 2 },
  profile: { regionBytes: 5_000_000_000, mbps: [...Array(99).fill(151.234), null], ioErrors: 0, retries: 0 },
};

describe('the health grade carried with the wipe result (issue 30 item 6)', () => {
  it('carries the grade, each reason, SMART before and after and the speed profile, and the wire schema accepts it', () => {
    const health = healthForWire({ evidence: worn, verdict: gradeHealth(worn) });
    expect(health.grade).toBe('C');
    expect(health.reasons).toContain('8 worn-out sector(s) have been replaced by spares (rule: reallocated sectors (ATA 5) ≥ 1 gives C)');
    expect(health.smart_before).toEqual({ protocol: 'ATA', passed: true, power_on_hours: 41_200, reallocated_sectors: 8, pending_sectors: 0, crc_errors: 2 });
    expect(health.profile_mbps).toHaveLength(100);
    expect(health.profile_mbps?.[0]).toBe(151.2);
    expect(health.profile_mbps?.[99]).toBeNull();
    expect(health.io_errors).toBe(0);
    expect(parseUnknown(WipeResultRecord, { job_id: 'j-0', wipe_status: 'completed', health }).ok).toBe(true);
    expect(parseUnknown(InternalWipeResultRequest, { jti: 'x', job_id: 'j-0', health }).ok).toBe(true);
  });

  it('a wipe result without health (an older agent) is still valid', () => {
    expect(parseUnknown(WipeResultRecord, { job_id: 'j-0', wipe_status: 'completed' }).ok).toBe(true);
  });

  it('refuses a grade outside A/B/C/F, unbounded reasons or profile, and unknown health fields', () => {
    const ok = healthForWire({ evidence: worn, verdict: gradeHealth(worn) });
    for (const bad of [
      { ...ok, grade: 'D' },
      { ...ok, reasons: Array(21).fill('x') },
      { ...ok, reasons: ['x'.repeat(201)] },
      { ...ok, profile_mbps: Array(129).fill(1) },
      { ...ok, smart_before: { reallocated_sectors: -1 } },
      { ...ok, serial_dump: 'x' },
    ]) expect(parseUnknown(WipeResultRecord, { job_id: 'j-0', health: bad }).ok).toBe(false);
  });

  it('a profile of more regions than the wire allows is merged pairwise by the slower of each pair, so a slow zone still shows', () => {
    const mbps = Array(200).fill(100);
    mbps[77] = 10;
    const health = healthForWire({ evidence: { ...worn, profile: { regionBytes: 1, mbps, ioErrors: 0, retries: 0 } }, verdict: gradeHealth(worn) });
    expect(health.profile_mbps).toHaveLength(100);
    expect(health.profile_mbps?.[38]).toBe(10);
  });
});
