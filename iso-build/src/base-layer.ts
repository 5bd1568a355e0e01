import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cached, InputHash } from './cache.js';
import { runTool } from './run.js';

/** Where Debian comes from. trixie ships Node.js 20, which the agent and the kiosk need. */
export interface DebianSource {
  readonly suite: string;
  readonly mirror: string;
}

export const DEFAULT_SOURCE: DebianSource = { suite: 'trixie', mirror: 'http://deb.debian.org/debian' };

/** The packages named in a package list (comments and blank lines dropped). */
export function readPackageList(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line.length > 0);
}

/** Everything that goes into the Debian root: no documentation, manuals or translations. */
const MMDEBSTRAP_OPTIONS = [
  '--mode=root',
  '--variant=apt',
  '--aptopt=APT::Install-Recommends "false"',
  '--dpkgopt=path-exclude=/usr/share/man/*',
  '--dpkgopt=path-exclude=/usr/share/doc/*',
  '--dpkgopt=path-include=/usr/share/doc/*/copyright',
  '--dpkgopt=path-exclude=/usr/share/info/*',
  '--dpkgopt=path-exclude=/usr/share/locale/*',
  '--dpkgopt=path-include=/usr/share/locale/locale.alias',
];

/** zstd squashfs: Debian's kernel reads it, and it unpacks faster than xz on a slow machine. */
export const MKSQUASHFS_OPTIONS = ['-noappend', '-comp', 'zstd', '-b', '1M', '-quiet'];

export interface BaseLayer {
  readonly squashfs: string;
  readonly kernel: string;
  readonly initrd: string;
  readonly key: string;
  readonly hits: { readonly packages: boolean; readonly base: boolean };
}

/**
 * The base layer, in two cached steps: the installed packages (a tar from mmdebstrap, keyed by
 * the package list and the Debian source), then the configured root (image/rootfs copied over
 * it, image/setup.sh run in it) as a squashfs with the kernel and live-boot initrd beside it.
 * Editing a unit rebuilds only the second step; the project is not in this layer at all.
 */
export async function buildBaseLayer(opts: { imageDir: string; cache: string; source: DebianSource }): Promise<BaseLayer> {
  const packages = readPackageList(join(opts.imageDir, 'packages', 'base.txt'));
  const packagesKey = new InputHash()
    .text('suite', opts.source.suite)
    .text('mirror', opts.source.mirror)
    .text('packages', packages.join('\n'))
    .text('options', MMDEBSTRAP_OPTIONS.join('\n'))
    .digest();
  const tar = await cached(join(opts.cache, `packages-${packagesKey}.tar`), (partial) =>
    runTool('mmdebstrap', [...MMDEBSTRAP_OPTIONS, `--include=${packages.join(',')}`, opts.source.suite, partial, opts.source.mirror]),
  );

  const key = new InputHash()
    .text('packages', packagesKey)
    .tree('rootfs', join(opts.imageDir, 'rootfs'))
    .text('setup', readFileSync(join(opts.imageDir, 'setup.sh'), 'utf8'))
    .text('mksquashfs', MKSQUASHFS_OPTIONS.join(' '))
    .digest();
  const dir = join(opts.cache, `base-${key}`);
  const base = await cached(dir, async (partial) => {
    const root = mkdtempSync(join(opts.cache, 'root-'));
    try {
      await runTool('tar', ['--numeric-owner', '-xpf', tar.path, '-C', root]);
      await runTool('cp', ['-a', `${join(opts.imageDir, 'rootfs')}/.`, root]);
      await runTool('chroot', [root, '/bin/sh', '-s'], { input: readFileSync(join(opts.imageDir, 'setup.sh'), 'utf8') });
      await runTool('mkdir', ['-p', partial]);
      const boot = readdirSync(join(root, 'boot'));
      const kernel = boot.find((f) => f.startsWith('vmlinuz-'));
      const initrd = boot.find((f) => f.startsWith('initrd.img-'));
      if (!kernel || !initrd) throw new Error(`no kernel or initrd in the base root's /boot (found: ${boot.join(', ')})`);
      await runTool('cp', [join(root, 'boot', kernel), join(partial, 'vmlinuz')]);
      await runTool('cp', [join(root, 'boot', initrd), join(partial, 'initrd.img')]);
      // The kernel and initrd boot from the medium; inside the squashfs they would be dead weight.
      await runTool('mksquashfs', [root, join(partial, 'filesystem.squashfs'), ...MKSQUASHFS_OPTIONS, '-wildcards', '-e', 'boot/vmlinuz-*', 'boot/initrd.img-*']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  return {
    squashfs: join(base.path, 'filesystem.squashfs'),
    kernel: join(base.path, 'vmlinuz'),
    initrd: join(base.path, 'initrd.img'),
    key,
    hits: { packages: tar.hit, base: base.hit },
  };
}
