import { resolve } from 'node:path';
import type { SystemView } from './system-view.js';

/** Where the results kept for delivery live: on a disk (they survive a power cut) or in memory (they do not). */
export type KeptIn = 'disk' | 'memory';

interface Mount {
  readonly mountPoint: string;
  readonly fsType: string;
  readonly superOptions: string;
}

/** /proc/self/mountinfo: mount point, filesystem type and its super options (an overlay's upperdir). */
function mounts(text: string): Mount[] {
  return text.split('\n').flatMap((line) => {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    const mountPoint = fields[4];
    if (dash < 0 || !mountPoint) return [];
    return [{ mountPoint: mountPoint.replace(/\\040/g, ' '), fsType: fields[dash + 1] ?? '', superOptions: fields[dash + 3] ?? '' }];
  });
}

/** The mount that holds `path`: the longest mount point it lies under (a later mount over the same point wins). */
function holding(all: readonly Mount[], path: string): Mount | undefined {
  let best: Mount | undefined;
  for (const m of all) {
    const under = m.mountPoint === '/' || path === m.mountPoint || path.startsWith(`${m.mountPoint}/`);
    if (under && (!best || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

const MEMORY_FS = new Set(['tmpfs', 'ramfs']);

/**
 * Whether `dataDir` (and so the outbox) is in memory: a tmpfs, or an overlay whose writable
 * layer is one, which is what a live system's root is when no ERASURE-DATA volume is mounted.
 * Anything else (the data volume, a disk) keeps the results across a power cut.
 */
export async function outboxKeptIn(sys: Pick<SystemView, 'readText'>, dataDir: string): Promise<KeptIn> {
  const all = mounts((await sys.readText('/proc/self/mountinfo')) ?? '');
  // Fail closed: where nothing can be told, the technician is warned as if a power cut lost them.
  if (all.length === 0) return 'memory';
  let path = resolve(dataDir);
  // An overlay over an overlay is possible; a few steps down are enough, and no loop can hold us.
  for (let depth = 0; depth < 4; depth += 1) {
    const m = holding(all, path);
    if (!m) return 'disk';
    if (MEMORY_FS.has(m.fsType)) return 'memory';
    const upper = m.fsType === 'overlay' ? /(?:^|,)upperdir=([^,]+)/.exec(m.superOptions)?.[1] : undefined;
    if (!upper) return 'disk';
    path = resolve(upper);
  }
  return 'disk';
}
