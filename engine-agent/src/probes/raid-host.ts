import type { SysfsReader } from './sysfs-block.js';

/** RAID controller families the agent recognises by their Linux driver (issue 30 item 3). */
export type RaidFamily = 'MegaRAID' | 'LSI SAS' | 'HPE Smart Array' | 'Adaptec';

/** A disk's host adapter driven by a RAID controller driver. */
export interface RaidHost {
  /** Kernel driver of the host adapter: `megaraid_sas`, `mpt3sas`, `hpsa`, `smartpqi`, `aacraid`, `cciss`. */
  readonly driver: string;
  readonly family: RaidFamily;
  /** smartctl `-d` type that reaches the physical disks behind it, when there is one. */
  readonly smartctlType?: 'megaraid' | 'cciss' | 'aacraid';
  /** SCSI host number (`host0` → 0), when the path shows one. */
  readonly hostNumber?: number;
  /** SCSI channel of the disk (`0:2:0:0` → 2), when the path shows one. */
  readonly channel?: number;
}

/**
 * The drivers and how smartctl reaches the disks behind them. mpt3sas disks in HBA (IT) mode are
 * ordinary SCSI devices smartctl opens directly, so it has no `-d` type of its own.
 */
const DRIVERS: Readonly<Record<string, Omit<RaidHost, 'driver' | 'hostNumber' | 'channel'>>> = {
  megaraid_sas: { family: 'MegaRAID', smartctlType: 'megaraid' },
  mpt3sas: { family: 'LSI SAS' },
  mpt2sas: { family: 'LSI SAS' },
  hpsa: { family: 'HPE Smart Array', smartctlType: 'cciss' },
  smartpqi: { family: 'HPE Smart Array', smartctlType: 'cciss' },
  cciss: { family: 'HPE Smart Array', smartctlType: 'cciss' },
  aacraid: { family: 'Adaptec', smartctlType: 'aacraid' },
};

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const parentOf = (path: string, levels: number) => path.split('/').slice(0, -levels).join('/');

/** The RAID family of a driver name, or undefined for any other driver (ahci, nvme, usb-storage). */
export function raidFamilyOf(driver: string): RaidHost['family'] | undefined {
  return DRIVERS[driver]?.family;
}

/**
 * Which RAID driver runs the host of `/sys/block/<name>`, or undefined when none does. The
 * driver link of the PCI function three levels above the SCSI device is read first
 * (`device/../../../driver`: scsi device → target → host → PCI function); the host's
 * `scsi_host/hostN/proc_name` answers when that link is absent (some drivers name the host only).
 * Relative `..` is applied to the resolved path, since sysfs `device` is a symlink.
 */
export async function readRaidHost(sys: SysfsReader, name: string, root = ''): Promise<RaidHost | undefined> {
  const device = await sys.realPath(`${root}/sys/block/${name}/device`);
  const whole = device ?? (await sys.realPath(`${root}/sys/block/${name}`));
  if (!whole) return undefined;
  // The old cciss driver has no SCSI layer: its block devices sit under `cciss0/c0d0`.
  if (/\/cciss\d+\//.test(whole)) return { driver: 'cciss', ...DRIVERS.cciss! };
  const scsi = /\/host(\d+)\/target\d+:(\d+):\d+\/\d+:\d+:\d+:\d+$/.exec(device ?? '');
  const hostNumber = scsi ? Number(scsi[1]) : undefined;
  const channel = scsi ? Number(scsi[2]) : undefined;
  const pciDriver = device ? await sys.realPath(`${root}${parentOf(device, 3)}/driver`) : undefined;
  const procName = hostNumber !== undefined ? (await sys.readText(`${root}/sys/class/scsi_host/host${hostNumber}/proc_name`))?.trim() : undefined;
  for (const driver of [pciDriver ? basename(pciDriver) : undefined, procName]) {
    const known = driver ? DRIVERS[driver] : undefined;
    if (driver && known) return { driver, ...known, ...(hostNumber !== undefined ? { hostNumber } : {}), ...(channel !== undefined ? { channel } : {}) };
  }
  return undefined;
}

/**
 * Whether the block device is a virtual disk of the controller rather than a physical disk it
 * passes through. megaraid_sas puts logical drives on SCSI channels 2 and 3 and system (JBOD)
 * disks on 0 and 1 (drivers/scsi/megaraid/megaraid_sas.h, MEGASAS_MAX_PD_CHANNELS); HPE
 * controllers name their logical drives `LOGICAL VOLUME`; a MegaRAID VD carries the controller's
 * own model (`MR9361-16i`, `PERC H730`). A serial that matches a physical disk behind the
 * controller wins over all of these (see raid-disks.ts).
 */
export function looksLikeVirtualDisk(host: RaidHost, model?: string, vendor?: string): boolean {
  if (host.driver === 'megaraid_sas' && host.channel !== undefined) return host.channel >= 2;
  const m = `${vendor ?? ''} ${model ?? ''}`;
  return /LOGICAL[ _]VOLUME|\bMR9\d{3}|PERC\s|MegaRAID|Virtual[ _]Disk|\bRAID\s?\d/i.test(m);
}
