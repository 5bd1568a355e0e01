import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { streamPersonalizedIso, type Personalization } from '@erasure/iso-build';

/** A base image installed for download. */
export interface BootImage {
  readonly name: string;
  readonly sizeBytes: number;
  readonly installedAt: string;
  /** Why the file is refused as a base image (not ISO 9660), or null when it is one. */
  readonly problem: string | null;
}

/** ISO 9660: volume descriptors start at sector 16 (byte 32768), each `<type>CD001<version>`. */
const VOLUME_DESCRIPTOR_AT = 16 * 2048;
const STANDARD_ID = Buffer.from('CD001', 'ascii');

/**
 * Whether these bytes, read at sector 16 of a file, open an ISO 9660 primary volume descriptor:
 * type 1, "CD001", version 1. Anything else (a file of zeros, a disk image, a truncated copy)
 * is refused before xorriso ever sees it.
 */
export function isIso9660Descriptor(bytes: Buffer): boolean {
  return bytes.length >= 7 && bytes[0] === 1 && bytes.subarray(1, 6).equals(STANDARD_ID) && bytes[6] === 1;
}

/** The refusal shown on /downloads for a file that is not an ISO 9660 image. */
export const NOT_ISO_9660 = 'is not an ISO 9660 image (no CD001 primary volume descriptor at sector 16), so it cannot be offered. Replace it with an image built by npm run iso.';

function problemOf(path: string): string | null {
  const head = Buffer.alloc(7);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const read = readSync(fd, head, 0, head.length, VOLUME_DESCRIPTOR_AT);
    return read === head.length && isIso9660Descriptor(head) ? null : NOT_ISO_9660;
  } catch {
    return 'cannot be read by the server.';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Base images in `DATA_DIR/images` and the personalizer that streams one out (the port of `/downloads`). */
export interface BootImages {
  readonly dir: string;
  list(): BootImage[];
  /** A personalized copy of `name`, produced as it streams; undefined when no such ISO 9660 image is installed. */
  personalize(name: string, p: Personalization): Promise<{ stream: Readable; done: Promise<void>; cancel: () => void } | undefined>;
}

/** Only plain file names ending in .iso: a name from the form can never reach outside the folder. */
const IMAGE_NAME = /^[\w][\w.-]*\.iso$/;

export function bootImagesIn(dir: string): BootImages {
  const list = (): BootImage[] => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => IMAGE_NAME.test(n))
      .flatMap((name) => {
        const stat = statSync(join(dir, name), { throwIfNoEntry: false });
        return stat?.isFile() ? [{ name, sizeBytes: stat.size, installedAt: stat.mtime.toISOString(), problem: problemOf(join(dir, name)) }] : [];
      })
      .sort((a, b) => (a.installedAt < b.installedAt ? 1 : -1));
  };
  return {
    dir,
    list,
    personalize: async (name, p) => (list().some((i) => i.name === name && i.problem === null) ? streamPersonalizedIso(join(dir, name), p) : undefined),
  };
}
