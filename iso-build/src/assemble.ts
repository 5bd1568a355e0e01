import { copyFileSync, cpSync, linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IMAGE_FILES, IMAGE_VOLUME_ID } from '@erasure/shared';
import type { BaseLayer } from './base-layer.js';
import { appendDataPartitionArgs, makeDataPartition } from './data-partition.js';
import { personalizationFiles, type Personalization } from './personalization.js';
import type { ProjectLayer } from './project-layer.js';
import { runTool } from './run.js';

/** Hard link when the cache and the output share a filesystem (no 300 MB copy), else copy. */
function place(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

export interface BuildInfo {
  readonly version: string;
  readonly built_at: string;
  readonly base_key: string;
  readonly project_key: string;
  readonly suite: string;
}

/**
 * The hybrid ISO: grub-mkrescue lays out El Torito for BIOS and UEFI plus an MBR/GPT, so the
 * same file boots from an optical drive or written to a USB stick. live-boot stacks every
 * squashfs under /live: the base (Debian) and the project layer. An empty ERASURE-DATA partition
 * follows the ISO part, so a stick written with the image keeps kept results across a power cut.
 */
export async function assembleIso(opts: { base: BaseLayer; project: ProjectLayer; imageDir: string; out: string; info: BuildInfo; personalization: Personalization }): Promise<void> {
  const root = mkdtempSync(join(dirname(opts.out), '.iso-root-'));
  const data = await makeDataPartition();
  try {
    place(opts.base.kernel, join(root, 'live', 'vmlinuz'));
    place(opts.base.initrd, join(root, 'live', 'initrd.img'));
    place(opts.base.squashfs, join(root, 'live', 'filesystem.squashfs'));
    place(opts.project.squashfs, join(root, 'live', 'zz-erasure.squashfs'));
    mkdirSync(join(root, 'boot', 'grub'), { recursive: true });
    cpSync(join(opts.imageDir, 'grub.cfg'), join(root, 'boot', 'grub', 'grub.cfg'));
    mkdirSync(join(root, 'erasure'), { recursive: true });
    writeFileSync(join(root, IMAGE_FILES.buildInfo), `${JSON.stringify(opts.info, null, 2)}\n`);
    for (const [isoPath, content] of personalizationFiles(opts.personalization)) writeFileSync(join(root, isoPath), content, { mode: 0o600 });
    const partial = `${opts.out}.partial`;
    await runTool('grub-mkrescue', [`--xorriso=${join(opts.imageDir, 'xorriso-no-hfsplus')}`, '-o', partial, root, '--', '-volid', IMAGE_VOLUME_ID, ...appendDataPartitionArgs(data.file)]);
    rmSync(opts.out, { force: true });
    cpSync(partial, opts.out);
    rmSync(partial, { force: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
    data.dispose();
  }
}

/**
 * Network boot: the kernel, the initrd and one squashfs (live-boot's `fetch=` takes a single
 * file), made by appending the project layer to a copy of the base. The base holds no /opt, so
 * the append adds /opt/erasure without renaming anything. A token given to the build is baked in
 * at /opt/erasure/device, since a PXE boot has no medium to carry it.
 */
export async function assemblePxe(opts: { base: BaseLayer; project: ProjectLayer; dir: string; personalization: Personalization }): Promise<void> {
  rmSync(opts.dir, { recursive: true, force: true });
  mkdirSync(opts.dir, { recursive: true });
  copyFileSync(opts.base.kernel, join(opts.dir, 'vmlinuz'));
  copyFileSync(opts.base.initrd, join(opts.dir, 'initrd.img'));
  const squashfs = join(opts.dir, 'filesystem.squashfs');
  copyFileSync(opts.base.squashfs, squashfs);
  const stage = mkdtempSync(join(opts.dir, '.stage-'));
  try {
    await runTool('unsquashfs', ['-q', '-f', '-d', stage, opts.project.squashfs]);
    const device = join(stage, 'opt', 'erasure', 'device');
    mkdirSync(device, { recursive: true });
    for (const [isoPath, content] of personalizationFiles(opts.personalization)) {
      if (isoPath === IMAGE_FILES.bootConfig) continue; // GRUB is not involved: the PXE menu carries the options
      writeFileSync(join(device, isoPath.replace(/^erasure\//, '')), content, { mode: 0o600 });
    }
    // Appending keeps the base's compressor and block size; only the new files are compressed.
    await runTool('mksquashfs', [stage, squashfs, '-quiet', '-no-recovery']);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

export const sizeMiB = (path: string) => (statSync(path).size / 1024 ** 2).toFixed(0);
