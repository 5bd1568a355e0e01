import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * A runner answering blkid and mount as told (recorded output of the real tools), logging every
 * call. Its mount mounts nothing: what DATA_DIR holds stands for what the volume holds.
 */
function tools(answers: { blkid: ToolResult; mount?: ToolResult | ((args: readonly string[]) => ToolResult) }): { run: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const run: Runner = async (tool, args) => {
    calls.push([tool, ...args]);
    if (tool === 'blkid') return answers.blkid;
    if (tool === 'mount') return typeof answers.mount === 'function' ? answers.mount(args) : (answers.mount ?? done(0));
    return done(0);
  };
  return { run, calls };
}

const THIS_MACHINE = '4c4c4544-0042-3510-8052-b4c04f4e4b32';
const OTHER_MACHINE = '9f0e1d2c-3b4a-5968-8776-a5b4c3d2e1f0';

const system = (opts: { mountinfo?: string; uuid?: string | undefined } = {}): SystemView => ({
  readText: async (p) => (p === '/proc/self/mountinfo' ? (opts.mountinfo ?? '22 1 0:21 / / rw - overlay overlay rw\n') : p === '/sys/class/dmi/id/product_uuid' ? ('uuid' in opts ? opts.uuid : `${THIS_MACHINE}\n`) : undefined),
  listDir: async () => [],
  realPath: async (p) => p,
  deviceNumber: async () => undefined,
});

/** What the volume holds before it is mounted (files relative to DATA_DIR). */
function volumeHolds(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dataDir, name, '..'), { recursive: true });
    writeFileSync(join(dataDir, name), text);
  }
}

const now = () => new Date('2026-11-25T07:00:00Z');
const binding = () => JSON.parse(readFileSync(join(dataDir, 'station.json'), 'utf8')) as unknown;

describe('the station data volume at boot', () => {
  it('mounts a fresh ERASURE-DATA volume at DATA_DIR, with nothing executable on it, and binds it to this machine', async () => {
    volumeHolds({ 'lost+found/.keep': '' });
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toEqual({ persistent: true, device: '/dev/sdb2', dataDir, alreadyMounted: false, boundNow: true });
    expect(sut.calls.find((c) => c[0] === 'blkid')).toEqual(['blkid', '-c', '/dev/null', '-o', 'device', '-t', 'LABEL=ERASURE-DATA']);
    expect(sut.calls.find((c) => c[0] === 'mount')).toEqual(['mount', '-o', 'nosuid,nodev,noexec', '/dev/sdb2', dataDir]);
    expect(binding()).toEqual({ machine_uuid: THIS_MACHINE, bound_at: '2026-11-25T07:00:00.000Z' });
    expect(describeDataVolume(v)).toBe(`ERASURE-DATA volume /dev/sdb2 mounted at ${dataDir} (bound to this machine now): wipe results waiting for delivery and station settings survive a reboot`);
  });

  it('uses a volume bound to this machine as it is, its data with it', async () => {
    volumeHolds({ 'station.json': JSON.stringify({ machine_uuid: THIS_MACHINE.toUpperCase(), bound_at: '2026-01-01T00:00:00.000Z' }), 'station-settings.json': '{"policy":"confirm"}\n' });
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    expect(await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir)).toEqual({ persistent: true, device: '/dev/sdb2', dataDir, alreadyMounted: false });
    expect(binding()).toEqual({ machine_uuid: THIS_MACHINE.toUpperCase(), bound_at: '2026-01-01T00:00:00.000Z' });
    expect(sut.calls.some((c) => c[0] === 'umount')).toBe(false);
  });

  it('unmounts a volume bound to another machine (a retired station\'s data disk in a bay) and keeps the data in memory', async () => {
    volumeHolds({ 'station.json': JSON.stringify({ machine_uuid: OTHER_MACHINE, bound_at: '2026-01-01T00:00:00.000Z' }), 'outbox/6f1c2b1e-0000-4000-8000-0000000000d1.json': '{}' });
    const sut = tools({ blkid: done(0, '/dev/sdc1\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toEqual({ persistent: false, dataDir, reason: `ERASURE-DATA (/dev/sdc1) not used: it is bound to another machine (system UUID ${OTHER_MACHINE}, this one is ${THIS_MACHINE})` });
    expect(sut.calls.at(-1)).toEqual(['umount', dataDir]);
    expect(describeDataVolume(v)).toMatch(/held in memory/);
  });

  it.each([
    ['an outbox', { 'outbox/6f1c2b1e-0000-4000-8000-0000000000d1.json': '{}' }, 'outbox'],
    ['station settings', { 'station-settings.json': '{"policy":"auto"}\n', 'lost+found/.keep': '' }, 'station-settings.json'],
  ])('never takes over an unbound volume that holds %s: unmounted, not bound', async (_what, files, held) => {
    volumeHolds(files);
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toMatchObject({ persistent: false, reason: expect.stringContaining(`it is bound to no machine but already holds data (${held})`) });
    expect(sut.calls.at(-1)).toEqual(['umount', dataDir]);
    expect(() => binding()).toThrow(/ENOENT/);
  });

  it.each([
    ['not JSON', '{"machine_uuid":', 'its station.json is not valid JSON'],
    ['no machine', '{"bound_at":"2026-01-01T00:00:00.000Z"}', 'its station.json names no machine'],
  ])('unmounts a volume whose binding is %s', async (_what, text, why) => {
    volumeHolds({ 'station.json': text });
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    expect(await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir)).toEqual({ persistent: false, dataDir, reason: `ERASURE-DATA (/dev/sdb2) not used: ${why}` });
    expect(sut.calls.at(-1)).toEqual(['umount', dataDir]);
  });

  it('mounts none of several volumes with the label, saying why', async () => {
    const sut = tools({ blkid: done(0, '/dev/sdc1\n/dev/sdd1\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toEqual({ persistent: false, dataDir, reason: "2 ERASURE-DATA volumes (/dev/sdc1, /dev/sdd1), none mounted: which one is this station's cannot be told (another station's data disk may be seated)" });
    expect(sut.calls.some((c) => c[0] === 'mount')).toBe(false);
  });

  it.each([
    ['unreadable', undefined],
    ['all zeros (no UUID set by the firmware)', '00000000-0000-0000-0000-000000000000\n'],
    ['all Fs', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF\n'],
  ])('mounts nothing when this machine\'s DMI system UUID is %s: the volume could not be bound to it', async (_what, uuid) => {
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system({ uuid }), now }, dataDir);
    expect(v).toMatchObject({ persistent: false, reason: expect.stringMatching(/^ERASURE-DATA \(\/dev\/sdb2\) not mounted: this machine's DMI system UUID/) });
    expect(sut.calls.some((c) => c[0] === 'mount')).toBe(false);
  });

  it('without the volume (blkid exit 2) mounts nothing and says results are held in memory until delivered', async () => {
    const sut = tools({ blkid: done(2) });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toEqual({ persistent: false, dataDir, reason: 'no ERASURE-DATA volume' });
    expect(sut.calls.some((c) => c[0] === 'mount')).toBe(false);
    expect(describeDataVolume(v)).toBe(`no ERASURE-DATA volume: wipe results waiting for delivery are held in memory (${dataDir}) until delivered; they and the station settings are lost if the machine reboots first`);
  });

  it('carries on in memory, saying why in mount\'s own words, when the volume will not mount', async () => {
    const bad = done(32, '', 'mount: /var/lib/erasure: wrong fs type, bad option, bad superblock on /dev/sdb2, missing codepage or helper program, or other error.\n       dmesg(1) may have more information after failed mount system call.\n');
    const sut = tools({ blkid: done(0, '/dev/sdb2\n'), mount: bad });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toMatchObject({ persistent: false, reason: expect.stringMatching(/^ERASURE-DATA \(\/dev\/sdb2\) did not mount: mount: .*bad superblock on \/dev\/sdb2, [^;]*; through a loop device: mount: .*bad superblock/) });
    expect(v.persistent ? '' : v.reason).not.toMatch(/dmesg/);
    expect(describeDataVolume(v)).toMatch(/held in memory/);
  });

  it('mounts the boot stick\'s own partition through a loop device when the stick it belongs to is held by the live system', async () => {
    volumeHolds({ 'lost+found/.keep': '' });
    // The kernel will not claim a partition of a disk that is mounted whole (live-boot's ISO 9660 at sector 0).
    const busy = done(32, '', 'mount: /var/lib/erasure: /dev/sda4 already mounted or mount point busy.\n       dmesg(1) may have more information after failed mount system call.\n');
    const sut = tools({ blkid: done(0, '/dev/sda4\n'), mount: (args) => (args[1]?.startsWith('loop,') ? done(0) : busy) });
    const v = await mountDataVolume({ run: sut.run, sys: system(), now }, dataDir);
    expect(v).toEqual({ persistent: true, device: '/dev/sda4', dataDir, alreadyMounted: false, boundNow: true, throughLoop: true });
    expect(sut.calls.filter((c) => c[0] === 'mount')).toEqual([
      ['mount', '-o', 'nosuid,nodev,noexec', '/dev/sda4', dataDir],
      ['mount', '-o', 'loop,nosuid,nodev,noexec', '/dev/sda4', dataDir],
    ]);
    expect(describeDataVolume(v)).toBe(`ERASURE-DATA volume /dev/sda4 mounted at ${dataDir} through a loop device (a partition of the boot stick) (bound to this machine now): wipe results waiting for delivery and station settings survive a reboot`);
  });

  it('leaves a DATA_DIR that is already a mount point as it is (the unit ran twice)', async () => {
    const sut = tools({ blkid: done(0, '/dev/sdb2\n') });
    const v = await mountDataVolume({ run: sut.run, sys: system({ mountinfo: `22 1 0:21 / / rw - overlay overlay rw\n41 22 8:18 / ${dataDir} rw,nosuid - ext4 /dev/sdb2 rw\n` }), now }, dataDir);
    expect(v).toEqual({ persistent: true, device: '/dev/sdb2', dataDir, alreadyMounted: true });
    expect(sut.calls).toEqual([]);
  });
});
