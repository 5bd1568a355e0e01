import { describe, expect, it } from 'vitest';
import type { AgentState, StationBayView } from '@erasure/shared';
import { bayFreeAt, buildFloorSnapshot } from './floor-report.js';

const identity = { machineId: 'm-1', bootId: 'b-1', kind: 'machine' as const };

/** Only the parts of the kiosk's state the floor report reads. */
function state(over: Partial<AgentState>): AgentState {
  return {
    boot: { phase: 'unlocked' },
    drives: [],
    selected: [],
    run: { status: 'running' },
    progress: {},
    results: [],
    ...over,
  } as unknown as AgentState;
}

describe('floor report of a machine', () => {
  it('reports a drive with its result as done, never as running', () => {
    const s = state({
      selected: ['/dev/sdb'],
      progress: { '/dev/sdb': { device: '/dev/sdb', stage: 'verify', pass: 0, bytes_done: 50, bytes_total: 100, eta_seconds: 30 } },
      results: [{ device: '/dev/sdb', method: 'nist-clear-overwrite', erased: true, refused: false, passes: 1, verification: 'full', job_id: 'j', delivered: false }],
    });
    const [drive] = buildFloorSnapshot(s, identity, 0).drives;
    expect(drive).toMatchObject({ device: '/dev/sdb', stage: 'erased' });
    expect(drive!.eta_seconds).toBeUndefined();
  });

  it('marks a firmware erase with an estimate as drive_estimate, so no byte progress is not a stall', () => {
    const s = state({
      selected: ['/dev/nvme0n1'],
      progress: { '/dev/nvme0n1': { device: '/dev/nvme0n1', stage: 'firmware', pass: 0, bytes_done: 0, bytes_total: 100, eta_seconds: 120 } },
    });
    expect(buildFloorSnapshot(s, identity, 0).drives[0]).toMatchObject({ stage: 'firmware', drive_estimate: true });
  });

  it('reports a drive’s media type, which the lot forecast reads for drives still waiting', () => {
    const s = state({ selected: ['/dev/sdc'], drives: [{ device: '/dev/sdc', size_bytes: 1000, media_type: 'HDD', transport: 'sata', internal: true }] as AgentState['drives'] });
    expect(buildFloorSnapshot(s, identity, 0).drives[0]).toMatchObject({ device: '/dev/sdc', stage: 'waiting', media_type: 'HDD' });
  });

  it('reports a selected drive not yet started as waiting', () => {
    const s = state({ selected: ['/dev/sdc'] });
    expect(buildFloorSnapshot(s, identity, 0).drives[0]).toMatchObject({ device: '/dev/sdc', stage: 'waiting', bytes_done: 0 });
  });
});

describe('floor report of a station', () => {
  const erasing: StationBayView = {
    lane: 'pci-0:1',
    label: 'A1',
    state: 'erasing',
    drive: { device: '/dev/sdb', model: 'ST4000', serial: 'Z1', size_bytes: 1000, health: 'passed' },
    progress: { method: 'nist-clear-overwrite', pass: 1, percent: 40, bytes_per_second: 10, eta_seconds: 60 },
    can_locate: false,
  } as StationBayView;

  it('forecasts a bay free at now plus its drive time left', () => {
    expect(bayFreeAt(erasing, Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:01:00.000Z');
  });

  it('reports each bay and its drive with bytes from the bay progress', () => {
    const s = state({ station: { phase: 'bays', policy: 'confirm', bays: [erasing], unmapped: [], watching: true } });
    const snap = buildFloorSnapshot(s, { ...identity, kind: 'station' }, Date.parse('2026-01-01T00:00:00Z'));
    expect(snap.bays).toEqual([{ label: 'A1', state: 'erasing', device: '/dev/sdb', free_at: '2026-01-01T00:01:00.000Z' }]);
    expect(snap.drives[0]).toMatchObject({ bay: 'A1', stage: 'write', bytes_done: 400, bytes_total: 1000, eta_seconds: 60 });
    expect(snap.drives[0]).not.toHaveProperty('media_type');
    const ssd = { ...erasing, drive: { ...erasing.drive!, media_type: 'SSD' as const } };
    const typed = buildFloorSnapshot(state({ station: { phase: 'bays', policy: 'confirm', bays: [ssd], unmapped: [], watching: true } }), { ...identity, kind: 'station' }, 0);
    expect(typed.drives[0]).toMatchObject({ bay: 'A1', media_type: 'SSD' });
    expect(snap).not.toHaveProperty('site');
  });

  it('reports a station’s site as its chassis map names it', () => {
    const map = { name: 'Front cage', site: 'Leeds floor 2', grid: { rows: 1, columns: 1 } };
    const s = state({ station: { phase: 'bays', policy: 'confirm', map, bays: [erasing], unmapped: [], watching: true } });
    expect(buildFloorSnapshot(s, { ...identity, kind: 'station' }, Date.parse('2026-01-01T00:00:00Z')).site).toBe('Leeds floor 2');
  });
});
