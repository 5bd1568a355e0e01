import { execFileSync } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunner } from '../../src/adapters/runner.js';
import { resultOutbox } from '../../src/adapters/result-outbox.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { mountDataVolume } from '../../src/image/data-volume.js';
import { attachLoop, detachLoop, loopSkipReason, makeWorkDir, removeDir } from '../support/loop.js';

const mkfsSkipReason = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mkfs.ext4 && command -v blkid && command -v mount'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'mkfs.ext4, blkid or mount missing';
  }
})();

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

const umount = (dir: string) => {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // not mounted
  }
};

/**
 * The boot step against a real ext4 filesystem labelled ERASURE-DATA on a loop device: found by
 * blkid, mounted at DATA_DIR, and what the agent kept there is still there after a "reboot"
 * (unmounted, mounted again by the next boot's step).
 */
describe.skipIf(Boolean(loopSkipReason ?? mkfsSkipReason))('the ERASURE-DATA volume on a real filesystem', () => {
  it('is mounted at DATA_DIR and keeps a waiting wipe result across a reboot', async () => {
    const work = makeWorkDir('data-volume-');
    cleanups.push(() => removeDir(work));
    const image = join(work, 'erasure-data.img');
    writeFileSync(image, '');
    truncateSync(image, 16 * 1024 * 1024);
    execFileSync('mkfs.ext4', ['-q', '-L', 'ERASURE-DATA', image]);
    const loop = attachLoop(image, false);
    cleanups.push(() => detachLoop(loop));
    const dataDir = join(work, 'var-lib-erasure');
    cleanups.push(() => umount(dataDir));
    const deps = { run: createRunner(), sys: nodeSystemView() };

    expect(await mountDataVolume(deps, dataDir)).toEqual({ persistent: true, device: loop, dataDir, alreadyMounted: false });
    await resultOutbox(dataDir).keep('6f1c2b1e-0000-4000-8000-0000000000d1', { job_id: '6f1c2b1e-0000-4000-8000-0000000000d1', wipe_status: 'completed' });

    // The reboot: the volume goes away with the RAM root, and the next boot's step mounts it again.
    umount(dataDir);
    expect(existsSync(join(dataDir, 'outbox'))).toBe(false);
    expect(await mountDataVolume(deps, dataDir)).toMatchObject({ persistent: true, device: loop });
    expect((await resultOutbox(dataDir).pending()).map((p) => p.jobId)).toEqual(['6f1c2b1e-0000-4000-8000-0000000000d1']);
  });
});
