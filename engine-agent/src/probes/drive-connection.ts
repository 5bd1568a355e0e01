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

/**
 * A disk behind a RAID controller: passed through (its serial is one of the controller's physical
 * disks, or the host shows it as a system disk) or the controller's virtual disk, which names the
 * physical disks not exposed on their own and gives each its not-erased line.
 */
export function raidConnection(d: DiscoveredDrive, host: RaidHost, behind: readonly ControllerDisk[], listedSerials: readonly string[]): DriveConnection {
  const serial = d.capabilities.serial?.trim().toUpperCase();
  const isPhysical = serial !== undefined && behind.some((p) => p.serial?.trim().toUpperCase() === serial);
  const summary = `behind RAID controller (${host.family})`;
  const driver = `driver ${host.driver}`;
  if (isPhysical || !looksLikeVirtualDisk(host, d.capabilities.model, d.smart?.vendor)) {
    const reportLine = `Connected through: ${host.family} RAID controller (${host.driver}) in pass-through (JBOD/HBA) mode: erased as a physical drive`;
    return { kind: 'raid-passthrough', summary, reportLine, details: [reportLine, driver] };
  }
  const hidden = hiddenDiskRows(behind, listedSerials);
  const reportLine = virtualDiskWords(host, hidden.map((h) => h.disk));
  const rows = hidden.map(({ disk: p, reason }) => ({ through: p.through, deviceType: p.deviceType, ...(p.model ? { model: p.model } : {}), ...(p.serial ? { serial: p.serial } : {}), ...(p.capacityBytes !== undefined ? { capacityBytes: p.capacityBytes } : {}), reason }));
  return { kind: 'raid-virtual-disk', summary: `${summary}, virtual disk`, reportLine, details: [reportLine, driver, ...hidden.map((h) => `${diskWords(h.disk)}: not erased, ${h.reason}`)], hidden: rows };
}

/**
 * The drives with how each is attached. The physical disks behind the controllers are listed
 * once, only when a virtual disk needs them. Nothing here changes a plan.
 */
export async function withConnections(ports: ConnectionPorts, drives: readonly DiscoveredDrive[]): Promise<DiscoveredDrive[]> {
  const hosts = await Promise.all(drives.map((d) => readRaidHost(ports.sys, blockName(d.device))));
  const cciss = drives.filter((_, i) => hosts[i]?.smartctlType === 'cciss').map((d) => d.device);
  const behind = hosts.some((h) => h?.smartctlType) ? await listControllerDisks(ports.run, cciss) : [];
  const listedSerials = drives.flatMap((d) => (d.capabilities.serial ? [d.capabilities.serial] : []));
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
