import { DATA_VOLUME_LABEL, IMAGE_VOLUME_ID } from '@erasure/shared';
import type { SystemView } from '../adapters/system-view.js';
import { isMmcSubArea } from '../probes/mmc-card.js';

/** Why a device may not be erased. Each is a value, never an exception (STYLE E). */
export type RefusalCode = 'not_selected' | 'not_a_device' | 'not_whole_disk' | 'boot_medium' | 'data_volume' | 'mounted' | 'in_use' | 'swap';

/** The verdict on one target. */
export type GuardVerdict =
  | { readonly ok: true; readonly path: string; readonly kernelName: string }
  | { readonly ok: false; readonly path: string; readonly code: RefusalCode; readonly reason: string };

/** Mount points that carry the running system: the root and the live image's medium. */
const SYSTEM_MOUNTS = new Set(['/', '/run/live/medium', '/lib/live/mount/medium', '/run/initramfs/live', '/cdrom', '/boot', '/boot/efi', '/usr']);

/** One line of /proc/self/mountinfo: the device number (field 3) and the mount point (field 5). */
export function parseMountinfo(text: string): Array<{ devNo: string; mountPoint: string; source: string }> {
  return text.split('\n').flatMap((line) => {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    const devNo = fields[2];
    const mountPoint = fields[4];
    if (dash < 0 || !devNo || !mountPoint) return [];
    // Mount points escape spaces as \040.
    return [{ devNo, mountPoint: mountPoint.replace(/\\040/g, ' '), source: fields[dash + 2] ?? '' }];
  });
}

/** Kernel name of `major:minor`, and of its whole disk when it is a partition. */
async function nameOf(sys: SystemView, devNo: string): Promise<{ name: string; disk: string } | undefined> {
  const real = await sys.realPath(`/sys/dev/block/${devNo}`);
  if (!real) return undefined;
  const parts = real.split('/');
  const name = parts.at(-1) ?? '';
  const isPartition = (await sys.readText(`/sys/class/block/${name}/partition`)) !== undefined;
  return { name, disk: isPartition ? (parts.at(-2) ?? name) : name };
}

/** Whole disks beneath a device: through device-mapper/md slaves and partition parents. */
async function disksBeneath(sys: SystemView, devNo: string): Promise<Set<string>> {
  const disks = new Set<string>();
  const start = await nameOf(sys, devNo);
  const queue = start ? [start.disk] : [];
  const seen = new Set<string>();
  // Flat walk with a visited set: stacked dm/md/loop layers cannot loop us forever.
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const slaves = await sys.listDir(`/sys/class/block/${name}/slaves`);
    if (slaves.length === 0) disks.add(name);
    for (const slave of slaves) {
      const devOfSlave = (await sys.readText(`/sys/class/block/${slave}/dev`))?.trim();
      const resolved = devOfSlave ? await nameOf(sys, devOfSlave) : undefined;
      queue.push(resolved?.disk ?? slave);
    }
  }
  return disks;
}

/**
 * True when `disk` carries a filesystem labelled exactly `label` (a customer disk labelled
 * "ERASURES" does not carry "ERASURE"). For the boot image's volume id that is the medium we
 * booted from even when nothing mounts it any more (live-boot's `toram`), or a stick written with
 * the ISO; for the station's data volume, the disk of kept results and settings, mounted or not.
 * Two sources, as udev keeps them: the `/dev/disk/by-label` link (one disk per label) and each
 * partition's udev record (`ID_FS_LABEL`), which still names a second disk with the same label.
 */
async function carriesLabel(sys: SystemView, disk: string, label: string): Promise<boolean> {
  if ((await sys.listDir('/dev/disk/by-label')).includes(label)) {
    const name = (await sys.realPath(`/dev/disk/by-label/${label}`))?.split('/').at(-1);
    const devNo = name ? (await sys.readText(`/sys/class/block/${name}/dev`))?.trim() : undefined;
    if (devNo && (await nameOf(sys, devNo))?.disk === disk) return true;
  }
  const parts = (await sys.listDir(`/sys/block/${disk}`)).filter((e) => e.startsWith(disk) && e !== disk);
  for (const name of [disk, ...parts]) {
    const devNo = (await sys.readText(`/sys/class/block/${name}/dev`))?.trim();
    const record = devNo ? await sys.readText(`/run/udev/data/b${devNo}`) : undefined;
    if (record?.split('\n').includes(`E:ID_FS_LABEL=${label}`)) return true;
  }
  return false;
}

/** Holders of the disk or of any of its partitions (LVM, dm-crypt, md, bcache). */
async function holdersOf(sys: SystemView, disk: string): Promise<string[]> {
  const own = await sys.listDir(`/sys/block/${disk}/holders`);
  const parts = (await sys.listDir(`/sys/block/${disk}`)).filter((e) => e.startsWith(disk) && e !== disk);
  const partHolders = await Promise.all(parts.map((p) => sys.listDir(`/sys/block/${disk}/${p}/holders`)));
  return [...own, ...partHolders.flat()];
}

/**
 * Decides whether `path` may be erased (ARCHITECTURE 8): only a whole disk the operator selected,
 * never the medium the system runs from nor the station's data volume (by label, mounted or
 * not), nothing mounted, held (LVM/dm/md) or used as swap. The O_EXCL open at erase time is the
 * last check: the kernel refuses it while anything holds the disk.
 */
export async function guardTarget(sys: SystemView, path: string, selected: readonly string[]): Promise<GuardVerdict> {
  const refuse = (code: RefusalCode, reason: string): GuardVerdict => ({ ok: false, path, code, reason });
  const realTarget = await sys.realPath(path);
  const realSelected = await Promise.all(selected.map((s) => sys.realPath(s)));
  if (!realTarget || !realSelected.includes(realTarget)) return refuse('not_selected', `${path} was not selected by the operator`);
  const devNo = await sys.deviceNumber(path);
  if (!devNo) return refuse('not_a_device', `${path} is not a block device`);
  const named = await nameOf(sys, devNo);
  if (!named) return refuse('not_a_device', `${path} (${devNo}) is not in /sys/dev/block`);
  if (named.name !== named.disk) return refuse('not_whole_disk', `${path} is a partition of ${named.disk}: select the whole disk`);
  // An eMMC's boot partitions and RPMB area have no partition file, yet are areas of the card (issue 30 item 4).
  if (isMmcSubArea(named.name)) return refuse('not_whole_disk', `${path} is a boot partition or the RPMB area of the eMMC ${named.name.replace(/(boot\d+|rpmb|gp\d+)$/, '')}: select the card itself`);
  const disk = named.disk;
  if (await carriesLabel(sys, disk, IMAGE_VOLUME_ID)) return refuse('boot_medium', `${path} holds an erasure boot image (volume ${IMAGE_VOLUME_ID})`);
  if (await carriesLabel(sys, disk, DATA_VOLUME_LABEL)) return refuse('data_volume', `${path} holds the station's data volume (${DATA_VOLUME_LABEL})`);
  let mountedAt: string | undefined;
  for (const mount of parseMountinfo((await sys.readText('/proc/self/mountinfo')) ?? '')) {
    if (mount.devNo.startsWith('0:')) continue; // virtual filesystems (tmpfs, proc, overlay upper) have no disk
    if (!(await disksBeneath(sys, mount.devNo)).has(disk)) continue;
    // The boot-medium verdict outranks a plain mount, whatever order mountinfo lists them in.
    if (SYSTEM_MOUNTS.has(mount.mountPoint)) return refuse('boot_medium', `${path} carries the running system (${mount.mountPoint})`);
    mountedAt ??= mount.mountPoint;
  }
  if (mountedAt) return refuse('mounted', `${path} is mounted at ${mountedAt}`);
  const holders = await holdersOf(sys, disk);
  if (holders.length > 0) return refuse('in_use', `${path} is held by ${holders.join(', ')}`);
  const swaps = ((await sys.readText('/proc/swaps')) ?? '').split('\n').slice(1).flatMap((l) => l.split(/\s+/)[0] || []);
  for (const swap of swaps) {
    const swapDev = await sys.deviceNumber(swap);
    if (swapDev && (await disksBeneath(sys, swapDev)).has(disk)) return refuse('swap', `${path} backs swap ${swap}`);
  }
  return { ok: true, path, kernelName: disk };
}
