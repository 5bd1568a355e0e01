import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_RULES, gradeHealth, type HealthRule } from './health-grade.js';
import type { ThroughputProfile } from './health-evidence.js';

const young = { protocol: 'ATA', passed: true, powerOnHours: 100, reallocatedSectors: 0, pendingSectors: 0 } as const;
const profile = (mbps: (number | null)[], ioErrors = 0): ThroughputProfile => ({ regionBytes: 1, mbps, ioErrors, retries: 0 });

describe('the health grade for resale', () => {
  it('is A with no reasons when nothing in the table matches', () => {
    expect(gradeHealth({ before: young, after: young, profile: profile(Array(100).fill(150)) })).toEqual({ grade: 'A', label: 'like new', reasons: [] });
  });

  it('a write error during the erase is F, whatever SMART says', () => {
    const v = gradeHealth({ before: young, after: young, profile: profile([150], 2) });
    expect(v.grade).toBe('F');
    expect(v.reasons).toEqual([{ metric: 'write_errors', grade: 'F', text: '2 write(s) failed during the erase (rule: write errors during the erase ≥ 1 gives F)' }]);
  });

  it('a zone (three regions in a row) writing under 30% of the drive\'s median speed is C, with the rates in the reason', () => {
    const rates = Array(100).fill(200);
    rates[56] = 35;
    rates[57] = 40;
    rates[58] = 30;
    const v = gradeHealth({ before: young, after: young, profile: profile(rates) });
    expect(v.grade).toBe('C');
    expect(v.reasons[0]?.text).toBe('its slowest zone (3 regions in a row) wrote at 20% of its usual speed (40 of 200 MB/s) (rule: slowest zone\'s speed (% of the median) ≤ 30 gives C)');
  });

  it('one slow region, or two apart, is not a slow zone: a busy host or a neighbour drive starting makes those', () => {
    const rates = Array(100).fill(200);
    rates[20] = 40;
    rates[57] = 20;
    rates[59] = 30;
    expect(gradeHealth({ before: young, after: young, profile: profile(rates) }).grade).toBe('A');
  });

  it('an HDD whose inner tracks write at half the outer speed is not called slow', () => {
    const rates = Array.from({ length: 100 }, (_, i) => 220 - i * 1.1);
    expect(gradeHealth({ before: young, after: young, profile: profile(rates) }).grade).toBe('A');
  });

  it('without SMART the grade is at best B and says why', () => {
    const v = gradeHealth({ smartUnavailable: 'smartctl is not available', profile: profile([150]) });
    expect(v).toEqual({ grade: 'B', label: 'used, good', reasons: [{ metric: 'smart_unavailable', grade: 'B', text: 'no SMART data (smartctl is not available): graded on the erase alone (rule: no SMART answer gives B)' }] });
  });

  it('gives each metric one reason, at the worst grade it reached, in any table order', () => {
    const rules: HealthRule[] = [...DEFAULT_HEALTH_RULES].reverse();
    const v = gradeHealth({ after: { ...young, percentageUsed: 85 } }, rules);
    expect(v.reasons).toEqual([{ metric: 'percentage_used', grade: 'C', text: '85% of its rated write endurance is used (rule: endurance used (%) ≥ 80 gives C)' }]);
  });

  it('follows the table it is given (an account that resells 50,000-hour drives as B)', () => {
    const rules: HealthRule[] = [{ metric: 'power_on_hours', atLeast: 60_000, grade: 'C' }, { metric: 'power_on_hours', atLeast: 10_000, grade: 'B' }];
    expect(gradeHealth({ after: { ...young, powerOnHours: 50_000 } }, rules).grade).toBe('B');
    expect(gradeHealth({ after: { ...young, powerOnHours: 50_000 } }).grade).toBe('C');
  });
});
