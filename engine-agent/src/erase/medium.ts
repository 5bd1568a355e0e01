import { constants, promises as fsp } from 'node:fs';
import { blockdev } from '../adapters/blockdev.js';

/** An open erase target: a whole block device, or a regular file standing in for one (simulate mode). */
export interface Medium {
  readonly path: string;
  readonly kind: 'block' | 'file';
  readonly handle: fsp.FileHandle;
  readonly sizeBytes: number;
  /** Alignment of every offset, length and buffer address (logical sector size; 4096 for files). */
  readonly alignment: number;
  /** False only for a file on a filesystem without O_DIRECT (tmpfs); reads then need `dropCache`. */
  readonly direct: boolean;
}

/** Opening failed; `code` is the errno name (EBUSY = mounted or claimed by another holder). */
export class MediumOpenError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediumOpenError';
  }
}

const FILE_ALIGNMENT = 4096;

async function openWith(path: string, flags: number): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new MediumOpenError(path, code, `cannot open ${path}: ${code}`, { cause: error });
  }
}

/**
 * Opens the target for writing with O_DIRECT. A block device is opened O_EXCL too: the kernel
 * then refuses (EBUSY) while anything mounts, maps or holds it, and keeps others off it while
 * the erase runs. Size and sector size come from BLKGETSIZE64/BLKSSZGET, not from probes.
 */
export async function openMedium(path: string): Promise<Medium> {
  const stat = await fsp.stat(path);
  const addon = blockdev(); // fail before touching the device when aligned memory is unavailable
  if (stat.isBlockDevice()) {
    const handle = await openWith(path, constants.O_RDWR | constants.O_DIRECT | constants.O_EXCL);
    try {
      const sizeBytes = addon.deviceSize(handle.fd);
      const alignment = Math.max(addon.sectorSize(handle.fd), 512);
      return { path, kind: 'block', handle, sizeBytes, alignment, direct: true };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  if (!stat.isFile()) throw new MediumOpenError(path, 'ENOTBLK', `${path} is neither a block device nor a file`);
  let direct = true;
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, constants.O_RDWR | constants.O_DIRECT);
  } catch (error) {
    // tmpfs and a few FUSE filesystems reject O_DIRECT; the verifier then drops the cache itself.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
    direct = false;
    handle = await openWith(path, constants.O_RDWR);
  }
  const sizeBytes = stat.size - (stat.size % FILE_ALIGNMENT);
  return { path, kind: 'file', handle, sizeBytes, alignment: FILE_ALIGNMENT, direct };
}

/**
 * Makes the written data durable and the next reads come from the medium: fdatasync (drive
 * cache flush), then BLKFLSBUF on a block device so no page-cache copy can answer a read.
 */
export async function settle(medium: Medium): Promise<void> {
  await medium.handle.datasync();
  if (medium.kind === 'block') blockdev().flushBuffers(medium.handle.fd);
}
