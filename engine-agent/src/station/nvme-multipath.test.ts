import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { StationView } from '@erasure/shared';
import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeSystemView } from '../adapters/system-view.js';
import { StationController, type StationRuntimePorts } from '../api/station-controller.js';
import type { Presence } from './debounce.js';
import { resolveLane } from './lanes.js';

/**
 * NVMe drives as a CONFIG_NVME_MULTIPATH kernel shows them, in a sysfs tree built in a temp dir
 * with the kernel's relative symlinks. A single-port drive's namespace sits under its PCI
 * controller; a dual-port drive's (CMIC bit 1) is a multipath head under
 * /devices/virtual/nvme-subsystem, linked to each controller, with hidden per-path disks.
 */

class SysTree {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'nvme-multipath-sysfs-')));
  file(p: string, text: string): void {
    mkdirSync(dirname(join(this.root, p)), { recursive: true });
    writeFileSync(join(this.root, p), text);
  }
  link(at: string, target: string): void {
    const abs = join(this.root, at);
    mkdirSync(dirname(abs), { recursive: true });
    mkdirSync(join(this.root, target), { recursive: true });
    symlinkSync(relative(dirname(abs), join(this.root, target)), abs);
  }
  remove(p: string): void {
    rmSync(join(this.root, p), { recursive: true, force: true });
  }
}

const trees: SysTree[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) rmSync(t.root, { recursive: true, force: true });
});

/** A chassis whose firmware names PCIe slots 7, 8 and 12 (root ports for buses 02, 03, 05). */
function chassis(): SysTree {
  const sys = new SysTree();
  trees.push(sys);
  for (const [slot, bus] of [['7', '0000:02:00'], ['8', '0000:03:00'], ['12', '0000:05:00']] as const) sys.file(`/sys/bus/pci/slots/${slot}/address`, `${bus}\n`);
  return sys;
}

interface Path {
  /** Controller name, e.g. nvme1. */
  readonly name: string;
  /** Its PCI function. */
  readonly pci: string;
  readonly state?: string;
}

const controllerDir = (c: Path) => `/sys/devices/pci0000:00/0000:00:01.0/${c.pci}/nvme/${c.name}`;

function addController(sys: SysTree, c: Path): void {
  const dir = controllerDir(c);
  sys.file(`${dir}/state`, `${c.state ?? 'live'}\n`);
  sys.file(`${dir}/address`, `${c.pci}\n`);
  sys.file(`${dir}/transport`, 'pcie\n');
  sys.link(`${dir}/device`, `/sys/devices/pci0000:00/0000:00:01.0/${c.pci}`);
  sys.link(`/sys/class/nvme/${c.name}`, dir);
}

function addDisk(sys: SysTree, dir: string, name: string, parent: string): void {
  sys.file(`${dir}/size`, '7501476528\n');
  sys.link(`${dir}/device`, parent);
  sys.link(`/sys/class/block/${name}`, dir);
  sys.link(`/sys/block/${name}`, dir);
}

/** A single-port drive: namespace `nvmeXn1` under its controller. */
function singlePort(sys: SysTree, c: Path): string {
  addController(sys, c);
  addDisk(sys, `${controllerDir(c)}/${c.name}n1`, `${c.name}n1`, controllerDir(c));
  return `${c.name}n1`;
}

/** A dual-port drive: subsystem `nvme-subsysN`, head `head`, one hidden path per controller. Returns the head's devpath. */
function multipath(sys: SysTree, subsystem: string, head: string, paths: readonly Path[]): string {
  const subsys = `/sys/devices/virtual/nvme-subsystem/${subsystem}`;
  sys.file(`${subsys}/subsysnqn`, 'nqn.2014.08.org.nvmexpress:uuid:8f4c0f0e-1c5e-4bd4-9b1a-6a52a4f0c2d1\n');
  sys.link(`/sys/class/nvme-subsystem/${subsystem}`, subsys);
  addDisk(sys, `${subsys}/${head}`, head, subsys);
  const instance = /^nvme(\d+)n/.exec(head)?.[1];
  for (const c of paths) {
    addController(sys, c);
    sys.link(`${subsys}/${c.name}`, controllerDir(c));
    // The hidden per-path disk, nvme<subsystem>c<controller>n1: in sysfs, never a uevent or a /dev node.
    const hidden = `nvme${instance}c${c.name.slice('nvme'.length)}n1`;
    sys.file(`${controllerDir(c)}/${hidden}/size`, '7501476528\n');
    sys.link(`/sys/class/block/${hidden}`, `${controllerDir(c)}/${hidden}`);
    sys.link(`${subsys}/${head}/multipath/${hidden}`, `${controllerDir(c)}/${hidden}`);
  }
  return `${subsys.slice('/sys'.length)}/${head}`;
}

/** Pulls a dual-port drive: its head, subsystem and controllers go. */
function pull(sys: SysTree, subsystem: string, head: string, paths: readonly Path[]): void {
  sys.remove(`/sys/devices/virtual/nvme-subsystem/${subsystem}`);
  for (const p of [`/sys/class/nvme-subsystem/${subsystem}`, `/sys/class/block/${head}`, `/sys/block/${head}`]) sys.remove(p);
  for (const c of paths) {
    sys.remove(`/sys/devices/pci0000:00/0000:00:01.0/${c.pci}/nvme`);
    sys.remove(`/sys/class/nvme/${c.name}`);
  }
}

const PORT_A = '0000:02:00.0';
const PORT_B = '0000:05:00.0';

describe('lanes of NVMe drives under a multipath kernel', () => {
  it('name a single-port drive under its PCI controller by its PCIe slot, as before', async () => {
    const sys = chassis();
    const name = singlePort(sys, { name: 'nvme0', pci: '0000:03:00.0' });
    expect(await resolveLane(nodeSystemView(sys.root), name, 'pci-0000:03:00.0-nvme-1')).toEqual({ lane: 'pcie-slot-8', connector: { transport: 'nvme', controller: '0000:03:00.0', pcie_slot: '8' } });
  });

  it('name a dual-port drive wired through one port by that port’s slot, with or without an ID_PATH', async () => {
    const sys = chassis();
    multipath(sys, 'nvme-subsys0', 'nvme0n1', [{ name: 'nvme0', pci: PORT_A }]);
    const view = nodeSystemView(sys.root);
    const lane = { lane: 'pcie-slot-7', connector: { transport: 'nvme', controller: PORT_A, pcie_slot: '7' } };
    expect(await resolveLane(view, 'nvme0n1', `pci-${PORT_A}-nvme-1`)).toEqual(lane);
    // path_id sets none once the controller the head is named after is gone.
    expect(await resolveLane(view, 'nvme0n1', undefined)).toEqual(lane);
  });

  it('name a drive seen through both ports by the lowest controller’s slot, keep both, and ignore which port udev named', async () => {
    const sys = chassis();
    // Port B probed first: the head took its instance number, and path_id names it.
    multipath(sys, 'nvme-subsys1', 'nvme1n1', [{ name: 'nvme1', pci: PORT_B }, { name: 'nvme2', pci: PORT_A }]);
    expect(await resolveLane(nodeSystemView(sys.root), 'nvme1n1', `pci-${PORT_B}-nvme-1`)).toEqual({
      lane: 'pcie-slot-7',
      connector: { transport: 'nvme', controller: PORT_A, other_controllers: [PORT_B], pcie_slot: '7' },
    });
  });

  it('keep the lane while a path resets, and follow the remaining port once a path is torn down', async () => {
    const resetting = chassis();
    multipath(resetting, 'nvme-subsys0', 'nvme0n1', [{ name: 'nvme0', pci: PORT_A, state: 'resetting' }, { name: 'nvme1', pci: PORT_B }]);
    expect((await resolveLane(nodeSystemView(resetting.root), 'nvme0n1', undefined))?.lane).toBe('pcie-slot-7');
    const dead = chassis();
    multipath(dead, 'nvme-subsys0', 'nvme0n1', [{ name: 'nvme0', pci: PORT_A, state: 'dead' }, { name: 'nvme1', pci: PORT_B }]);
    expect(await resolveLane(nodeSystemView(dead.root), 'nvme0n1', undefined)).toEqual({ lane: 'pcie-slot-12', connector: { transport: 'nvme', controller: PORT_B, pcie_slot: '12' } });
  });

  it('give the drive pulled and seated again in the same slot, as another nvmeXnY, the same lane', async () => {
    const sys = chassis();
    const view = nodeSystemView(sys.root);
    const first = [{ name: 'nvme0', pci: PORT_A }, { name: 'nvme1', pci: PORT_B }];
    multipath(sys, 'nvme-subsys0', 'nvme0n1', first);
    const before = await resolveLane(view, 'nvme0n1', `pci-${PORT_A}-nvme-1`);
    pull(sys, 'nvme-subsys0', 'nvme0n1', first);
    expect(await resolveLane(view, 'nvme0n1', undefined)).toBeUndefined();
    // New instance numbers, and this time port B won the probe race.
    multipath(sys, 'nvme-subsys3', 'nvme3n1', [{ name: 'nvme3', pci: PORT_B }, { name: 'nvme4', pci: PORT_A }]);
    const after = await resolveLane(view, 'nvme3n1', `pci-${PORT_B}-nvme-1`);
    expect(before?.lane).toBe('pcie-slot-7');
    expect(after).toEqual(before);
  });

  it('fall back to the lowest controller address where the firmware names no slot', async () => {
    const sys = new SysTree();
    trees.push(sys);
    multipath(sys, 'nvme-subsys0', 'nvme0n1', [{ name: 'nvme0', pci: PORT_B }, { name: 'nvme1', pci: PORT_A }]);
    expect((await resolveLane(nodeSystemView(sys.root), 'nvme0n1', undefined))?.lane).toBe(`pci-${PORT_A}-nvme`);
  });

  it('map no lane for a namespace reached over fabrics (no PCI controller) or a device-mapper disk', async () => {
    const sys = chassis();
    const subsys = '/sys/devices/virtual/nvme-subsystem/nvme-subsys5';
    addDisk(sys, `${subsys}/nvme5n1`, 'nvme5n1', subsys);
    sys.file('/sys/devices/virtual/nvme-fabrics/ctl/nvme5/state', 'live\n');
    sys.link(`${subsys}/nvme5`, '/sys/devices/virtual/nvme-fabrics/ctl/nvme5');
    sys.link('/sys/devices/virtual/nvme-fabrics/ctl/nvme5/device', '/sys/devices/virtual/nvme-fabrics/ctl');
    addDisk(sys, '/sys/devices/virtual/block/dm-0', 'dm-0', '/sys/devices/virtual/block');
    const view = nodeSystemView(sys.root);
    expect(await resolveLane(view, 'nvme5n1', undefined)).toBeUndefined();
    expect(await resolveLane(view, 'dm-0', undefined)).toBeUndefined();
  });
});

describe('the station with a dual-port NVMe drive', () => {
  const seated = (devpath: string, devname: string, idPath?: string): Presence => ({
    devpath,
    present: true,
    event: { action: 'change', devpath, devname, devtype: 'disk', seqnum: undefined, properties: idPath ? { ID_PATH: idPath } : {} },
  });

  /** A station over the tree: lanes as `stationPorts.laneOf` resolves them; presences fed by the test. */
  function rig(sys: SysTree, mapped: boolean) {
    const view = nodeSystemView(sys.root);
    let feed: (p: Presence) => void = () => undefined;
    const ports: StationRuntimePorts = {
      lookupMap: async () => (mapped ? { ok: true, name: 'U.2 cage', bays: [{ lane: 'pcie-slot-7', label: 'Bay 1', connector: {} }] } : { ok: true }),
      saveMap: async () => ({ ok: true }),
      watch: (onPresence) => {
        feed = onPresence;
        return { stop: async () => undefined, ended: new Promise(() => undefined) };
      },
      announcePresent: async () => undefined,
      controllers: async () => [],
      canLocate: async () => false,
      locate: async () => false,
      followCertificate: () => undefined,
      certificateOf: () => undefined,
      laneOf: async (p) => (p.event.devname ? resolveLane(view, basename(p.event.devname), p.event.properties.ID_PATH) : undefined),
      probe: async (device) => ({ device, health: 'unknown' }),
      guard: async () => ({ ok: true }),
      runBay: () => new Promise(() => undefined),
    };
    return { ports, feed: (p: Presence) => feed(p) };
  }

  /** The live system's own virtual disks, all seated at start-up like the drive. */
  const virtualDisks = ['block/loop0', 'block/dm-0', 'block/md127', 'block/zram0', 'block/ram0'].map((p) => seated(`/devices/virtual/${p}`, `/dev/${basename(p)}`));
  // Presences are handled asynchronously (guard, lane, probe); wait for the outcome rather than a
  // fixed time, which a loaded machine can outrun.
  const eventually = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 10 });

  it('offers the multipath head in the wizard and keeps loop, dm, md, zram and ram devices out', async () => {
    const sys = chassis();
    const head = multipath(sys, 'nvme-subsys0', 'nvme0n1', [{ name: 'nvme0', pci: PORT_A }, { name: 'nvme1', pci: PORT_B }]);
    const { ports, feed } = rig(sys, false);
    const sut = new StationController(ports, 'auto', () => undefined);
    await sut.start();
    for (const p of [...virtualDisks, seated(head, '/dev/nvme0n1')]) feed(p);
    await eventually(() =>
      expect(sut.view().wizard?.preexisting).toEqual([{ lane: 'pcie-slot-7', connector: { transport: 'nvme', controller: PORT_A, other_controllers: [PORT_B], pcie_slot: '7' }, device: '/dev/nvme0n1' }]),
    );
    // Both paths fit the shared connector the kiosk checks the state against.
    expect(Value.Check(StationView, sut.view())).toBe(true);
  });

  it('puts the multipath head in its mapped bay and lists none of the virtual disks as unmapped', async () => {
    const sys = chassis();
    const head = multipath(sys, 'nvme-subsys0', 'nvme0n1', [{ name: 'nvme0', pci: PORT_A }]);
    const { ports, feed } = rig(sys, true);
    const sut = new StationController(ports, 'confirm', () => undefined);
    await sut.start();
    for (const p of [...virtualDisks, seated(head, '/dev/nvme0n1')]) feed(p);
    await eventually(() => expect(sut.view().bays.map((b) => [b.lane, b.state, b.drive?.device])).toEqual([['pcie-slot-7', 'awaiting_confirmation', '/dev/nvme0n1']]));
    expect(sut.view().unmapped).toEqual([]);
  });
});
