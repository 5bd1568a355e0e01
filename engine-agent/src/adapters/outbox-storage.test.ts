import { describe, expect, it } from 'vitest';
import { outboxKeptIn } from './outbox-storage.js';
import { nodeSystemView } from './system-view.js';

/** A live system's mounts as live-boot leaves them: the root an overlay whose writable layer is a tmpfs. */
const LIVE = [
  '25 1 0:22 / / rw,noatime - overlay overlay rw,lowerdir=/run/live/rootfs/filesystem.squashfs/,upperdir=/run/live/overlay/rw,workdir=/run/live/overlay/work',
  '22 25 0:20 / /run rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,size=814000k,mode=755',
  '30 22 0:25 / /run/live/overlay rw,noatime - tmpfs tmpfs rw,mode=755',
  '31 22 8:1 / /run/live/medium ro,noatime - iso9660 /dev/sdb1 ro',
].join('\n');
/** The same system with the ERASURE-DATA volume mounted on the agent's DATA_DIR. */
const WITH_VOLUME = `${LIVE}\n35 25 8:3 / /var/lib/erasure rw,nosuid,nodev,noexec,relatime - ext4 /dev/sdb3 rw`;
const INSTALLED = ['27 1 254:0 / / rw,relatime - ext4 /dev/vda rw', '25 27 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw'].join('\n');

const mounts = (text: string) => ({ readText: async () => text });

describe('where the results waiting for delivery are kept', () => {
  it('in memory on a live system without the data volume (its root overlay writes to a tmpfs)', async () => {
    expect(await outboxKeptIn(mounts(LIVE), '/var/lib/erasure')).toBe('memory');
  });

  it('on disk once the ERASURE-DATA volume is mounted on DATA_DIR, and under it', async () => {
    expect(await outboxKeptIn(mounts(WITH_VOLUME), '/var/lib/erasure')).toBe('disk');
    expect(await outboxKeptIn(mounts(WITH_VOLUME), '/var/lib/erasure/outbox')).toBe('disk');
    // A path that only starts with the mount point's name is not under it.
    expect(await outboxKeptIn(mounts(WITH_VOLUME), '/var/lib/erasure2')).toBe('memory');
  });

  it('on disk on an installed system, in memory on a tmpfs', async () => {
    expect(await outboxKeptIn(mounts(INSTALLED), '/home/tech/erasure')).toBe('disk');
    expect(await outboxKeptIn(mounts(INSTALLED), '/dev/shm/erasure')).toBe('memory');
  });

  it('in memory when the mounts cannot be read (the warning then assumes the worst)', async () => {
    expect(await outboxKeptIn({ readText: async () => undefined }, '/var/lib/erasure')).toBe('memory');
  });

  it('reads this machine’s own mounts: /dev/shm is a tmpfs', async () => {
    expect(await outboxKeptIn(nodeSystemView(), '/dev/shm/erasure-agent')).toBe('memory');
  });
});
