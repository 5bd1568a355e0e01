import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { streamPersonalizedIso, type Personalization } from '@erasure/iso-build';

/** A base image installed for download. */
export interface BootImage {
  readonly name: string;
  readonly sizeBytes: number;
  readonly installedAt: string;
}

/** Base images in `DATA_DIR/images` and the personalizer that streams one out (the port of `/downloads`). */
export interface BootImages {
  readonly dir: string;
  list(): BootImage[];
  /** A personalized copy of `name`, produced as it streams; undefined when no such image is installed. */
  personalize(name: string, p: Personalization): { stream: Readable; done: Promise<void>; cancel: () => void } | undefined;
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
        return stat?.isFile() ? [{ name, sizeBytes: stat.size, installedAt: stat.mtime.toISOString() }] : [];
      })
      .sort((a, b) => (a.installedAt < b.installedAt ? 1 : -1));
  };
  return {
    dir,
    list,
    personalize: (name, p) => (list().some((i) => i.name === name) ? streamPersonalizedIso(join(dir, name), p) : undefined),
  };
}
