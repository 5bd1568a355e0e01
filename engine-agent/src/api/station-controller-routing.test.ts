import type { Bay } from '@erasure/shared';
import { describe, expect, it, vi } from 'vitest';
import type { BayEvent } from '../station/bay-machine.js';
import type { Presence } from '../station/debounce.js';
import { laneFromIdPath } from '../station/lanes.js';
import type { SavedMap } from '../station/map-layout.js';
import type { ErasePolicy } from '../station/station.js';
import { StationController, type StationRuntimePorts } from './station-controller.js';

/**
 * The station controller driven through its ports only: an in-memory chassis-map store standing
 * in for the gateway (lookup, and a save that upserts by chassis), a udev watch the test feeds,
 * and bay runs that are recorded and never finish. Wizard, bays and routing are the real ones.
 */

/** Three SATA ports of an AHCI controller: ports 1 and 2 are mapped bays, port 3 is not. */
const PORT = (n: number) => `pci-0000:00:17.0-ata-${n}.0`;
const FRONT_CAGE: { name: string; bays: Bay[] } = {
  name: 'Front cage',
  bays: [
    { lane: PORT(1), label: 'Bay 1', connector: { transport: 'sata', controller: '0000:00:17.0', port: '1' } },
    { lane: PORT(2), label: 'Bay 2', connector: { transport: 'sata', controller: '0000:00:17.0', port: '2' } },
  ],
};

const devpathOf = (port: number, name: string) => `/devices/pci0000:00/0000:00:17.0/ata${port}/host${port - 1}/target${port - 1}:0:0/${port - 1}:0:0:0/block/${name}`;

/** A whole disk in an AHCI port, as the debounced watch reports it: `add` inserted, `change` found seated (start-up trigger). */
const drive = (port: number, name: string, action: 'add' | 'change'): Extract<Presence, { present: true }> => ({
  devpath: devpathOf(port, name),
  present: true,
  event: { action, devpath: devpathOf(port, name), devname: `/dev/${name}`, devtype: 'disk', seqnum: undefined, properties: { ID_PATH: PORT(port), ID_SERIAL_SHORT: `WD-${name.toUpperCase()}` } },
});

/** The fakes of every port the controller uses; `seatedAtBoot` answer the start-up trigger with change events. */
function station(opts: { map?: { name: string; bays: Bay[] }; seatedAtBoot?: Array<Extract<Presence, { present: true }>> } = {}) {
  const cloud = new Map<string, SavedMap>(opts.map ? [['chassis', { name: opts.map.name, bays: opts.map.bays.map((b) => ({ lane: b.lane, label: b.label, connector: b.connector as never })) }]] : []);
  const saves: SavedMap[] = [];
  const runs: Array<{ device: string; bay: { bay: string; chassis?: string }; emit: (e: BayEvent) => void }> = [];
  let feed: (p: Presence) => void = () => undefined;
  const ports: StationRuntimePorts = {
    lookupMap: async () => {
      const map = cloud.get('chassis');
      return map ? { ok: true, name: map.name, bays: map.bays.map((b) => ({ lane: b.lane, label: b.label, connector: { ...b.connector } })) } : { ok: true };
    },
    saveMap: async (map) => {
      saves.push(map);
      cloud.set('chassis', map);
      return { ok: true };
    },
    watch: (onPresence) => {
      feed = onPresence;
      return { stop: async () => undefined, ended: new Promise(() => undefined) };
    },
    announcePresent: async () => {
      for (const p of opts.seatedAtBoot ?? []) feed(p);
    },
    controllers: async () => [{ controller: '0000:00:17.0', transport: 'sata', description: 'SATA controller (AHCI)' }],
    laneOf: async (p) => laneFromIdPath(p.event.properties.ID_PATH),
    probe: async (device) => ({ device, model: 'WDC WD20EZRZ-00Z5HB0', sizeBytes: 2_000_398_934_016, health: 'unknown' }),
    guard: async () => ({ ok: true }),
    runBay: (job) => {
      runs.push(job);
      return new Promise(() => undefined);
    },
    canLocate: async () => false,
    locate: async () => false,
    followCertificate: () => undefined,
    certificateOf: () => undefined,
  };
  return {
    ports,
    saves,
    runs,
    feed: (p: Presence) => feed(p),
    controller: (policy: ErasePolicy = 'auto') => new StationController(ports, policy, () => undefined),
  };
}

/** Lets the controller's asynchronous presence handling (lane, probe, guard, bay start) run out. */
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('station controller: lookup routes to the wizard or the bay view', () => {
  it('opens the mapping wizard when the chassis map lookup says found: false', async () => {
    const s = station();
    const sut = s.controller();
    await sut.start();
    expect(sut.view()).toMatchObject({ phase: 'wizard', bays: [], wizard: { step: 'mapping', next_bay: 1 } });
  });

  it('opens the bay view with the map the lookup found (found: true)', async () => {
    const s = station({ map: FRONT_CAGE });
    const sut = s.controller();
    await sut.start();
    const view = sut.view();
    expect(view.phase).toBe('bays');
    expect(view.wizard).toBeUndefined();
    expect(view.map?.name).toBe('Front cage');
    expect(view.bays.map((b) => [b.label, b.lane, b.state])).toEqual([
      ['Bay 1', PORT(1), 'empty'],
      ['Bay 2', PORT(2), 'empty'],
    ]);
  });
});

describe('station controller: drives seated at start', () => {
  it.each(['auto', 'confirm'] as const)('wait for confirmation under policy %s, and nothing is checked in', async (policy) => {
    const s = station({ map: FRONT_CAGE, seatedAtBoot: [drive(1, 'sdb', 'change')] });
    const sut = s.controller(policy);
    await sut.start();
    await vi.waitFor(() => expect(sut.view().bays[0]?.state).toBe('awaiting_confirmation'));
    await settle();
    expect(sut.view().bays[0]).toMatchObject({ state: 'awaiting_confirmation', drive: { device: '/dev/sdb' }, can: { confirm: true } });
    expect(s.runs).toEqual([]);
  });

  it('start once the operator confirms them', async () => {
    const s = station({ map: FRONT_CAGE, seatedAtBoot: [drive(1, 'sdb', 'change')] });
    const sut = s.controller('auto');
    await sut.start();
    await vi.waitFor(() => expect(sut.view().bays[0]?.state).toBe('awaiting_confirmation'));
    expect(sut.confirm(PORT(1))).toEqual({ ok: true });
    await vi.waitFor(() => expect(s.runs.map((r) => [r.device, r.bay])).toEqual([['/dev/sdb', { bay: 'Bay 1', chassis: 'Front cage' }]]));
  });
});

describe('station controller: policy auto-start on insert', () => {
  it('checks a drive inserted into a mapped bay in at once, without asking', async () => {
    const s = station({ map: FRONT_CAGE });
    const sut = s.controller('auto');
    await sut.start();
    s.feed(drive(2, 'sdc', 'add'));
    await vi.waitFor(() => expect(s.runs.map((r) => r.device)).toEqual(['/dev/sdc']));
    expect(sut.view().bays[1]?.state).toBe('checking_in');
  });
});

describe('station controller: a drive in a slot the map does not name', () => {
  it('is listed with its lane and never erased, even under auto-start', async () => {
    const s = station({ map: FRONT_CAGE });
    const sut = s.controller('auto');
    await sut.start();
    s.feed(drive(3, 'sdd', 'add'));
    await vi.waitFor(() => expect(sut.view().unmapped).toEqual([{ device: '/dev/sdd', lane: PORT(3) }]));
    await settle();
    expect(sut.view().bays.map((b) => b.state)).toEqual(['empty', 'empty']);
    expect(sut.confirm(PORT(3))).toMatchObject({ ok: false });
    expect(s.runs).toEqual([]);
  });
});

describe('station controller: mapping again from settings', () => {
  /** Inserts a drive in a port, waits for the wizard to propose it, and accepts the proposal. */
  const mapBay = async (s: ReturnType<typeof station>, sut: StationController, port: number, name: string, label?: string) => {
    s.feed(drive(port, name, 'add'));
    await vi.waitFor(() => expect(sut.view().wizard?.proposal?.lane).toBe(PORT(port)));
    expect(await sut.wizardStep({ action: 'accept', ...(label ? { label } : {}) })).toEqual({ ok: true });
  };
  const nameAndSave = async (sut: StationController, name: string) => {
    expect(await sut.wizardStep({ action: 'finish' })).toEqual({ ok: true });
    expect(await sut.wizardStep({ action: 'name', name })).toEqual({ ok: true });
    expect(await sut.wizardStep({ action: 'save' })).toEqual({ ok: true });
  };

  it('saves the map again for the same chassis (an upsert), and the bay view shows the new map', async () => {
    const s = station();
    const sut = s.controller('confirm');
    await sut.start();
    await mapBay(s, sut, 1, 'sdb');
    await nameAndSave(sut, 'Front cage');
    expect(sut.view().phase).toBe('bays');

    expect(await sut.remap()).toEqual({ ok: true });
    expect(sut.view().phase).toBe('wizard');
    // The drive still in port 1 is asked about, not assigned silently.
    expect(sut.view().wizard?.preexisting.map((p) => p.lane)).toEqual([PORT(1)]);
    expect(await sut.wizardStep({ action: 'assign_preexisting', lane: PORT(1), label: 'Top' })).toEqual({ ok: true });
    await mapBay(s, sut, 2, 'sdc', 'Bottom');
    await nameAndSave(sut, 'Front cage, relabelled');

    expect(s.saves.map((m) => [m.name, m.bays.map((b) => [b.label, b.lane])])).toEqual([
      ['Front cage', [['Bay 1', PORT(1)]]],
      ['Front cage, relabelled', [['Top', PORT(1)], ['Bottom', PORT(2)]]],
    ]);
    expect(sut.view()).toMatchObject({ phase: 'bays', map: { name: 'Front cage, relabelled' } });
    expect(sut.view().bays.map((b) => b.label)).toEqual(['Top', 'Bottom']);
  });
});
