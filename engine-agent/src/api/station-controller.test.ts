import { describe, expect, it } from 'vitest';
import type { Presence } from '../station/debounce.js';
import type { ErasePolicy } from '../station/station.js';
import { StationController, type StationRuntimePorts } from './station-controller.js';

/** The data volume on the AHCI port, and a customer drive in the one mapped bay (virtio-scsi target 0). */
const DATA_VOLUME = '/dev/sda';
const BAY_LANE = 'pci-0000:00:03.0-scsi-0:0:0:0';

const seated = (device: string, idPath: string, action: 'add' | 'change' = 'change'): Presence => ({
  devpath: `/devices/pci0000:00/x/block/${device.slice(5)}`,
  present: true,
  event: { action, devpath: `/devices/pci0000:00/x/block/${device.slice(5)}`, devname: device, devtype: 'disk', seqnum: undefined, properties: { ID_PATH: idPath } },
});

/** Fake ports of a station: the map found or not, presences fed by the test, the guard as the real one answers. */
function rig(opts: { mapped?: boolean; savePolicy?: (p: ErasePolicy) => Promise<void>; holdGuard?: boolean; lookupMap?: StationRuntimePorts['lookupMap']; watchEnded?: ReturnType<StationRuntimePorts['watch']>['ended'] } = {}) {
  let feed: (p: Presence) => void = () => undefined;
  const log: string[] = [];
  const runs: string[] = [];
  // With holdGuard, each guard verdict waits for the test to pass it (a pull-out meanwhile).
  const guards: Array<() => void> = [];
  const ports: StationRuntimePorts = {
    lookupMap: opts.lookupMap ?? (async () => (opts.mapped ? { ok: true, name: 'Front cage', bays: [{ lane: BAY_LANE, label: 'Bay 1', connector: {} }] } : { ok: true })),
    saveMap: async () => ({ ok: true }),
    watch: (onPresence) => {
      feed = onPresence;
      return { stop: async () => undefined, ended: opts.watchEnded ?? new Promise(() => undefined) };
    },
    announcePresent: async () => undefined,
    controllers: async () => [],
    canLocate: async () => false,
    locate: async () => false,
    followCertificate: () => undefined,
    certificateOf: () => undefined,
    laneOf: async (p) => ({ lane: p.event.properties.ID_PATH ?? '', connector: { transport: 'scsi', controller: '0000:00:03.0' } }),
    probe: async (device) => ({ device, health: 'unknown' }),
    guard: async (device) => {
      if (opts.holdGuard) await new Promise<void>((pass) => guards.push(pass));
      return device === DATA_VOLUME ? { ok: false, reason: `${device} holds the station's data volume (ERASURE-DATA)`, own: true } : { ok: true };
    },
    runBay: (job) => {
      runs.push(job.device);
      return new Promise(() => undefined);
    },
    log: (line) => log.push(line),
    ...(opts.savePolicy ? { savePolicy: opts.savePolicy } : {}),
  };
  return { ports, log, runs, guards, feed: (p: Presence) => feed(p) };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('the station controller', () => {
  it('never lists or offers its own data volume: not in the wizard, not among the unmapped drives', async () => {
    const wizard = rig();
    const sut = new StationController(wizard.ports, 'auto', () => undefined);
    await sut.start();
    wizard.feed(seated(DATA_VOLUME, 'pci-0000:00:1f.2-ata-1'));
    wizard.feed(seated('/dev/sdb', BAY_LANE));
    await settle();
    expect(sut.view().wizard?.preexisting.map((p) => p.device)).toEqual(['/dev/sdb']);
    expect(wizard.log).toContain(`${DATA_VOLUME} is not a bay drive: ${DATA_VOLUME} holds the station's data volume (ERASURE-DATA)`);

    const bays = rig({ mapped: true });
    const station = new StationController(bays.ports, 'auto', () => undefined);
    await station.start();
    bays.feed(seated(DATA_VOLUME, 'pci-0000:00:1f.2-ata-1'));
    await settle();
    expect(station.view().unmapped).toEqual([]);
  });

  it('never starts a drive pulled while the guard looked at it: the pull is not lost, the bay stays empty', async () => {
    const sut = rig({ mapped: true, holdGuard: true });
    const station = new StationController(sut.ports, 'auto', () => undefined);
    await station.start();
    const drive = seated('/dev/sdb', BAY_LANE, 'add');
    sut.feed(drive);
    sut.feed({ devpath: drive.devpath, present: false });
    await settle();
    for (const pass of sut.guards.splice(0)) pass();
    await settle();
    expect(sut.runs).toEqual([]);
    expect(station.view().bays.map((b) => b.state)).toEqual(['empty']);
    expect(station.view().unmapped).toEqual([]);
    // Seated again, it starts as any insertion (the controller's guard, then the bay's own).
    sut.feed(drive);
    for (let round = 0; round < 2; round++) {
      await settle();
      for (const pass of sut.guards.splice(0)) pass();
    }
    await settle();
    expect(sut.runs).toEqual(['/dev/sdb']);
  });

  it('saves two quick policy changes one after the other, the last choice last', async () => {
    let inFlight = 0;
    let most = 0;
    const order: ErasePolicy[] = [];
    const slow = rig({
      mapped: true,
      savePolicy: async (p) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        order.push(p);
        inFlight--;
      },
    });
    const sut = new StationController(slow.ports, 'auto', () => undefined);
    await sut.start();
    await Promise.all([sut.setPolicy('confirm'), sut.setPolicy('auto')]);
    expect({ most, order, policy: sut.view().policy }).toEqual({ most: 1, order: ['confirm', 'auto'], policy: 'auto' });
  });

  it('saves the policy chosen in settings, and keeps it in force for this boot when the save fails', async () => {
    const saved: ErasePolicy[] = [];
    const ok = rig({ mapped: true, savePolicy: async (p) => void saved.push(p) });
    const sut = new StationController(ok.ports, 'auto', () => undefined);
    await sut.start();
    expect(await sut.setPolicy('confirm')).toEqual({ ok: true });
    expect([sut.view().policy, saved]).toEqual(['confirm', ['confirm']]);

    const failing = rig({ mapped: true, savePolicy: async () => Promise.reject(new Error('EROFS: read-only file system')) });
    const unsaved = new StationController(failing.ports, 'auto', () => undefined);
    await unsaved.start();
    expect(await unsaved.setPolicy('confirm')).toEqual({ ok: true });
    expect(unsaved.view().policy).toBe('confirm');
    expect(failing.log.at(-1)).toBe('erase policy confirm is in force for this boot but was not saved: EROFS: read-only file system');
  });

  it('says in the journal which chassis map it opened, that there is none yet, or why the lookup failed', async () => {
    const found = rig({ mapped: true });
    await new StationController(found.ports, 'auto', () => undefined).start();
    expect(found.log).toContain('chassis map "Front cage" opened: 1 bay');

    const none = rig();
    await new StationController(none.ports, 'auto', () => undefined).start();
    expect(none.log).toContain('no chassis map for this chassis yet: the mapping wizard opens');

    const failed = rig({ lookupMap: async () => ({ ok: false, reason: 'gateway unreachable: fetch failed' }) });
    const station = new StationController(failed.ports, 'auto', () => undefined);
    await station.start();
    expect(failed.log).toContain('the chassis map lookup failed: gateway unreachable: fetch failed');
    expect(station.view()).toMatchObject({ phase: 'failed', reason: 'the chassis map lookup failed: gateway unreachable: fetch failed' });
  });

  it('says plainly that it cannot see drives come and go when its watch could not start (udev not running)', async () => {
    const reason = 'udev is not running on this machine (no /run/udev/control), so no drive inserted or pulled is seen';
    const sut = rig({ mapped: true, watchEnded: Promise.resolve({ byStop: false, exitCode: undefined, stderr: '', reason }) });
    const station = new StationController(sut.ports, 'auto', () => undefined);
    await station.start();
    await settle();
    expect(station.view()).toMatchObject({ watching: false, watch_error: reason });
    expect(sut.log).toContain(`cannot see drives come and go: ${reason}`);
  });
});
