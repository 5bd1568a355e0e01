import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunner } from '../../src/adapters/runner.js';
import { resultOutbox } from '../../src/adapters/result-outbox.js';
import { nodeSystemView, type SystemView } from '../../src/adapters/system-view.js';
import { mountDataVolume, PRODUCT_UUID } from '../../src/image/data-volume.js';
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

const mountedAt = (dir: string) => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => l.split(' ')[4] === dir);

/** The machine as the boot step sees it, with the DMI system UUID given (the test machine may have no DMI). */
const machine = (uuid: string): SystemView => {
  const real = nodeSystemView();
  return { ...real, readText: async (p) => (p === PRODUCT_UUID ? `${uuid}\n` : real.readText(p)) };
};
const STATION = '4c4c4544-0042-3510-8052-b4c04f4e4b32';
const OTHER_STATION = '9f0e1d2c-3b4a-5968-8776-a5b4c3d2e1f0';

/** A fresh ext4 filesystem labelled ERASURE-DATA on a loop device, as `mkfs.ext4 -L` makes it; `from` fills it from a directory. */
function dataVolume(work: string, name: string, from?: string): string {
  const image = join(work, `${name}.img`);
  writeFileSync(image, '');
  truncateSync(image, 16 * 1024 * 1024);
  execFileSync('mkfs.ext4', ['-q', '-L', 'ERASURE-DATA', ...(from ? ['-d', from] : []), image]);
  const loop = attachLoop(image, false);
  cleanups.push(() => detachLoop(loop));
  return loop;
}

/**
 * The boot step against real ext4 filesystems labelled ERASURE-DATA on loop devices: found by
 * blkid, bound to the machine on its first mount, mounted at DATA_DIR, and what the agent kept
 * there is still there after a "reboot" (unmounted, mounted again by the next boot's step). One
 * bound to another machine, one holding another station's data, or two at once are not mounted.
 */
describe.skipIf(Boolean(loopSkipReason ?? mkfsSkipReason))('the ERASURE-DATA volume on a real filesystem', () => {
  const workDir = () => {
    const work = makeWorkDir('data-volume-');
    cleanups.push(() => removeDir(work));
    return work;
  };
  const dataDirIn = (work: string) => {
    const dataDir = join(work, 'var-lib-erasure');
    cleanups.push(() => umount(dataDir));
    return dataDir;
  };

  it('binds a fresh volume on its first mount, and keeps a waiting wipe result across a reboot of the same machine', async () => {
    const work = workDir();
    const loop = dataVolume(work, 'fresh');
    const dataDir = dataDirIn(work);
    const deps = { run: createRunner(), sys: machine(STATION), now: () => new Date('2026-11-25T07:00:00Z') };

    expect(await mountDataVolume(deps, dataDir)).toEqual({ persistent: true, device: loop, dataDir, alreadyMounted: false, boundNow: true });
    expect(JSON.parse(readFileSync(join(dataDir, 'station.json'), 'utf8'))).toEqual({ machine_uuid: STATION, bound_at: '2026-11-25T07:00:00.000Z' });
    await resultOutbox(dataDir).keep('6f1c2b1e-0000-4000-8000-0000000000d1', { job_id: '6f1c2b1e-0000-4000-8000-0000000000d1', wipe_status: 'completed' });

    // The reboot: the volume goes away with the RAM root, and the next boot's step mounts it again.
    umount(dataDir);
    expect(existsSync(join(dataDir, 'outbox'))).toBe(false);
    expect(await mountDataVolume(deps, dataDir)).toEqual({ persistent: true, device: loop, dataDir, alreadyMounted: false });
    expect((await resultOutbox(dataDir).pending()).map((p) => p.jobId)).toEqual(['6f1c2b1e-0000-4000-8000-0000000000d1']);
  });

  it('does not use a volume bound to another machine: left unmounted, its data untouched', async () => {
    const work = workDir();
    const loop = dataVolume(work, 'retired');
    const dataDir = dataDirIn(work);
    const run = createRunner();
    expect(await mountDataVolume({ run, sys: machine(OTHER_STATION) }, dataDir)).toMatchObject({ persistent: true, boundNow: true });
    await resultOutbox(dataDir).keep('6f1c2b1e-0000-4000-8000-0000000000d2', { job_id: '6f1c2b1e-0000-4000-8000-0000000000d2' });
    umount(dataDir);

    // That station's data disk, seated in a bay of this one at boot.
    expect(await mountDataVolume({ run, sys: machine(STATION) }, dataDir)).toEqual({ persistent: false, dataDir, reason: `ERASURE-DATA (${loop}) not used: it is bound to another machine (system UUID ${OTHER_STATION}, this one is ${STATION})` });
    expect(mountedAt(dataDir)).toBe(false);
    expect(existsSync(join(dataDir, 'outbox'))).toBe(false);
  });

  it('does not take over an unbound volume that already holds a station\'s data', async () => {
    const work = workDir();
    const content = join(work, 'content');
    mkdirSync(join(content, 'outbox'), { recursive: true });
    writeFileSync(join(content, 'outbox', '6f1c2b1e-0000-4000-8000-0000000000d3.json'), '{}');
    writeFileSync(join(content, 'station-settings.json'), '{"policy":"auto"}\n');
    const loop = dataVolume(work, 'unbound', content);
    const dataDir = dataDirIn(work);
    const v = await mountDataVolume({ run: createRunner(), sys: machine(STATION) }, dataDir);
    expect(v).toMatchObject({ persistent: false, reason: expect.stringMatching(new RegExp(`^ERASURE-DATA \\(${loop}\\) not used: it is bound to no machine but already holds data \\(outbox, station-settings.json\\)`)) });
    expect(mountedAt(dataDir)).toBe(false);
  });

  it('mounts neither of two volumes with the label', async () => {
    const work = workDir();
    const a = dataVolume(work, 'a');
    const b = dataVolume(work, 'b');
    const dataDir = dataDirIn(work);
    const v = await mountDataVolume({ run: createRunner(), sys: machine(STATION) }, dataDir);
    expect(v).toMatchObject({ persistent: false, reason: expect.stringMatching(/^2 ERASURE-DATA volumes \(.*\), none mounted/) });
    expect(v.persistent ? '' : v.reason).toContain(a);
    expect(v.persistent ? '' : v.reason).toContain(b);
    expect(mountedAt(dataDir)).toBe(false);
  });
});
