import { describe, expect, it } from 'vitest';
import type { BayEvent } from './bay-machine.js';
import type { Presence } from './debounce.js';
import { createStation, type StationPorts } from './station.js';
import type { UdevEvent } from './udev-events.js';

const MAP = { name: 'Front cage', bays: [{ lane: 'lane-1', label: 'Bay 1' }, { lane: 'lane-2', label: 'Bay 2' }] };

const present = (n: number, lane = `lane-${n}`): Extract<Presence, { present: true }> => ({
  devpath: `/devices/x/block/sd${'abcdefgh'[n]}`,
  present: true,
  event: { action: 'add', devpath: `/devices/x/block/sd${'abcdefgh'[n]}`, devname: `/dev/sd${'abcdefgh'[n]}`, devtype: 'disk', seqnum: n, properties: { ID_PATH: lane } } satisfies UdevEvent,
});
const absent = (n: number): Presence => ({ devpath: `/devices/x/block/sd${'abcdefgh'[n]}`, present: false });

/** Fake ports: each bay run waits until the test finishes it, so bays overlap as on a real station. */
function rig(opts: { refuse?: string; holdGuard?: boolean; holdLane?: boolean; holdProbe?: boolean } = {}) {
  const runs: Array<{ device: string; identity: unknown; bay: { bay: string; chassis?: string }; signal: AbortSignal; emit: (e: BayEvent) => void; finish: () => void }> = [];
  // With holdGuard, each guard verdict waits for the test to pass it (a pull-out or a cancel meanwhile).
  const guards: Array<() => void> = [];
  // With holdLane or holdProbe, the lane lookup or the probe waits for the test likewise.
  const held: Array<() => void> = [];
  const hold = <T>(on: boolean | undefined, value: T): Promise<T> => (on ? new Promise((pass) => held.push(() => pass(value))) : Promise.resolve(value));
  const verdict = (device: string) => (opts.refuse && device === opts.refuse ? { ok: false as const, reason: `${device} is mounted at /mnt` } : { ok: true as const });
  const ports: StationPorts = {
    laneOf: (p) => hold(opts.holdLane, { lane: p.event.properties.ID_PATH ?? '', connector: { transport: 'sata', controller: '0000:00:1f.2' } }),
    probe: (device) => hold(opts.holdProbe, { device, identity: { device, devT: '8:16', diskseq: '42' }, model: 'ST2000DM008', serial: `SN-${device.slice(-1)}`, sizeBytes: 2e12, health: 'passed' as const }),
    guard: (device) => (opts.holdGuard ? new Promise((pass) => guards.push(() => pass(verdict(device)))) : Promise.resolve(verdict(device))),
    runBay: (job) => new Promise<void>((finish) => runs.push({ ...job, finish })),
    changed: () => undefined,
  };
  return { ports, runs, guards, held };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the hotswap station', () => {
  it('starts a drive seated in a mapped bay at once under auto-start, naming its bay and chassis map', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    expect(runs.map((r) => [r.device, r.bay])).toEqual([['/dev/sdb', { bay: 'Bay 1', chassis: 'Front cage' }]]);
    expect(station.views()[0]?.bay.state).toBe('checking_in');
  });

  it('binds the bay\'s work to the disk its probe found (dev_t, diskseq): the run gets that identity', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    expect(runs[0]?.identity).toEqual({ device: '/dev/sdb', devT: '8:16', diskseq: '42' });
  });

  it.each([
    ['resolves its lane', { holdLane: true }],
    ['probes it', { holdProbe: true }],
  ])('drops a drive pulled while the station %s: the pull is not lost, the bay stays empty, nothing starts', async (_while, hold) => {
    const { ports, runs, held } = rig(hold);
    const station = createStation(MAP, ports, () => 'auto');
    const inserted = station.presence(present(1));
    const pulled = station.presence(absent(1));
    for (const pass of held.splice(0)) pass();
    await Promise.all([inserted, pulled]);
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay).toEqual({ state: 'empty' });
    // Seated again: a new insertion, taken as usual.
    const again = station.presence(present(1));
    await settle();
    for (const pass of held.splice(0)) pass();
    await again;
    await settle();
    expect(runs).toHaveLength(1);
    expect(station.views()[0]?.bay.state).toBe('checking_in');
  });

  it('drops an insertion its caller no longer stands behind (the controller saw the pull first)', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1), () => false);
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay).toEqual({ state: 'empty' });
  });

  it('runs each bay through check-in, erase and verify to a pass', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    const run = runs[0]!;
    for (const e of [{ type: 'checkin_allowed', jobId: 'job-1' }, { type: 'verify_started' }, { type: 'erase_passed' }, { type: 'certificate', number: 'CW-000007' }] as const) run.emit(e);
    expect(station.views()[0]?.bay).toMatchObject({ state: 'passed', jobId: 'job-1', certificateNumber: 'CW-000007' });
  });

  it('waits for the operator, even under auto-start, for a drive that was already seated when the station started', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    const seated = present(1);
    await station.presence({ ...seated, event: { ...seated.event, action: 'change' } });
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay.state).toBe('awaiting_confirmation');
  });

  it('waits for the operator under the confirm policy', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'confirm');
    await station.presence(present(1));
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay.state).toBe('awaiting_confirmation');
    expect(station.confirm('lane-1')).toBe(true);
    await settle();
    expect(runs).toHaveLength(1);
  });

  it('erases every waiting bay in one action, and leaves a drive the operator left alone untouched', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'confirm');
    await station.presence(present(1));
    await station.presence(present(2));
    await settle();
    expect(station.cancel('lane-2')).toBe(true); // "Leave it"
    await settle();
    expect(station.confirmWaiting()).toBe(1);
    await settle();
    expect(runs).toHaveLength(1);
    expect(station.views().map((v) => [v.lane, v.bay.state])).toEqual([
      ['lane-1', expect.not.stringMatching(/^(awaiting_confirmation|detected)$/)],
      ['lane-2', 'detected'],
    ]);
    expect(station.confirmWaiting()).toBe(0);
  });

  it('keeps a drive the operator left alone in its bay, untouched, and erases it when they confirm it later', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'confirm');
    await station.presence(present(1));
    await settle();
    expect(station.cancel('lane-1')).toBe(true);
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay.state).toBe('detected');
    // "Leave it" is not "never": Erase stays on offer without pulling and re-seating the drive.
    expect(station.confirm('lane-1')).toBe(true);
    await settle();
    expect(runs).toHaveLength(1);
    expect(station.views()[0]?.bay.state).toBe('checking_in');
  });

  it('never erases a drive in a slot the map does not name, and lists it', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(3, 'lane-unmapped'));
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.unmapped()).toEqual(['/dev/sdd']);
  });

  it('leaves a drive the safety guard refuses untouched, with the reason on its bay', async () => {
    const { ports, runs } = rig({ refuse: '/dev/sdb' });
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay).toMatchObject({ state: 'failed', reason: '/dev/sdb is mounted at /mnt', untouched: true });
  });

  it('shows a check-in denial on that bay only', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await station.presence(present(2));
    await settle();
    runs[0]!.emit({ type: 'checkin_denied', reason: 'quota_exceeded' });
    runs[1]!.emit({ type: 'checkin_allowed', jobId: 'job-2' });
    expect(station.views().map((v) => v.bay.state)).toEqual(['failed', 'erasing']);
  });

  it('fails a drive pulled mid-erase with "removed during erase", stops its work, and the other bay carries on', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await station.presence(present(2));
    await settle();
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1' });
    runs[1]!.emit({ type: 'checkin_allowed', jobId: 'job-2' });
    await station.presence(absent(1));
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(runs[1]!.signal.aborted).toBe(false);
    expect(station.views()[0]?.bay).toMatchObject({ state: 'pulled', during: 'erasing', reason: 'removed during erase', jobId: 'job-1' });
    // Late reports from the pulled bay's run (its progress, its stopped outcome) change nothing.
    runs[0]!.emit({ type: 'progress', progress: { method: 'Overwrite', pass: 1, percent: 60 } });
    runs[0]!.emit({ type: 'removed' });
    runs[1]!.emit({ type: 'erase_passed' });
    expect(station.views().map((v) => v.bay.state)).toEqual(['pulled', 'passed']);
  });

  it('shows a drive pulled after its read-back finished as passed, as its wipe result says', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1' });
    runs[0]!.emit({ type: 'verify_started' });
    await station.presence(absent(1));
    expect(station.views()[0]?.bay).toMatchObject({ state: 'pulled', during: 'verifying' });
    // The run had finished its read-back and reported the drive erased and verified.
    runs[0]!.emit({ type: 'erase_passed' });
    expect(station.views()[0]?.bay).toMatchObject({ state: 'passed', jobId: 'job-1' });
  });

  it('never lets the pulled run\'s outcome pass the next drive seated in its bay', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1' });
    await station.presence(absent(1));
    await station.presence(present(1));
    await settle();
    runs[1]!.emit({ type: 'checkin_allowed', jobId: 'job-2' });
    runs[0]!.emit({ type: 'erase_passed' });
    expect(station.views()[0]?.bay).toMatchObject({ state: 'erasing', jobId: 'job-2' });
  });

  it('starts a re-inserted drive over', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1' });
    await station.presence(absent(1));
    await station.presence(present(1));
    await settle();
    expect(runs).toHaveLength(2);
    expect(station.views()[0]?.bay.state).toBe('checking_in');
  });

  it('never starts the work of a drive pulled while its bay is checked by the guard: no check-in, bay pulled', async () => {
    const { ports, runs, guards } = rig({ holdGuard: true });
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await station.presence(absent(1));
    for (const pass of guards) pass();
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay).toMatchObject({ state: 'pulled', during: 'checking_in', reason: 'removed during erase' });
  });

  it('stops a bay pulled while it checks in, and shows it pulled whatever its run reports late', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    await station.presence(absent(1));
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(runs[0]!.signal.reason).toBe('removed during erase');
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1' });
    expect(station.views()[0]?.bay).toMatchObject({ state: 'pulled', during: 'checking_in' });
  });

  it('cancels a bay that is checking in: its work stops with the operator\'s reason, the drive untouched', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    expect(station.cancel('lane-1')).toBe(true);
    expect(runs[0]!.signal.reason).toBe('cancelled by the operator');
    expect(station.views()[0]?.bay).toEqual({ state: 'cancelled', drive: expect.objectContaining({ device: '/dev/sdb' }), untouched: true });
  });

  it('cancels a bay still waiting for its guard verdict without ever starting its work', async () => {
    const { ports, runs, guards } = rig({ holdGuard: true });
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    expect(station.cancel('lane-1')).toBe(true);
    for (const pass of guards) pass();
    await settle();
    expect(runs).toHaveLength(0);
    expect(station.views()[0]?.bay).toMatchObject({ state: 'cancelled', untouched: true });
  });

  it('has nothing to cancel in an empty bay or after a pass', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    expect(station.cancel('lane-1')).toBe(false);
    await station.presence(present(1));
    await settle();
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1' });
    runs[0]!.emit({ type: 'erase_passed' });
    expect(station.cancel('lane-1')).toBe(false);
  });

  it('has nothing to cancel while a bay erases by firmware: its run goes on to the drive\'s own outcome', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await settle();
    runs[0]!.emit({ type: 'checkin_allowed', jobId: 'job-1', firmware: true });
    expect(station.cancel('lane-1')).toBe(false);
    expect(runs[0]!.signal.aborted).toBe(false);
    runs[0]!.emit({ type: 'erase_passed' });
    expect(station.views()[0]?.bay).toMatchObject({ state: 'passed', jobId: 'job-1' });
  });

  it('cancels one bay on its own', async () => {
    const { ports, runs } = rig();
    const station = createStation(MAP, ports, () => 'auto');
    await station.presence(present(1));
    await station.presence(present(2));
    await settle();
    for (const r of runs) r.emit({ type: 'checkin_allowed', jobId: r.device });
    expect(station.cancel('lane-2')).toBe(true);
    expect(runs.map((r) => r.signal.aborted)).toEqual([false, true]);
    expect(station.views().map((v) => v.bay.state)).toEqual(['erasing', 'cancelled']);
  });
});
