import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { nodeSystemView } from '../adapters/system-view.js';
import { createDebouncer, DEFAULT_SETTLE_MS, type Presence, type TimerPort } from './debounce.js';
import { resolveLane, type Lane } from './lanes.js';
import { createUdevParser, type UdevEvent } from './udev-events.js';

/**
 * Recorded-style udev streams (fixtures/udev-monitor, see its README) replayed through the
 * station's own parser, debouncer and lane resolver, with the timing of their header timestamps,
 * over a sysfs tree built in a temp dir that changes as the kernel would change it: a node
 * appears before its add event and is gone before its remove event. Lanes are resolved when a
 * slot settles, as the station does (`stationPorts.laneOf`: the kernel name of DEVNAME + ID_PATH).
 */

const streamsDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'udev-monitor');

/** One settled presence, with the lane resolved at that moment (drives only). */
interface Settled {
  readonly presence: Presence;
  readonly lane?: Lane;
}

/** Timers driven by the stream's own clock. */
function streamClock(): TimerPort & { advanceTo(ms: number): void } {
  let now = -Infinity;
  let queue: Array<{ at: number; fn: () => void; live: boolean }> = [];
  return {
    set(ms, fn) {
      const t = { at: now + ms, fn, live: true };
      queue.push(t);
      return () => (t.live = false);
    },
    advanceTo(until) {
      for (;;) {
        const due = queue.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        due.live = false;
        due.fn();
      }
      now = until;
      queue = queue.filter((t) => t.live);
    },
  };
}

/** A sysfs tree under a temp dir, with relative symlinks as the kernel makes them. */
class SysTree {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'station-sysfs-')));
  path(p: string): string {
    return join(this.root, p);
  }
  file(p: string, text: string): void {
    mkdirSync(dirname(this.path(p)), { recursive: true });
    writeFileSync(this.path(p), text);
  }
  link(at: string, target: string): void {
    mkdirSync(dirname(this.path(at)), { recursive: true });
    symlinkSync(relative(dirname(this.path(at)), this.path(target)), this.path(at));
  }
  remove(p: string): void {
    rmSync(this.path(p), { recursive: true, force: true });
  }
}

/** A hardware case: its stream, the fixed part of its tree, and what a disk's add and remove change in it. */
interface Machine {
  readonly stream: string;
  build(sys: SysTree): void;
  /** Extra nodes of a disk beyond the block device itself (an SES slot link). */
  seat?(sys: SysTree, ev: UdevEvent): void;
  unseat?(sys: SysTree, ev: UdevEvent): void;
  /** The scsi_device (or NVMe controller) a disk's `device` link points at. */
  deviceOf(devpath: string): string;
}

/** Seats or removes a disk or partition node in the tree, as the kernel does before it sends the event. */
function applyToTree(sys: SysTree, m: Machine, ev: UdevEvent): void {
  const dir = `/sys${ev.devpath}`;
  const name = basename(ev.devpath);
  if (ev.action === 'remove') {
    if (ev.devtype === 'disk') {
      m.unseat?.(sys, ev);
      sys.remove(`/sys/block/${name}`);
    }
    sys.remove(`/sys/class/block/${name}`);
    sys.remove(dir);
    return;
  }
  if (ev.action !== 'add') return;
  sys.file(`${dir}/dev`, `${ev.properties.MAJOR}:${ev.properties.MINOR}\n`);
  sys.link(`/sys/class/block/${name}`, dir);
  if (ev.devtype === 'partition') {
    sys.file(`${dir}/partition`, `${ev.properties.PARTN}\n`);
    return;
  }
  sys.file(`${dir}/removable`, '0\n');
  sys.link(`/sys/block/${name}`, dir);
  sys.link(`${dir}/device`, `/sys${m.deviceOf(ev.devpath)}`);
  m.seat?.(sys, ev);
}

const trees: SysTree[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) rmSync(t.root, { recursive: true, force: true });
});

/**
 * Replays a stream event by event at its recorded times (up to `untilSeconds`, then lets every
 * slot settle) and returns what the station would learn, with each drive's lane.
 */
async function replay(m: Machine, untilSeconds = Infinity): Promise<{ settled: Settled[]; events: UdevEvent[] }> {
  const sys = new SysTree();
  trees.push(sys);
  m.build(sys);
  const view = nodeSystemView(sys.root);
  const clock = streamClock();
  const settled: Settled[] = [];
  const resolving: Array<Promise<void>> = [];
  const debouncer = createDebouncer({
    settleMs: DEFAULT_SETTLE_MS,
    timers: clock,
    onSettled: (presence) => {
      if (!presence.present) return void settled.push({ presence });
      const entry: { presence: Presence; lane?: Lane } = { presence };
      settled.push(entry);
      resolving.push(
        resolveLane(view, basename(presence.event.devname ?? ''), presence.event.properties.ID_PATH).then((lane) => {
          if (lane) entry.lane = lane;
        }),
      );
    },
  });
  const parse = createUdevParser();
  const events: UdevEvent[] = [];
  const text = readFileSync(join(streamsDir, m.stream), 'utf8');
  const blocks = text.split(/\n\n/).map((b) => `${b}\n\n`);
  let last = 0;
  for (const block of blocks) {
    const at = /^UDEV\s+\[(\d+\.\d+)\]/.exec(block);
    if (at && Number(at[1]) > untilSeconds) break;
    if (at) {
      last = Number(at[1]) * 1000;
      clock.advanceTo(last);
      // Lanes of slots that settled are read before the tree moves on, as on the machine.
      await Promise.all(resolving.splice(0));
    }
    for (const ev of parse(block)) {
      applyToTree(sys, m, ev);
      events.push(ev);
      debouncer.push(ev);
    }
  }
  clock.advanceTo(last + DEFAULT_SETTLE_MS + 1);
  await Promise.all(resolving.splice(0));
  return { settled, events };
}

// ---------------------------------------------------------------------------------------------
// The three machines.

/** A SAS HBA behind an expander whose backplane has an SES processor (target 0:0:24); phy N is wired to `Slot 0N`. */
const SAS_BASE = '/devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/expander-0:0';
const SES_DEVICE = `${SAS_BASE}/port-0:0:24/end_device-0:0:24/target0:0:24/0:0:24:0`;
const SES_ENCLOSURE = `${SES_DEVICE}/enclosure/0:0:24:0`;
const slotOfPhy = (ev: UdevEvent) => `Slot ${/-phy(\d+)-/.exec(ev.properties.ID_PATH ?? '')?.[1]?.padStart(2, '0')}`;
const scsiDeviceOf = (devpath: string) => devpath.replace(/\/block\/[^/]+$/, '');

const sasExpanderSes: Machine = {
  stream: 'sas-expander-ses.udevadm-monitor.txt',
  build(sys) {
    sys.file(`/sys${SES_DEVICE}/type`, '13\n');
    sys.file(`/sys${SES_ENCLOSURE}/id`, '0x500605b0000272bd\n');
    sys.file(`/sys${SES_ENCLOSURE}/components`, '12\n');
    for (let n = 0; n < 12; n++) {
      const slot = `/sys${SES_ENCLOSURE}/Slot ${String(n).padStart(2, '0')}`;
      for (const [attr, value] of [['locate', '0'], ['fault', '0'], ['status', 'not installed'], ['type', 'array device'], ['slot', String(n)]]) sys.file(`${slot}/${attr}`, `${value}\n`);
    }
    sys.link('/sys/class/enclosure/0:0:24:0', `/sys${SES_ENCLOSURE}`);
  },
  deviceOf: scsiDeviceOf,
  // The ses driver links the disk and its slot both ways once the disk is in.
  seat(sys, ev) {
    const slot = `/sys${SES_ENCLOSURE}/${slotOfPhy(ev)}`;
    sys.link(`/sys${scsiDeviceOf(ev.devpath)}/enclosure_device:${slotOfPhy(ev)}`, slot);
    sys.link(`${slot}/device`, `/sys${scsiDeviceOf(ev.devpath)}`);
    sys.file(`${slot}/status`, 'OK\n');
  },
  unseat(sys, ev) {
    const slot = `/sys${SES_ENCLOSURE}/${slotOfPhy(ev)}`;
    sys.remove(`${slot}/device`);
    sys.file(`${slot}/status`, 'not installed\n');
  },
};

/** Root ports whose PCIe slots the firmware names: 6 (empty), 7 and 8. */
const nvmePcieSlots: Machine = {
  stream: 'nvme-pcie-slot.udevadm-monitor.txt',
  build(sys) {
    for (const [slot, address] of [['6', '0000:01:00'], ['7', '0000:02:00'], ['8', '0000:03:00']] as const) {
      sys.file(`/sys/bus/pci/slots/${slot}/address`, `${address}\n`);
      sys.file(`/sys/bus/pci/slots/${slot}/power`, slot === '6' ? '0\n' : '1\n');
    }
  },
  // nvme0n1's `device` is its controller, nvme0.
  deviceOf: (devpath) => dirname(devpath),
};

const usbDockUas: Machine = {
  stream: 'usb-dock-uas.udevadm-monitor.txt',
  build(sys) {
    sys.file('/sys/devices/pci0000:00/0000:00:14.0/class', '0x0c0330\n');
  },
  deviceOf: scsiDeviceOf,
};

const cases = [
  {
    name: 'a SAS drive behind an expander with an SES enclosure',
    machine: sasExpanderSes,
    pulledAt: 8831.5,
    lane: { lane: 'enclosure-0x500605b0000272bd-slot-Slot_04', connector: { transport: 'sas', controller: '0000:03:00.0', expander: '0x500605b0000272bf', phy: 4, enclosure: { id: '0x500605b0000272bd', slot: 'Slot 04' } } },
    neighbourLane: 'enclosure-0x500605b0000272bd-slot-Slot_07',
    names: ['/dev/sdc', '/dev/sdd'],
  },
  {
    name: 'an NVMe drive hot-plugged in a PCIe slot',
    machine: nvmePcieSlots,
    pulledAt: 430.2,
    lane: { lane: 'pcie-slot-7', connector: { transport: 'nvme', controller: '0000:02:00.0', pcie_slot: '7' } },
    neighbourLane: 'pcie-slot-8',
    names: ['/dev/nvme0n1', '/dev/nvme1n1'],
  },
  {
    name: 'a drive in a USB dock (UAS)',
    machine: usbDockUas,
    pulledAt: 5340.3,
    lane: { lane: 'pci-0000:00:14.0-usb-0:2:1.0-scsi-0:0:0:0', connector: { transport: 'usb', controller: '0000:00:14.0', usb_path: '0:2:1.0', target: '0:0:0:0' } },
    neighbourLane: 'pci-0000:00:14.0-usb-0:4:1.0-scsi-0:0:0:0',
    names: ['/dev/sdb', '/dev/sdc'],
  },
] as const;

const drives = (settled: Settled[]) => settled.filter((s): s is Settled & { presence: Extract<Presence, { present: true }> } => s.presence.present);

describe.each(cases)('recorded udev stream: $name', ({ machine, pulledAt, lane, neighbourLane, names }) => {
  it("names the slot's lane when the drive is seated", async () => {
    const { settled } = await replay(machine, pulledAt);
    expect(drives(settled)[0]?.lane).toEqual(lane);
  });

  it('collapses the flaps of the drive being seated (add, remove, add within the settle window) into one insertion', async () => {
    const { settled, events } = await replay(machine, pulledAt);
    // The stream itself flaps: the disk is added more than once before the pull.
    expect(events.filter((e) => e.devtype === 'disk' && e.action === 'add').length).toBeGreaterThan(1);
    expect(settled.map((s) => (s.presence.present ? [s.presence.event.action, s.presence.event.devname] : ['absent']))).toEqual([['add', names[0]]]);
  });

  it("skips the partitions, though udev gives them the disk's ID_PATH", async () => {
    const { settled, events } = await replay(machine);
    const partitions = new Set(events.filter((e) => e.devtype === 'partition').map((e) => e.devpath));
    expect(partitions.size).toBeGreaterThan(0);
    expect(events.filter((e) => partitions.has(e.devpath)).every((e) => e.properties.ID_PATH !== undefined)).toBe(true);
    expect(settled.filter((s) => partitions.has(s.presence.devpath))).toEqual([]);
  });

  it('reports the pull-out once, for the device path the drive had', async () => {
    const { settled } = await replay(machine);
    const first = drives(settled)[0];
    expect(settled.filter((s) => !s.presence.present).map((s) => s.presence.devpath)).toEqual([first?.presence.devpath]);
  });

  it('gives the same lane to the drive seated again in the same slot under a different device name', async () => {
    const { settled } = await replay(machine);
    const seen = drives(settled);
    const [first, again] = [seen[0], seen.at(-1)];
    expect([first?.presence.event.devname, again?.presence.event.devname]).toEqual(names);
    expect(again?.presence.devpath).not.toBe(first?.presence.devpath);
    expect(again?.lane).toEqual(first?.lane);
  });

  it('gives a neighbouring slot its own lane, even under the device name the first drive had', async () => {
    const { settled } = await replay(machine);
    const neighbour = drives(settled)[1];
    expect(neighbour?.presence.event.devname).toBe(names[0]);
    expect(neighbour?.lane?.lane).toBe(neighbourLane);
  });
});

/** A real `udevadm info` capture as the monitor prints the same device's properties. */
function asMonitorEvent(info: string): string {
  const devpath = /^P: (.+)$/m.exec(info)?.[1] ?? '';
  const props = [...info.matchAll(/^E: (.+)$/gm)].map((m) => m[1]);
  return `UDEV  [1.000000] add      ${devpath} (block)\nACTION=add\n${props.join('\n')}\n\n`;
}

describe.skipIf(!fixturesPresent)(`real udevadm captures (${FIXTURES_SKIP_NOTE})`, () => {
  const noTree: Parameters<typeof resolveLane>[0] = { listDir: async () => [], readText: async () => undefined, realPath: async () => undefined };

  it('maps no lane for an HP Smart Array logical volume: its by-path names a logical disk, not a slot', async () => {
    const [ev] = createUdevParser()(asMonitorEvent(fixtureText('misc', 'hp-smartarray-cciss-logical-volume-udevadm-info.txt')));
    expect(ev?.properties.ID_PATH).toBe('pci-0000:45:00.0-cciss-disk0');
    expect(await resolveLane(noTree, basename(ev?.devname ?? ''), ev?.properties.ID_PATH)).toBeUndefined();
  });

  it('maps no lane for an NVMe namespace whose udev set no ID_PATH (older udev)', async () => {
    const [ev] = createUdevParser()(asMonitorEvent(fixtureText('misc', 'nvme-lvm-pv-udevadm-info-no-model.txt')));
    expect(ev).toMatchObject({ devname: '/dev/nvme0n1', devtype: 'disk' });
    expect(await resolveLane(noTree, 'nvme0n1', ev?.properties.ID_PATH)).toBeUndefined();
  });
});
