import { describe, expect, it } from 'vitest';
import { conforms, gradeHealth, WipeResultRecord } from '@erasure/shared';
import type { EraseOutcome } from '../erase/erase-drive.js';
import type { DriveJob } from './types.js';
import { wipeResultBody } from './wipe-result.js';

const drive: DriveJob = { device: '/dev/sda', method: 'overwrite', preconditions: ['restore-dco'], label: 'NIST 800-88 R2 Clear', technique: 'Overwrite', sizeBytes: 750_153_916_416 };
const outcome: EraseOutcome = {
  device: '/dev/sda',
  method: 'overwrite',
  ok: true,
  refused: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T01:00:00.000Z',
  passes: 1,
  verification: 'Hidden areas removed before the erase: DCO removed, capacity before 1465144368 sectors (750.2 GB), after 1465149168 sectors (750.2 GB). The full native capacity was erased. 1 pass verified',
  commands: ['hdparm --yes-i-know-what-i-am-doing --dco-restore /dev/sda'],
};

describe('the wipe result of a drive whose hidden area was removed', () => {
  it('gives the capacity erased, not the smaller one the drive was listed with', () => {
    const listed = { ...drive, sizeBytes: 500e9 };
    expect(wipeResultBody(listed, { ...outcome, restoredSizeBytes: 750_156_374_016 }, 'job-0', 'erasure-agent').drive_capacity_gb).toBe(750);
    expect(wipeResultBody(listed, outcome, 'job-0', 'erasure-agent').drive_capacity_gb).toBe(500);
  });

  it('carries the capacity before and after in verification_result and the restore in tool_components', () => {
    const sut = wipeResultBody(drive, outcome, 'job-0', 'erasure-agent');
    expect(sut.verification_result).toMatch(/^Hidden areas removed before the erase: DCO removed, capacity before 1465144368 sectors/);
    expect(sut.tool_components).toContain('--dco-restore');
  });
});

describe('the wipe result of a graded drive (issue 30 item 6)', () => {
  const before = { protocol: 'NVMe', passed: true, powerOnHours: 900, percentageUsed: 3, mediaErrors: 0, criticalWarning: 0 } as const;
  const evidence = { before, after: { ...before, powerOnHours: 901 }, profile: { regionBytes: 5e9, mbps: Array.from({ length: 100 }, (_, i) => 1800 - i), ioErrors: 0, retries: 0 } };

  it('carries the grade, its reasons, SMART before and after and the speed profile beside the spec fields', () => {
    const health = { evidence, verdict: gradeHealth(evidence) };
    const sut = wipeResultBody(drive, { ...outcome, health }, 'job-0', 'erasure-agent');
    expect(sut.health).toMatchObject({ grade: 'A', reasons: [], smart_before: { percentage_used: 3, media_errors: 0, critical_warning: 0, power_on_hours: 900 }, smart_after: { power_on_hours: 901 }, io_errors: 0, retries: 0 });
    expect(sut.health?.profile_mbps).toEqual(evidence.profile.mbps);
    expect(conforms(WipeResultRecord, sut)).toBe(true);
  });

  it('an outcome without health gives a result without it, as older agents sent', () => {
    expect('health' in wipeResultBody(drive, outcome, 'job-0', 'erasure-agent')).toBe(false);
  });
});

describe('the wipe result of a bridged or RAID-attached drive (issue 30 items 3, 5)', () => {
  it('says first how the drive was connected, then what the erase verified', () => {
    const line = 'Connected through: ASMedia ASM2362 USB bridge (174c:2362); firmware erase not passed through: the bridge passes NVMe admin commands for SMART and identify only, not Format NVM or Sanitize; the plan falls back to an overwrite of every sector';
    const sut = wipeResultBody({ ...drive, connection: line }, outcome, 'job-0', 'erasure-agent');
    expect(sut.verification_result).toBe(`${line}. ${outcome.verification}`);
    expect(wipeResultBody(drive, outcome, 'job-0', 'erasure-agent').verification_result).toBe(outcome.verification);
  });
});
