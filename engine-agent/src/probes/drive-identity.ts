import type { SystemView } from '../adapters/system-view.js';

/**
 * Which disk a device node named when a station bay probed it. A name such as /dev/sdb is
 * reused by the kernel for the next disk that appears, so a bay's work is bound to the disk
 * itself: its dev_t, its `diskseq` (a number the kernel never gives twice in one boot, 5.15+)
 * and its serial. Any of them changed, or the node gone, and it is no longer the probed drive.
 */
export interface DriveIdentity {
  /** The node the station knows the drive by (as udev named it). */
  readonly device: string;
  /** `major:minor`, from /sys/class/block/<name>/dev. */
  readonly devT: string;
  readonly diskseq?: string;
  readonly serial?: string;
}

/** The serial udev recorded (ID_SERIAL_SHORT), else the one sysfs shows (NVMe controllers, SCSI VPD page 0x80). */
async function serialOf(sys: SystemView, name: string, devT: string): Promise<string | undefined> {
  const record = await sys.readText(`/run/udev/data/b${devT}`);
  const fromUdev = record?.split('\n').find((l) => l.startsWith('E:ID_SERIAL_SHORT='))?.slice('E:ID_SERIAL_SHORT='.length).trim();
  if (fromUdev) return fromUdev;
  const fromSysfs = (await sys.readText(`/sys/class/block/${name}/device/serial`))?.trim();
  if (fromSysfs) return fromSysfs;
  // VPD 0x80: a 4-byte header, then the serial in ASCII; read as text, each header byte is one character.
  const vpd = (await sys.readText(`/sys/class/block/${name}/device/vpd_pg80`))?.slice(4).replace(/[^\x20-\x7e]/g, '').trim();
  return vpd || undefined;
}

/** The identity of the disk `device` names now; undefined when the node or its sysfs entry is gone. */
export async function readDriveIdentity(sys: SystemView, device: string): Promise<DriveIdentity | undefined> {
  const name = (await sys.realPath(device))?.split('/').at(-1);
  if (!name) return undefined;
  const devT = (await sys.readText(`/sys/class/block/${name}/dev`))?.trim();
  // The node itself must still open that device (a stale node, or a name taken by another disk).
  if (!devT || (await sys.deviceNumber(device)) !== devT) return undefined;
  const diskseq = (await sys.readText(`/sys/class/block/${name}/diskseq`))?.trim();
  const serial = await serialOf(sys, name, devT);
  return { device, devT, ...(diskseq ? { diskseq } : {}), ...(serial ? { serial } : {}) };
}

/** Why `now` is not the drive `bound` was (undefined when it is): gone, another dev_t, another disk, another serial. */
export function identityChange(bound: DriveIdentity, now: DriveIdentity | undefined): string | undefined {
  if (!now) return `${bound.device} is gone`;
  if (now.devT !== bound.devT) return `${bound.device} is now device ${now.devT}, not ${bound.devT}`;
  if (now.diskseq !== bound.diskseq) return `${bound.device} is another disk now (diskseq ${now.diskseq ?? 'none'}, was ${bound.diskseq ?? 'none'})`;
  if (now.serial !== bound.serial) return `${bound.device} now has serial ${now.serial ?? 'none'}, not ${bound.serial ?? 'none'}`;
  return undefined;
}

/** Re-reads `bound.device` and says why it is no longer that drive; undefined while it still is. */
export async function driveChanged(sys: SystemView, bound: DriveIdentity): Promise<string | undefined> {
  return identityChange(bound, await readDriveIdentity(sys, bound.device));
}
