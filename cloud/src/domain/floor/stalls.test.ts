import { describe, expect, it } from 'vitest';
import type { FloorDrive } from '@erasure/shared';
import { canStall, stalledSince, trackProgress } from './stalls.js';

const drive = (overrides: Partial<FloorDrive> = {}): FloorDrive => ({ device: '/dev/sdb', serial: 'A1', stage: 'write', pass: 1, bytes_done: 370, bytes_total: 1000, ...overrides });
const at = (minutes: number) => new Date(Date.parse('2026-11-28T16:00:00Z') + minutes * 60_000);

describe('stalls', () => {
  it('a drive with no byte progress for the stall time is stalled, once', () => {
    let { marks, stalled } = trackProgress({}, [drive()], at(0), 600);
    expect(stalled).toEqual([]);
    ({ marks, stalled } = trackProgress(marks, [drive()], at(9), 600));
    expect(stalled).toEqual([]);
    ({ marks, stalled } = trackProgress(marks, [drive()], at(10), 600));
    expect(stalled.map((s) => s.since)).toEqual(['2026-11-28T16:00:00.000Z']);
    ({ marks, stalled } = trackProgress(marks, [drive()], at(30), 600));
    expect(stalled).toEqual([]);
    expect(stalledSince(drive(), marks['/dev/sdb'], at(30), 600)).toBe('2026-11-28T16:00:00.000Z');
  });

  it('progress restarts the clock, and a drive that stops again is a new stall', () => {
    let { marks } = trackProgress({}, [drive()], at(0), 600);
    ({ marks } = trackProgress(marks, [drive()], at(10), 600));
    let stalled;
    ({ marks, stalled } = trackProgress(marks, [drive({ bytes_done: 400 })], at(11), 600));
    expect(stalled).toEqual([]);
    expect(stalledSince(drive({ bytes_done: 400 }), marks['/dev/sdb'], at(12), 600)).toBeUndefined();
    ({ stalled } = trackProgress(marks, [drive({ bytes_done: 400 })], at(21), 600));
    expect(stalled.map((s) => s.since)).toEqual([at(11).toISOString()]);
  });

  it('a firmware erase with a drive-reported estimate never stalls; one the host times does', () => {
    expect(canStall(drive({ stage: 'firmware', drive_estimate: true }))).toBe(false);
    expect(canStall(drive({ stage: 'firmware' }))).toBe(true);
    const { marks } = trackProgress({}, [drive({ stage: 'firmware', drive_estimate: true })], at(0), 600);
    expect(trackProgress(marks, [drive({ stage: 'firmware', drive_estimate: true })], at(60), 600).stalled).toEqual([]);
  });

  it('waiting and finished drives never stall', () => {
    for (const stage of ['waiting', 'erased', 'failed', 'cancelled'] as const) expect(canStall(drive({ stage }))).toBe(false);
  });
});
