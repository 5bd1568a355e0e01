import type { Runner } from '../adapters/runner.js';
import type { DiscoveredDrive } from './discover-drives.js';
import { diskWords, hiddenDiskRows, listControllerDisks, virtualDiskWords, type ControllerDisk } from './raid-disks.js';
import { looksLikeVirtualDisk, readRaidHost, type RaidHost } from './raid-host.js';
import type { SysfsReader } from './sysfs-block.js';
import { bridgeConnectionLine, readUsbBridge, type UsbBridge } from './usb-bridge.js';
import type { DriveConnection } from './drive-connection-types.js';
import { mmcConnection } from './mmc-connection.js';

export type { DriveConnection } from './drive-connection-types.js';

/** The ports: sysfs for the host and the bridge, the runner for smartctl behind the controller. */
export interface ConnectionPorts {
  readonly sys: SysfsReader;
  readonly run: Runner;
}

const blockName = (device: string) => device.replace(/^\/dev\//, '').replace(/\//g, '!');

/** A firmware erase was refused for the bridge, so the plan is an overwrite it would not otherwise be. */
const fellBackForBridge = (d: DiscoveredDrive) => d.plan.rejected.some((r) => /USB bridge/.test(r.reason));

export function bridgeConnection(d: DiscoveredDrive, bridge: UsbBridge): DriveConnection {
  const name = bridge.chip ?? bridge.usbProduct ?? 'unidentified chip';
  const reportLine = bridgeConnectionLine(bridge, fellBackForBridge(d));
  const ids = bridge.vendorId && bridge.productId ? [`USB ids ${bridge.vendorId}:${bridge.productId}`] : [];
  const type = bridge.smartctlType ? [`smartctl device type ${bridge.smartctlType}`] : [];
  return { kind: 'usb-bridge', summary: `through USB bridge (${name.replace(/ \(chip not identified\)$/, '')})`, reportLine, details: [reportLine, ...ids, ...type] };
}

const norm = (serial: string | undefined) => serial?.trim().toUpperCase() || undefined;

/**
 * Whether the disk is the controller's virtual disk. On megaraid_sas the SCSI channel decides
 * (logical drives on 2 and 3, system disks on 0 and 1) before any serial: QEMU's megasas passes
 * the member disk's INQUIRY through to its logical drive, so the virtual disk carries the very
 * serial smartctl reads from the physical disk behind it (seen booting the image on
 * `megasas-gen2` without `use_jbod`). Elsewhere a serial one of the physical disks also carries
 * marks the disk as passed through, and the model words decide the rest.
 */
export function isVirtualDisk(d: DiscoveredDrive, host: RaidHost, behind: readonly ControllerDisk[]): boolean {
  if (host.driver === 'megaraid_sas' && host.channel !== undefined) return host.channel >= 2;
  const serial = norm(d.capabilities.serial);
  if (serial !== undefined && behind.some((p) => norm(p.serial) === serial)) return false;
  return looksLikeVirtualDisk(host, d.capabilities.model, d.smart?.vendor);
}

/**
 * The physical disks of the virtual disk's own controller: smartctl reaches a MegaRAID host's
 * disks through `/dev/bus/<host number>` and an HPE controller's through the virtual disk's node.
 * A machine with two controllers must not hang one controller's disks under the other's array.
 */
export function disksOfController(d: DiscoveredDrive, host: RaidHost, behind: readonly ControllerDisk[]): ControllerDisk[] {
  if (host.smartctlType === 'megaraid' && host.hostNumber !== undefined) return behind.filter((p) => p.through === `/dev/bus/${host.hostNumber}`);
  if (host.smartctlType === 'cciss') return behind.filter((p) => p.through === d.device);
  return [...behind];
}

/**
 * A disk behind a RAID controller: passed through (its serial is one of the controller's physical
 * disks, or the host shows it as a system disk) or the controller's virtual disk, which names the
 * physical disks not exposed on their own and gives each its not-erased line. `listedSerials` are
 * those of the disks the machine exposes as physical drives (virtual disks left out).
 */
export function raidConnection(d: DiscoveredDrive, host: RaidHost, behind: readonly ControllerDisk[], listedSerials: readonly string[]): DriveConnection {
  const summary = `behind RAID controller (${host.family})`;
  const driver = `driver ${host.driver}`;
  if (!isVirtualDisk(d, host, behind)) {
    const reportLine = `Connected through: ${host.family} RAID controller (${host.driver}) in pass-through (JBOD/HBA) mode: erased as a physical drive`;
    return { kind: 'raid-passthrough', summary, reportLine, details: [reportLine, driver] };
  }
  const members = disksOfController(d, host, behind);
  const hidden = hiddenDiskRows(members, listedSerials);
  const reportLine = virtualDiskWords(host, hidden.map((h) => h.disk));
  const rows = hidden.map(({ disk: p, reason }) => ({ through: p.through, deviceType: p.deviceType, ...(p.model ? { model: p.model } : {}), ...(p.serial ? { serial: p.serial } : {}), ...(p.capacityBytes !== undefined ? { capacityBytes: p.capacityBytes } : {}), reason }));
  // A virtual disk that answers with a member's serial must not certify under it: the wipe result
  // would read as that physical drive's certificate.
  const own = norm(d.capabilities.serial);
  const borrowed = own !== undefined && members.some((p) => norm(p.serial) === own);
  return {
    kind: 'raid-virtual-disk',
    summary: `${summary}, virtual disk`,
    reportLine,
    details: [reportLine, driver, ...hidden.map((h) => `${diskWords(h.disk)}: not erased, ${h.reason}`)],
    hidden: rows,
    ...(borrowed ? { serial: virtualDiskSerial(d.capabilities.serial ?? '') } : {}),
  };
}

/**
 * The serial a drive's wipe result and validation look-up carry: its own, or the virtual disk's
 * marked serial when it answers with a member's (see raidConnection).
 */
export const reportedSerial = (d: Pick<DiscoveredDrive, 'capabilities' | 'connection'>): string | undefined => d.connection?.serial ?? d.capabilities.serial;

/** The serial a virtual disk's wipe result carries when the disk answers with a member's serial. */
export const virtualDiskSerial = (memberSerial: string) => `${memberSerial.trim()} (RAID virtual disk)`;

/**
 * The drives with how each is attached. The physical disks behind the controllers are listed
 * once, only when a virtual disk needs them. Nothing here changes a plan.
 */
export async function withConnections(ports: ConnectionPorts, drives: readonly DiscoveredDrive[]): Promise<DiscoveredDrive[]> {
  const hosts = await Promise.all(drives.map((d) => readRaidHost(ports.sys, blockName(d.device))));
  const cciss = drives.filter((_, i) => hosts[i]?.smartctlType === 'cciss').map((d) => d.device);
  const behind = hosts.some((h) => h?.smartctlType) ? await listControllerDisks(ports.run, cciss) : [];
  // A virtual disk's serial exposes no physical disk, even when it repeats a member's.
  const listedSerials = drives.flatMap((d, i) => {
    const host = hosts[i];
    return d.capabilities.serial && !(host && isVirtualDisk(d, host, behind)) ? [d.capabilities.serial] : [];
  });
  const out: DiscoveredDrive[] = [];
  for (const [i, d] of drives.entries()) {
    const host = hosts[i];
    const card = mmcConnection(d.capabilities);
    if (card) {
      out.push({ ...d, connection: card });
      continue;
    }
    if (host) {
      out.push({ ...d, connection: raidConnection(d, host, behind, listedSerials) });
      continue;
    }
    const bridge = await readUsbBridge(ports.sys, blockName(d.device), '', d.smart?.deviceType, d.capabilities.model);
    out.push(bridge ? { ...d, connection: bridgeConnection(d, bridge) } : d);
  }
  return out;
}
