import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runner, ToolResult } from '../adapters/runner.js';
import type { SystemView } from '../adapters/system-view.js';
import { describeDataVolume, mountDataVolume } from './data-volume.js';

let root: string;
let dataDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'data-volume-'));
  dataDir = join(root, 'var-lib-erasure');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const done = (exitCode: number, stdout = '', stderr = ''): ToolResult => ({ exitCode, stdout, stderr, timedOut: false, outputTruncated: false, durationMs: 1 });

/** A runner answering blkid and mount as told (recorded output of the real tools), logging every call. */
function tools(answers: { blkid: ToolResult; mount?: ToolResult }): { run: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const run: Runner = async (tool, args) => {
    calls.push([tool, ...args]);
    if (tool === 'blkid') return answers.blkid;
    if (tool === 'mount') return answers.mount ?? done(0);
    return done(0);
  };
  return { run, calls };
}

const system = (mountinfo = '22 1 0:21 / / rw - overlay overlay rw\n'): SystemView => ({
  readText: async (p) => (p === '/proc/self/mountinfo' ? mountinfo : undefined),
  listDir: async () => [],
  realPath: async (p) => p,
  deviceNumber: async () => undefined,
});

describe('the station data volume at boot', () => {
  it('mounts the filesystem labelled ERASURE-DATA at DATA_DIR, with nothing executable on it', async () => {
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system() }, dataDir);
    expect(v).toEqual({ persistent: true, device: '/dev/sdb2', dataDir, alreadyMounted: false });
    expect(sut.calls.find((c) => c[0] === 'blkid')).toEqual(['blkid', '-c', '/dev/null', '-o', 'device', '-t', 'LABEL=ERASURE-DATA']);
    expect(sut.calls.find((c) => c[0] === 'mount')).toEqual(['mount', '-o', 'nosuid,nodev,noexec', '/dev/sdb2', dataDir]);
    expect(describeDataVolume(v)).toMatch(/survive a reboot/);
  });

  it('takes the first of several volumes with the label', async () => {
    const sut = tools({ blkid: done(0, '/dev/sdc1\n/dev/sdd1\n') });
    expect(await mountDataVolume({ run: sut.run, sys: system() }, dataDir)).toMatchObject({ persistent: true, device: '/dev/sdc1' });
    expect(sut.calls.filter((c) => c[0] === 'mount')).toHaveLength(1);
  });

  it('without the volume (blkid exit 2) mounts nothing and says results are held in memory until delivered', async () => {
    const sut = tools({ blkid: done(2) });
    const v = await mountDataVolume({ run: sut.run, sys: system() }, dataDir);
    expect(v).toEqual({ persistent: false, dataDir, reason: 'no ERASURE-DATA volume' });
    expect(sut.calls.some((c) => c[0] === 'mount')).toBe(false);
    expect(describeDataVolume(v)).toBe(`no ERASURE-DATA volume: wipe results waiting for delivery are held in memory (${dataDir}) until delivered; they and the station settings are lost if the machine reboots first`);
  });

  it('carries on in memory, saying why, when the volume will not mount', async () => {
    const sut = tools({ blkid: done(0, '/dev/sdb2\n'), mount: done(32, '', 'mount: /var/lib/erasure: wrong fs type, bad option, bad superblock on /dev/sdb2.\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system() }, dataDir);
    expect(v).toMatchObject({ persistent: false, reason: expect.stringMatching(/^ERASURE-DATA \(\/dev\/sdb2\) did not mount: .*bad superblock/) });
    expect(describeDataVolume(v)).toMatch(/held in memory/);
  });

  it('leaves a DATA_DIR that is already a mount point as it is (the unit ran twice)', async () => {
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system(`22 1 0:21 / / rw - overlay overlay rw\n41 22 8:18 / ${dataDir} rw,nosuid - ext4 /dev/sdb2 rw\n`) }, dataDir);
    expect(v).toEqual({ persistent: true, device: '/dev/sdb2', dataDir, alreadyMounted: true });
    expect(sut.calls).toEqual([]);
  });
});
