import { describe, expect, it } from 'vitest';
import type { FloorBoard, FloorBoardDrive, FloorBoardMachine } from '@erasure/shared/contracts';
import { forecastSeconds } from '@erasure/shared/contracts';
import { bayFreeAt, bySite, isRunning, lotLines, machineSecondsLeft, machineStatus, percentOf, problemsOf } from '../../web/src/pages/floor-view.js';

const drive = (overrides: Partial<FloorBoardDrive> = {}): FloorBoardDrive => ({ device: '/dev/sda', serial: 'A1', stage: 'write', pass: 1, bytes_done: 50, bytes_total: 100, ...overrides });
const machine = (overrides: Partial<FloorBoardMachine> = {}): FloorBoardMachine => ({
  machine_id: 'm-1',
  kind: 'machine',
  last_report_at: '2026-11-28T16:00:00.000Z',
  lost_contact: false,
  drives: [drive()],
  ...overrides,
});
const board = (machines: FloorBoardMachine[]): FloorBoard => ({ now: '2026-11-28T16:00:05.000Z', stall_seconds: 600, machines });
const time = (iso: string) => iso.slice(11, 16);

describe('the floor page’s view', () => {
  it('gives a station drive at work its bay’s free time, and none once its result is in or off a station', () => {
    const station = machine({ kind: 'station', bays: [{ label: 'Bay 2', state: 'erasing', device: '/dev/sdc', free_at: '2026-11-28T16:20:00.000Z' }] });
    expect(bayFreeAt(station, drive({ bay: 'Bay 2' }))).toBe('2026-11-28T16:20:00.000Z');
    expect(bayFreeAt(station, drive({ bay: 'Bay 2', result: { status: 'completed' } }))).toBeUndefined();
    expect(bayFreeAt(station, drive({ bay: 'Bay 3' }))).toBeUndefined();
    expect(bayFreeAt(machine(), drive())).toBeUndefined();
  });

  it('never counts a drive with its result as running, whatever its last report said', () => {
    expect(isRunning(drive())).toBe(true);
    expect(isRunning(drive({ result: { status: 'completed' } }))).toBe(false);
  });

  it('draws a full bar only for an erased drive: a cancelled or failed one has none, whatever bytes it had written', () => {
    expect(percentOf(drive())).toBe(50);
    expect(percentOf(drive({ stage: 'erased' }))).toBe(100);
    expect(percentOf(drive({ result: { status: 'completed', certificate_number: 'CW-000001' } }))).toBe(100);
    expect(percentOf(drive({ stage: 'cancelled' }))).toBeUndefined();
    expect(percentOf(drive({ result: { status: 'cancelled' } }))).toBeUndefined();
    expect(percentOf(drive({ stage: 'failed' }))).toBeUndefined();
  });

  it('puts failures, stalls and lost contact on top, in plain words', () => {
    const problems = problemsOf(
      board([
        machine({ name: 'OptiPlex 7080', lost_contact: true, drives: [drive({ stage: 'failed', error: 'the drive stopped answering', model: 'ST1000' })] }),
        machine({ machine_id: 'm-2', name: 'Rack 2', drives: [drive({ stalled_since: '2026-11-28T15:40:00.000Z', bay: 'Bay 3' })] }),
      ]),
      time,
    );
    expect(problems.map((p) => p.text)).toEqual([
      'OptiPlex 7080: lost contact (last heard 16:00)',
      'OptiPlex 7080: ST1000 · S/N A1 failed: the drive stopped answering',
      'Rack 2: Bay 3 · S/N A1 has made no progress since 15:40',
    ]);
  });

  it('groups machines by site, those without one last', () => {
    const groups = bySite(board([machine({ machine_id: 'a' }), machine({ machine_id: 'b', site: 'Leeds' }), machine({ machine_id: 'c', site: 'Bristol' })]));
    expect(groups.map((g) => [g.site, g.machines.map((m) => m.machine_id)])).toEqual([
      ['Bristol', ['c']],
      ['Leeds', ['b']],
      ['No site set', ['a']],
    ]);
  });

  it('gives a machine’s time to done from its job, else its slowest running drive', () => {
    expect(machineSecondsLeft(machine({ drives: [drive({ eta_seconds: 30 }), drive({ device: '/dev/sdb', eta_seconds: 90 })] }))).toBe(90);
    expect(machineSecondsLeft(machine({ job: { drives: 2, finished: 0, elapsed_seconds: 5, eta_seconds: 120 }, drives: [drive({ eta_seconds: 30 })] }))).toBe(120);
    expect(machineSecondsLeft(machine({ drives: [drive({ result: { status: 'completed' } })] }))).toBeUndefined();
  });

  it('says a machine with a drive standing still has no finish time, and since when the drive stands', () => {
    const minutes = (s: number) => `${Math.round(s / 60)} min`;
    const stalled = machine({ drives: [drive({ eta_seconds: 60 }), drive({ device: '/dev/sdb', eta_seconds: 600, stalled_since: '2026-11-28T15:40:00.000Z' })] });
    expect(machineStatus(stalled, time, minutes)).toBe('A drive has made no progress since 15:40');
    const both = machine({ drives: [drive({ stalled_since: '2026-11-28T15:45:00.000Z' }), drive({ device: '/dev/sdb', stalled_since: '2026-11-28T15:40:00.000Z' })] });
    expect(machineStatus(both, time, minutes)).toBe('2 drives have made no progress since 15:40');
    expect(machineStatus(machine({ drives: [drive({ eta_seconds: 600 })] }), time, minutes)).toBe('Done in 10 min');
  });

  it('says a machine erasing before any rate is known is erasing, never that nothing is', () => {
    expect(machineStatus(machine({ drives: [drive({ stage: 'prepare', bytes_done: 0 })] }), time, String)).toBe('Erasing');
    expect(machineStatus(machine({ drives: [drive({ result: { status: 'completed' } })] }), time, String)).toBe('Nothing erasing');
    expect(machineStatus(machine({ lost_contact: true }), time, String)).toBe('Lost contact · last heard 16:00');
  });

  it('counts a lot’s drives done, running and waiting', () => {
    const lines = lotLines(
      board([
        machine({
          drives: [
            drive({ lot_reference: 'LOT-7', eta_seconds: 10, bytes_per_second: 10 }),
            drive({ device: '/dev/sdb', lot_reference: 'LOT-7', stage: 'waiting', bytes_done: 0 }),
            drive({ device: '/dev/sdc', lot_reference: 'LOT-7', result: { status: 'completed' } }),
            drive({ device: '/dev/sdd' }),
          ],
        }),
      ]),
    );
    expect(lines).toEqual([{ lot: 'LOT-7', done: 1, running: 1, waiting: 1, secondsLeft: 10 + 20 }]);
  });

  it('forecasts waiting drives on the slots the running ones free, at the measured rate, written and read back', () => {
    const running = [drive({ eta_seconds: 10, bytes_per_second: 20 }), drive({ eta_seconds: 40, bytes_per_second: 20 })];
    // 20 B/s; a 100-byte drive takes 10 s (write and read back); it starts when the first slot frees at 10 s.
    expect(forecastSeconds(running, [drive({ stage: 'waiting', bytes_total: 100 })])).toBe(40);
    expect(forecastSeconds(running, [drive({ stage: 'waiting', bytes_total: 400 })])).toBe(50);
    expect(forecastSeconds([drive()], [drive({ stage: 'waiting' })])).toBeUndefined();
  });
});
