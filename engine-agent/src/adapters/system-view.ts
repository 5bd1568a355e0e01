import { promises as fsp } from 'node:fs';
import type { SysfsReader } from '../probes/sysfs-block.js';

/** Read-only view of the running system: sysfs, procfs and device numbers. */
export interface SystemView extends SysfsReader {
  /** `major:minor` of a block device node, undefined when the path is not a block device. */
  deviceNumber(path: string): Promise<string | undefined>;
}

/** Linux dev_t split (glibc's gnu_dev_major/minor), on the bigint stat so no bit is lost. */
export function splitDevT(rdev: bigint): string {
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}

/** The real system, rooted at `/` (or at `root` for a captured tree). */
export function nodeSystemView(root = ''): SystemView {
  return {
    listDir: async (path) => fsp.readdir(root + path).catch(() => []),
    readText: async (path) => fsp.readFile(root + path, 'utf8').catch(() => undefined),
    realPath: async (path) => fsp.realpath(root + path).then((p) => p.slice(root.length) || '/', () => undefined),
    deviceNumber: async (path) => {
      const stat = await fsp.stat(root + path, { bigint: true }).catch(() => undefined);
      return stat?.isBlockDevice() ? splitDevT(stat.rdev) : undefined;
    },
  };
}
