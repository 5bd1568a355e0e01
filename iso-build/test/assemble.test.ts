import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleIso, assemblePxe } from '../src/assemble.js';
import type { BaseLayer } from '../src/base-layer.js';
import type { ProjectLayer } from '../src/project-layer.js';
import { DATA_PARTITION_MIB, dataPartitionOf } from '../src/data-partition.js';
import { bootPlatforms, filesystemAt, readIsoFile, tinyIsoSkipReason } from './tiny-iso.js';

const IMAGE_DIR = fileURLToPath(new URL('../image', import.meta.url));
const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJqdGkiOiJidWlsZCJ9.c2lnbmF0dXJl';
const skip = tinyIsoSkipReason() ?? (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mksquashfs && command -v unsquashfs'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'squashfs-tools is not installed (apt-get install squashfs-tools)';
  }
})();
if (skip) console.warn(`[iso-build] assemble tests skipped: ${skip}`);

/**
 * The last steps of `npm run iso` on small stand-in layers (a real squashfs each, a dummy
 * kernel and initrd): what the build puts where, without the minutes of mmdebstrap.
 */
describe.skipIf(Boolean(skip))('assembling the image from its layers', () => {
  let dir: string;
  let base: BaseLayer;
  let project: ProjectLayer;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'assemble-'));
    const baseRoot = join(dir, 'base-root');
    mkdirSync(join(baseRoot, 'etc'), { recursive: true });
    writeFileSync(join(baseRoot, 'etc', 'hostname'), 'erasure\n');
    const projectRoot = join(dir, 'project-root');
    mkdirSync(join(projectRoot, 'opt', 'erasure', 'engine-agent'), { recursive: true });
    writeFileSync(join(projectRoot, 'opt', 'erasure', 'engine-agent', 'package.json'), '{}\n');
    execFileSync('mksquashfs', [baseRoot, join(dir, 'base.squashfs'), '-noappend', '-quiet', '-comp', 'zstd']);
    execFileSync('mksquashfs', [projectRoot, join(dir, 'project.squashfs'), '-noappend', '-quiet', '-comp', 'zstd']);
    writeFileSync(join(dir, 'vmlinuz'), 'kernel');
    writeFileSync(join(dir, 'initrd.img'), 'initrd');
    base = { squashfs: join(dir, 'base.squashfs'), kernel: join(dir, 'vmlinuz'), initrd: join(dir, 'initrd.img'), key: 'b', hits: { packages: true, base: true } };
    project = { squashfs: join(dir, 'project.squashfs'), key: 'p', hit: true };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const info = { version: '0.1.0', built_at: '2026-11-25T00:00:00Z', base_key: 'b', project_key: 'p', suite: 'trixie' };

  it('lays out both layers, the kernel and initrd under /live, with the GRUB menu, bootable by BIOS and UEFI', async () => {
    const out = join(dir, 'plain.iso');
    await assembleIso({ base, project, imageDir: IMAGE_DIR, out, info, personalization: {} });
    const listing = execFileSync('xorriso', ['-indev', out, '-find', '/live', '-exec', 'lsdl'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    for (const f of ['vmlinuz', 'initrd.img', 'filesystem.squashfs', 'zz-erasure.squashfs']) expect(listing).toContain(`/live/${f}`);
    expect(readIsoFile(out, '/boot/grub/grub.cfg')).toMatch(/boot=live/);
    expect(readIsoFile(out, '/erasure/device-token')).toBeUndefined();
    expect(JSON.parse(readIsoFile(out, '/erasure/image.json') ?? '{}')).toMatchObject({ version: '0.1.0', suite: 'trixie' });
    expect(bootPlatforms(out)).toEqual(['BIOS', 'UEFI']);
  });

  it('ends the image with an empty ERASURE-DATA partition, so a stick written with it keeps results across a power cut', async () => {
    const out = join(dir, 'data.iso');
    await assembleIso({ base, project, imageDir: IMAGE_DIR, out, info, personalization: {} });
    const part = dataPartitionOf(out);
    expect(part?.bytes).toBe(DATA_PARTITION_MIB * 1024 * 1024);
    const fs = filesystemAt(out, part!.offset, part!.bytes);
    expect([fs.probe['LABEL'], fs.probe['TYPE'], fs.rootNames]).toEqual(['ERASURE-DATA', 'ext4', ['lost+found']]);
  });

  it('bakes in the device token and gateway given to the build', async () => {
    const out = join(dir, 'baked.iso');
    await assembleIso({ base, project, imageDir: IMAGE_DIR, out, info, personalization: { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' } });
    expect(readIsoFile(out, '/erasure/device-token')).toBe(`${TOKEN}\n`);
    expect(readIsoFile(out, '/erasure/gateway-url')).toBe('https://gw.example.net\n');
  });

  it('makes one PXE squashfs holding the base and the project, with the token at /opt/erasure/device', async () => {
    const pxe = join(dir, 'pxe');
    await assemblePxe({ base, project, dir: pxe, personalization: { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' } });
    const files = execFileSync('unsquashfs', ['-l', join(pxe, 'filesystem.squashfs')], { encoding: 'utf8' });
    for (const f of ['/etc/hostname', '/opt/erasure/engine-agent/package.json', '/opt/erasure/device/device-token', '/opt/erasure/device/gateway-url']) expect(files).toContain(`squashfs-root${f}`);
    // Nothing renamed by the append: the base has no /opt, so no opt_1 appears.
    expect(files).not.toMatch(/_1\b/);
    execFileSync('unsquashfs', ['-q', '-d', join(dir, 'pxe-root'), join(pxe, 'filesystem.squashfs'), '/opt/erasure/device/device-token']);
    expect(execFileSync('cat', [join(dir, 'pxe-root', 'opt', 'erasure', 'device', 'device-token')], { encoding: 'utf8' })).toBe(`${TOKEN}\n`);
  });
});
