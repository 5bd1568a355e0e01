import { compact } from './unknown.js';

/** Read-only filesystem port for sysfs; the adapter binds it to `/` (or to a captured dump in tests). */
export interface SysfsReader {
  /** Entries of a directory, [] when it does not exist. */
  listDir(path: string): Promise<string[]>;
  /** File content, undefined when the file does not exist or cannot be read. */
  readText(path: string): Promise<string | undefined>;
  /** Symlink target resolved to a path relative to the sysfs root, undefined when absent. */
  realPath(path: string): Promise<string | undefined>;
}

/** A whole-disk block device as sysfs shows it. */
export interface SysBlockDevice {
  readonly name: string;
  /** Resolved device path, e.g. `/sys/devices/pci0000:00/.../usb2/.../block/sdb`. */
  readonly devicePath?: string;
  /** `nvme`, `usb`, `ata`, `scsi`, `virtio`, `mmc`, or undefined; read from the device path. */
  readonly bus?: string;
  readonly sizeBytes?: number;
  readonly removable?: boolean;
  readonly rotational?: boolean;
  readonly readOnly?: boolean;
  readonly logicalBlockSize?: number;
  readonly physicalBlockSize?: number;
  readonly model?: string;
  readonly vendor?: string;
  readonly revision?: string;
  readonly serial?: string;
  readonly partitions: readonly string[];
}

const int = (text: string | undefined) => (text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : undefined);
const flag = (text: string | undefined) => (int(text) === undefined ? undefined : int(text) === 1);
const trimmed = (text: string | undefined) => text?.trim() || undefined;

/** The bus, from the sysfs path: a USB hop anywhere on the way means a bridge, whatever the disk speaks. */
export function busFromDevicePath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  if (/\/usb\d+\//.test(path)) return 'usb';
  if (/\/nvme\//.test(path)) return 'nvme';
  if (/\/ata\d+\//.test(path)) return 'ata';
  if (/\/virtio\d+\//.test(path)) return 'virtio';
  if (/\/mmc_host\//.test(path)) return 'mmc';
  if (/\/host\d+\/target/.test(path)) return 'scsi';
  return undefined;
}

/** Reads `/sys/block/*` under `root` (loop, ram and zram devices included; the caller filters). */
export async function readSysBlock(fs: SysfsReader, root = ''): Promise<SysBlockDevice[]> {
  const names = (await fs.listDir(`${root}/sys/block`)).sort();
  return Promise.all(
    names.map(async (name) => {
      const dir = `${root}/sys/block/${name}`;
      const read = (rel: string) => fs.readText(`${dir}/${rel}`);
      const devicePath = await fs.realPath(dir);
      const sectors = int(await read('size'));
      const entries = await fs.listDir(dir);
      return compact<SysBlockDevice>({
        name,
        devicePath,
        bus: busFromDevicePath(devicePath),
        // sysfs `size` counts 512-byte units whatever the logical block size is.
        sizeBytes: sectors === undefined ? undefined : sectors * 512,
        removable: flag(await read('removable')),
        rotational: flag(await read('queue/rotational')),
        readOnly: flag(await read('ro')),
        logicalBlockSize: int(await read('queue/logical_block_size')),
        physicalBlockSize: int(await read('queue/physical_block_size')),
        model: trimmed(await read('device/model')),
        vendor: trimmed(await read('device/vendor')),
        revision: trimmed((await read('device/rev')) ?? (await read('device/firmware_rev'))),
        serial: trimmed(await read('device/serial')),
        partitions: entries.filter((e) => e.startsWith(name) && e !== name).sort(),
      });
    }),
  );
}
