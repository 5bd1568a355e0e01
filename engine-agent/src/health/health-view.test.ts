import { gradeHealth } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { healthView } from './health-view.js';

describe("an erased drive's health as the kiosk shows it", () => {
  it('gives the grade and reasons, and SMART before/after and the write speed as facts for Details', () => {
    const before = { passed: true, powerOnHours: 12_798, percentageUsed: 3, mediaErrors: 7, criticalWarning: 0 };
    const profile = { regionBytes: 4_194_304, mbps: [180, 175.5, null, 60], ioErrors: 0, retries: 0 };
    const evidence = { before, after: before, profile };
    const view = healthView({ evidence, verdict: gradeHealth(evidence) });
    expect(view).toEqual({
      grade: 'C',
      label: 'worn',
      reasons: [
        { grade: 'C', text: 'the drive has recorded 7 data error(s) in its life (rule: NVMe media errors ≥ 1 gives C)' },
        { grade: 'B', text: 'it has been powered on for 12,798 hours (about 1.5 years) (rule: power-on hours ≥ 10,000 gives B)' },
      ],
      facts: [
        { label: 'SMART before', value: 'health check passed · 12,798 h powered on · 3% endurance used · media errors 7 · critical warning 0' },
        { label: 'SMART after', value: 'health check passed · 12,798 h powered on · 3% endurance used · media errors 7 · critical warning 0' },
        { label: 'Write speed', value: '60–180 MB/s, median 175.5 MB/s over 3 regions; 0 write error(s)' },
      ],
    });
  });

  it('says why there is no SMART when the drive gave none', () => {
    const evidence = { smartUnavailable: 'smartctl is not available' };
    expect(healthView({ evidence, verdict: gradeHealth(evidence) }).facts).toEqual([{ label: 'SMART', value: 'smartctl is not available' }]);
  });
});
