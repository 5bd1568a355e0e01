import { describe, expect, it } from 'vitest';
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

describe('the wipe result of a bridged or RAID-attached drive (issue 30 items 3, 5)', () => {
  it('says first how the drive was connected, then what the erase verified', () => {
    const line = 'Connected through: ASMedia ASM2362 USB bridge (174c:2362); firmware erase not passed through: the bridge passes NVMe admin commands for SMART and identify only, not Format NVM or Sanitize; the plan falls back to an overwrite of every sector';
    const sut = wipeResultBody({ ...drive, connection: line }, outcome, 'job-0', 'erasure-agent');
    expect(sut.verification_result).toBe(`${line}. ${outcome.verification}`);
    expect(wipeResultBody(drive, outcome, 'job-0', 'erasure-agent').verification_result).toBe(outcome.verification);
  });
});
