import type { SysfsReader } from '../probes/sysfs-block.js';

/** How a slot is wired: what the bay view and the chassis map's `connector` keep (shared StationConnector, snake_case on the wire). */
export interface Connector {
  readonly transport: 'sata' | 'sas' | 'nvme' | 'usb' | 'scsi';
  /** PCI address of the controller (HBA, AHCI, NVMe, USB host); a dual-port NVMe drive's lowest. */
  readonly controller: string;
  /** A dual-port NVMe drive's other controllers, when it is reached through more than one. */
  readonly other_controllers?: string[];
  readonly port?: string;
  readonly phy?: number;
  readonly expander?: string;
  readonly target?: string;
  readonly usb_path?: string;
  /** The PCIe slot an NVMe drive sits in (its name under /sys/bus/pci/slots), where the firmware names one. */
  readonly pcie_slot?: string;
  /** SES enclosure slot, where the backplane has an enclosure processor. */
  readonly enclosure?: { readonly id: string; readonly slot: string };
}

/** The stable physical identity of a slot (never /dev/sdX, which changes with insertion order). */
export interface Lane {
  readonly lane: string;
  readonly connector: Connector;
}

/**
 * The lane of a disk from its udev `ID_PATH` (the name under /dev/disk/by-path), e.g.
 *   pci-0000:00:1f.2-ata-3.0                       SATA port 3 of an AHCI controller
 *   pci-0000:03:00.0-sas-exp0x500605b0000272bf-phy5-lun-0   phy 5 of a SAS expander
 *   pci-0000:03:00.0-sas-phy2-lun-0                 phy 2 of a SAS HBA, direct attach
 *   pci-0000:02:00.0-nvme-1                         an NVMe controller (its PCIe slot)
 *   pci-0000:00:14.0-usb-0:3.2:1.0-scsi-0:0:0:0     port 3.2 of a USB dock
 *   pci-0000:00:03.0-scsi-0:0:1:0                   a SCSI target (virtio-scsi, VMware)
 * Undefined when the path names nothing the station can map to a bay.
 */
export function laneFromIdPath(idPath: string | undefined): Lane | undefined {
  if (!idPath) return undefined;
  const pci = /^pci-([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])-(.+)$/i.exec(idPath);
  if (!pci) return undefined;
  const controller = pci[1] as string;
  const rest = pci[2] as string;
  let m: RegExpExecArray | null;
  if ((m = /^ata-(\d+)(?:\.(\d+))?$/.exec(rest))) {
    return { lane: idPath, connector: { transport: 'sata', controller, port: m[2] && m[2] !== '0' ? `${m[1]}.${m[2]}` : (m[1] as string) } };
  }
  if ((m = /^sas-exp(0x[0-9a-f]+)-phy(\d+)-lun-\d+$/i.exec(rest))) {
    return { lane: idPath, connector: { transport: 'sas', controller, expander: m[1] as string, phy: Number(m[2]) } };
  }
  if ((m = /^sas-phy(\d+)-lun-\d+$/.exec(rest))) return { lane: idPath, connector: { transport: 'sas', controller, phy: Number(m[1]) } };
  if ((m = /^nvme-(\d+)$/.exec(rest))) return { lane: `pci-${controller}-nvme`, connector: { transport: 'nvme', controller } };
  if ((m = /^usb-([\d:.]+)-scsi-([\d:]+)$/.exec(rest))) return { lane: idPath, connector: { transport: 'usb', controller, usb_path: m[1] as string, target: m[2] as string } };
  if ((m = /^scsi-(\d+:\d+:\d+:\d+)$/.exec(rest))) return { lane: idPath, connector: { transport: 'scsi', controller, target: m[1] as string } };
  return undefined;
}

/**
 * The SES slot of a disk behind an enclosure processor: the kernel links it as
 * `/sys/class/block/<name>/device/enclosure_device:<slot>`, and the enclosure's `id` (its SAS
 * address) names the backplane. A slot survives recabling the expander, so it outranks the phy.
 */
export async function enclosureSlotOf(sys: SysfsReader, kernelName: string): Promise<{ id: string; slot: string } | undefined> {
  const entries = await sys.listDir(`/sys/class/block/${kernelName}/device`);
  const link = entries.find((e) => e.startsWith('enclosure_device:'));
  if (!link) return undefined;
  const slotDir = await sys.realPath(`/sys/class/block/${kernelName}/device/${link}`);
  const enclosureDir = slotDir?.split('/').slice(0, -1).join('/');
  const id = enclosureDir ? (await sys.readText(`${enclosureDir}/id`))?.trim() : undefined;
  return { id: id || (enclosureDir?.split('/').at(-1) ?? 'enclosure'), slot: link.slice('enclosure_device:'.length) };
}

/**
 * The PCIe slot of a controller: the kernel lists each physical slot under /sys/bus/pci/slots/<name>
 * with the bus address (`0000:02:00`) of the device seated in it. Undefined where the firmware
 * names no slots (most desktops, QEMU).
 */
export async function pcieSlotOf(sys: SysfsReader, controller: string): Promise<string | undefined> {
  const address = controller.replace(/\.[0-7]$/, '');
  for (const slot of await sys.listDir('/sys/bus/pci/slots')) {
    if ((await sys.readText(`/sys/bus/pci/slots/${slot}/address`))?.trim() === address) return slot;
  }
  return undefined;
}

/**
 * Where the kernel puts the namespace of an NVMe subsystem that can have several controllers
 * (CMIC bit 1: dual-port U.2/U.3 drives) when it is built with CONFIG_NVME_MULTIPATH: one
 * multipath head per namespace, `/devices/virtual/nvme-subsystem/nvme-subsysN/nvmeXnY`, named
 * after the subsystem's instance rather than a controller. The per-path disks (`nvmeXcZnY`) are
 * hidden: no uevent, no /dev node.
 */
const MULTIPATH_HEAD = /^\/devices\/virtual\/nvme-subsystem\/nvme-subsys\d+\/nvme\d+n\d+$/;

/** Whether a udev device path is an NVMe multipath head: the one virtual block device that is a real drive. */
export function isNvmeMultipathHead(devpath: string): boolean {
  return MULTIPATH_HEAD.test(devpath);
}

const PCI_ADDRESS = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/;

/** Controller states of a path being torn down (the kernel's `state` attribute); any other state is a path that is, or will be again, there. */
const PATH_GONE = new Set(['deleting', 'deleting (no IO)', 'dead']);

/**
 * The PCI addresses of the controllers behind an NVMe multipath head, lowest first; undefined
 * when the disk is not one. The head's subsystem links each controller (`nvme-subsysN/nvmeX` →
 * `/sys/class/nvme/nvmeX`), whose `device` is its PCI function. A path being torn down is left
 * out; one resetting still counts, so a transient reset does not move the drive to another lane.
 * Controllers that are not PCI functions (NVMe over Fabrics) give no address.
 */
export async function multipathControllersOf(sys: SysfsReader, kernelName: string): Promise<string[] | undefined> {
  const disk = await sys.realPath(`/sys/class/block/${kernelName}`);
  if (!disk?.startsWith('/sys/') || !isNvmeMultipathHead(disk.slice('/sys'.length))) return undefined;
  const subsystem = disk.split('/').slice(0, -1).join('/');
  const addresses = new Set<string>();
  for (const controller of (await sys.listDir(subsystem)).filter((e) => /^nvme\d+$/.test(e))) {
    const state = (await sys.readText(`${subsystem}/${controller}/state`))?.trim();
    if (state !== undefined && PATH_GONE.has(state)) continue;
    const pci = (await sys.realPath(`${subsystem}/${controller}/device`))?.split('/').at(-1);
    if (pci && PCI_ADDRESS.test(pci)) addresses.add(pci);
  }
  return [...addresses].sort();
}

/**
 * The lane of an NVMe drive reached through `controllers` (one, or both ports of a dual-port
 * drive, lowest address first). The lowest address names the lane (its PCIe slot where the
 * firmware names one), so a drive seen through one path or two, or a single-port drive in the
 * same slot, gets the same lane; the connector keeps every path. Undefined without a controller.
 */
async function nvmeLane(sys: SysfsReader, controllers: readonly string[]): Promise<Lane | undefined> {
  const first = controllers[0];
  if (first === undefined) return undefined;
  const slot = await pcieSlotOf(sys, first);
  const connector: Connector = {
    transport: 'nvme',
    controller: first,
    ...(controllers.length > 1 ? { other_controllers: controllers.slice(1) } : {}),
    ...(slot ? { pcie_slot: slot } : {}),
  };
  return { lane: slot ? `pcie-slot-${slot}` : `pci-${first}-nvme`, connector };
}

/**
 * The lane of a disk: its SES slot where there is one, an NVMe drive's PCIe slot, else its udev
 * path. An NVMe multipath head is resolved from its controllers in sysfs, whatever `idPath`
 * says: udev's path_id names the controller whose instance number the head took (the port that
 * happened to probe first) and sets no ID_PATH at all once that controller is gone.
 */
export async function resolveLane(sys: SysfsReader, kernelName: string, idPath: string | undefined): Promise<Lane | undefined> {
  const paths = await multipathControllersOf(sys, kernelName);
  if (paths) return nvmeLane(sys, paths);
  const byPath = laneFromIdPath(idPath);
  if (!byPath) return undefined;
  if (byPath.connector.transport === 'nvme') return nvmeLane(sys, [byPath.connector.controller]);
  const enclosure = await enclosureSlotOf(sys, kernelName);
  if (!enclosure) return byPath;
  return { lane: `enclosure-${enclosure.id}-slot-${enclosure.slot.replace(/\s+/g, '_')}`, connector: { ...byPath.connector, enclosure } };
}
