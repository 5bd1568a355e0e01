import { describe, expect, it } from 'vitest';
import type { FloorReportBody } from '@erasure/shared';
import type { FloorMachineRow, FloorResultRow } from '../../adapters/db/floor-machines.js';
import { buildFloorBoard } from './board.js';

const report: FloorReportBody = {
  machine_id: 'm-1',
  boot_id: 'b-1',
  kind: 'station',
  sequence: 1,
  sent_at: '2026-11-28T16:00:00Z',
  drives: [
    { device: '/dev/sdb', serial: 'A1', stage: 'write', pass: 1, bytes_done: 1, bytes_total: 2 },
    { device: '/dev/sdc', serial: 'B2', stage: 'verify', pass: 0, bytes_done: 1, bytes_total: 2 },
  ],
};
const row = (overrides: Partial<FloorMachineRow> = {}): FloorMachineRow => ({
  machine_id: 'm-1',
  report,
  received_at: '2026-11-28T16:00:00.000Z',
  boot_seen_at: '2026-11-28T15:00:00.000Z',
  token_id: 7,
  site: 'Leeds, line 2',
  progress: {},
  ...overrides,
});
const result = (overrides: Partial<FloorResultRow> = {}): FloorResultRow => ({
  token_id: 7,
  drive_serial: 'A1',
  status: 'failed',
  created_at: '2026-11-28T15:30:00.000Z',
  certificate_number: null,
  ...overrides,
});
const board = (machines: FloorMachineRow[], results: FloorResultRow[] = [], now = '2026-11-28T16:00:30Z') => buildFloorBoard({ machines, results, now: new Date(now) });

describe('the floor board', () => {
  it('shows a drive with its result, and the stage the result says, whatever the last report said', () => {
    const drives = board([row()], [result()]).machines[0]!.drives;
    expect(drives[0]).toMatchObject({ serial: 'A1', stage: 'failed', result: { status: 'failed' } });
    expect(drives[1]).toMatchObject({ serial: 'B2', stage: 'verify' });
  });

  it('ignores a result stored before this boot was first heard (the same drive erased on an earlier boot)', () => {
    expect(board([row()], [result({ created_at: '2026-11-28T14:59:59.000Z' })]).machines[0]!.drives[0]!.stage).toBe('write');
  });

  it('ignores a result of the same serial from another token', () => {
    expect(board([row()], [result({ token_id: 8 })]).machines[0]!.drives[0]!.result).toBeUndefined();
  });

  it('says lost contact after 60 s of silence, not before', () => {
    expect(board([row()], [], '2026-11-28T16:01:00Z').machines[0]!.lost_contact).toBe(false);
    expect(board([row()], [], '2026-11-28T16:01:01Z').machines[0]!.lost_contact).toBe(true);
  });

  it('marks a drive stalled once it stood still for the stall time, and not once its result is in', () => {
    const progress = { '/dev/sdb': { bytes: 1, stage: 'write', since: '2026-11-28T15:50:00.000Z' }, '/dev/sdc': { bytes: 1, stage: 'verify', since: '2026-11-28T15:55:00.000Z' } };
    const drives = board([row({ progress })], [], '2026-11-28T16:00:30Z').machines[0]!.drives;
    expect(drives.map((d) => d.stalled_since)).toEqual(['2026-11-28T15:50:00.000Z', undefined]);
    expect(board([row({ progress })], [result()], '2026-11-28T16:00:30Z').machines[0]!.drives[0]!.stalled_since).toBeUndefined();
  });

  it('carries the token’s site, and none when the token has none', () => {
    expect(board([row()]).machines[0]!.site).toBe('Leeds, line 2');
    expect(board([row({ site: null })]).machines[0]!.site).toBeUndefined();
  });

  it('groups a station under its chassis map’s site before its token’s', () => {
    const station = { ...report, kind: 'station' as const, site: 'Leeds, cage 4' };
    expect(board([row({ report: station })]).machines[0]!.site).toBe('Leeds, cage 4');
    expect(board([row({ report: station, site: null })]).machines[0]!.site).toBe('Leeds, cage 4');
  });
});
