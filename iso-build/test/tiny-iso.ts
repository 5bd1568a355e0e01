import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendDataPartitionArgs, mkfsArgs, mkfsExt4 } from '../src/data-partition.js';

const WRAPPER = fileURLToPath(new URL('../image/xorriso-no-hfsplus', import.meta.url));

/** Why a real (small) hybrid ISO cannot be made here, or undefined when it can. */
export function tinyIsoSkipReason(): string | undefined {
  if (!mkfsExt4()) return 'mkfs.ext4 is not installed (apt-get install e2fsprogs)';
  for (const [tool, pkg] of [['grub-mkrescue', 'grub-common grub-pc-bin grub-efi-amd64-bin'], ['xorriso', 'xorriso'], ['mformat', 'mtools']] as const) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed (apt-get install ${pkg})`;
    }
  }
  return undefined;
}

/**
 * A small image laid out exactly as the build lays out the real one (grub-mkrescue through the
 * same xorriso wrapper, BIOS and EFI El Torito, MBR and GPT), without the Debian layers: what
 * personalization must preserve is the boot setup, and that is all here.
 */
export function buildTinyIso(dir: string): string {
  const root = mkdtempSync(join(tmpdir(), 'tiny-iso-root-'));
  try {
    mkdirSync(join(root, 'boot', 'grub'), { recursive: true });
    mkdirSync(join(root, 'erasure'), { recursive: true });
    writeFileSync(join(root, 'boot', 'grub', 'grub.cfg'), 'set timeout=1\nif [ -f /erasure/boot.cfg ]; then source /erasure/boot.cfg; fi\n');
    writeFileSync(join(root, 'erasure', 'image.json'), '{"version":"test"}\n');
    const iso = join(dir, 'erasure-test-amd64.iso');
    // The build's empty ERASURE-DATA partition after the ISO part (data-partition.ts).
    const data = join(root, '..', `${root.split('/').at(-1)}-data.ext4`);
    execFileSync(mkfsExt4() ?? 'mkfs.ext4', mkfsArgs(data), { stdio: 'ignore' });
    try {
      execFileSync('grub-mkrescue', [`--xorriso=${WRAPPER}`, '-o', iso, root, '--', '-volid', 'ERASURE', ...appendDataPartitionArgs(data)], { stdio: 'ignore' });
    } finally {
      rmSync(data, { force: true });
    }
    return iso;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A file of the image, read with xorriso (no mount needed); undefined when absent. */
export function readIsoFile(iso: string, path: string): string | undefined {
  const out = mkdtempSync(join(tmpdir(), 'iso-extract-'));
  try {
    execFileSync('xorriso', ['-osirrox', 'on', '-indev', iso, '-extract', path, join(out, 'f')], { stdio: 'ignore' });
    return execFileSync('cat', [join(out, 'f')], { encoding: 'utf8' });
  } catch {
    return undefined;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The boot catalogue as xorriso reports it: one line per El Torito entry, with its platform. */
export function bootPlatforms(iso: string): string[] {
  const report = execFileSync('xorriso', ['-indev', iso, '-report_el_torito', 'plain'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return report
    .split('\n')
    .filter((l) => /^El Torito boot img :\s+\d/.test(l))
    .map((l) => l.split(/\s+/)[6] ?? '');
}

/** Whether the image still carries its MBR and GPT (a USB stick written with it boots). */
export function systemArea(iso: string): string {
  return execFileSync('xorriso', ['-indev', iso, '-report_system_area', 'plain'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/**
 * What the filesystem at `offset` of `image` is, as blkid probes it (LABEL, TYPE…), and the names
 * in its root folder, read with debugfs from a copy of just that partition.
 */
export function filesystemAt(image: string, offset: number, bytes: number): { probe: Record<string, string>; rootNames: string[] } {
  const out = mkdtempSync(join(tmpdir(), 'partition-'));
  try {
    const probe = Object.fromEntries(
      execFileSync('blkid', ['-p', '-o', 'export', '-O', String(offset), image], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const part = join(out, 'part.ext4');
    execFileSync('dd', [`if=${image}`, `of=${part}`, 'bs=512', `skip=${offset / 512}`, `count=${bytes / 512}`, 'status=none']);
    const listing = execFileSync(existsSync('/usr/sbin/debugfs') ? '/usr/sbin/debugfs' : 'debugfs', ['-R', 'ls -p /', part], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    // `ls -p` lines: /inode/mode/uid/gid/name/size/
    const rootNames = listing.split('\n').map((l) => l.split('/')[5] ?? '').filter((n) => n !== '' && n !== '.' && n !== '..');
    return { probe, rootNames };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
