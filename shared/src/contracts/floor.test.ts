import { describe, expect, it } from 'vitest';
import { parseUnknown } from '../validate.js';
import { FloorReportBody } from './floor.js';

const report = {
  machine_id: '4c4c4544-0052-3410-8036-b4c04f4e4332',
  boot_id: 'b-7f3a9c',
  kind: 'station',
  sequence: 7,
  sent_at: '2026-11-28T16:00:05Z',
  job: { drives: 2, finished: 1, elapsed_seconds: 312, eta_seconds: 95 },
  drives: [
    { device: '/dev/sdb', model: 'ST1000DM010', serial: 'Z9A1', bay: 'Bay 1', stage: 'write', method: 'overwrite-1', pass: 1, passes: 1, bytes_done: 512, bytes_total: 1024, bytes_per_second: 8, eta_seconds: 64 },
    { device: '/dev/sdc', stage: 'erased', pass: 0, bytes_done: 0, bytes_total: 0 },
  ],
  bays: [{ label: 'Bay 1', state: 'erasing', device: '/dev/sdb', free_at: '2026-11-28T16:01:09Z' }],
};

describe('floor report', () => {
  it('a station report with its drives and bays conforms', () => {
    expect(parseUnknown(FloorReportBody, report).ok).toBe(true);
  });

  it('a drive stage outside the list is refused', () => {
    const bad = { ...report, drives: [{ ...report.drives[0], stage: 'sleeping' }] };
    expect(parseUnknown(FloorReportBody, bad).ok).toBe(false);
  });

  it('a machine id with spaces or slashes is refused', () => {
    expect(parseUnknown(FloorReportBody, { ...report, machine_id: '../etc' }).ok).toBe(false);
  });

  it('a field outside the contract is refused', () => {
    expect(parseUnknown(FloorReportBody, { ...report, extra: 1 }).ok).toBe(false);
  });
});
