import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cached, InputHash } from './cache.js';
import { MKSQUASHFS_OPTIONS } from './base-layer.js';
import { runTool } from './run.js';

/** The workspaces the image runs: the agent, the kiosk shell and renderer, and what they share. */
const SHIPPED = [
  { dir: 'shared', parts: ['package.json', 'dist'] },
  { dir: 'engine-agent', parts: ['package.json', 'bin', 'dist', 'build/Release/erasure_blockdev.node'] },
  { dir: 'kiosk', parts: ['package.json', 'bin', 'dist'] },
] as const;

/** Workspaces that stay out of the image; their manifests are still needed for `npm ci` to accept the lockfile. */
const MANIFEST_ONLY = ['cloud', 'gateway', 'iso-build'] as const;

export interface ProjectLayer {
  readonly squashfs: string;
  readonly key: string;
  readonly hit: boolean;
  /** Whether the kiosk's Electron binary went into the layer, or why not (the kiosk then runs in Chromium). */
  readonly electron: { readonly included: true; readonly version: string } | { readonly included: false; readonly reason: string };
}

/**
 * Electron's binary as the `electron` package fetched it on this machine (`node_modules/electron/dist`
 * and its `path.txt`). npm installs the package without it; it is fetched on first use, which
 * needs Electron's download host.
 */
export function electronBinary(repo: string): { dir: string; pathTxt: string; version: string } | { reason: string } {
  const pkg = join(repo, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) return { reason: 'the electron package is not installed (run `npm ci`)' };
  const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const pathTxt = join(pkg, 'path.txt');
  const executable = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : undefined;
  if (!executable || !existsSync(join(pkg, 'dist', executable))) return { reason: `Electron ${version}'s binary was never fetched on this machine (run \`node -e "require('electron')"\` where its download host is reachable)` };
  return { dir: join(pkg, 'dist'), pathTxt, version };
}

/**
 * The project layer: /opt/erasure with the built agent and kiosk and their production
 * dependencies only, as a squashfs stacked over the base by live-boot. Keyed by the built
 * output and the lockfile, so a code change rebuilds this layer alone (seconds, not minutes).
 */
export async function buildProjectLayer(opts: { repo: string; cache: string; rebuild?: boolean }): Promise<ProjectLayer> {
  const hash = new InputHash().text('lock', readFileSync(join(opts.repo, 'package-lock.json'), 'utf8')).text('mksquashfs', MKSQUASHFS_OPTIONS.join(' '));
  for (const ws of SHIPPED) {
    for (const part of ws.parts) {
      const path = join(opts.repo, ws.dir, part);
      if (!existsSync(path)) throw new Error(`${ws.dir}/${part} is missing: run \`npm run build\` first`);
      if (part.endsWith('.json') || part.endsWith('.node')) hash.text(`${ws.dir}/${part}`, readFileSync(path, 'latin1'));
      else hash.tree(`${ws.dir}/${part}`, path);
    }
  }
  // The binary when present: the kiosk then opens in Electron; without it, in Debian's Chromium.
  const electron = electronBinary(opts.repo);
  if ('dir' in electron) hash.tree('electron/dist', electron.dir).text('electron/path.txt', readFileSync(electron.pathTxt, 'utf8'));
  const key = hash.digest();
  // --rebuild-project: what a code change costs, measured without changing code.
  if (opts.rebuild) rmSync(join(opts.cache, `project-${key}.squashfs`), { force: true });
  const layer = await cached(join(opts.cache, `project-${key}.squashfs`), async (partial) => {
    const stage = mkdtempSync(join(opts.cache, 'project-'));
    try {
      const app = join(stage, 'opt', 'erasure');
      mkdirSync(app, { recursive: true });
      const rootManifest = JSON.parse(readFileSync(join(opts.repo, 'package.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(app, 'package.json'), JSON.stringify({ ...rootManifest, scripts: {} }, null, 2));
      cpSync(join(opts.repo, 'package-lock.json'), join(app, 'package-lock.json'));
      for (const ws of MANIFEST_ONLY) {
        mkdirSync(join(app, ws), { recursive: true });
        cpSync(join(opts.repo, ws, 'package.json'), join(app, ws, 'package.json'));
      }
      for (const ws of SHIPPED) for (const part of ws.parts) cpSync(join(opts.repo, ws.dir, part), join(app, ws.dir, part), { recursive: true });
      // Production dependencies of the shipped workspaces only; the addon is already built
      // (same Node ABI as trixie's Node 20), so no install script runs.
      await runTool('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', ...SHIPPED.flatMap((ws) => ['--workspace', ws.dir])], { cwd: app });
      for (const ws of MANIFEST_ONLY) rmSync(join(app, ws), { recursive: true, force: true });
      const into = join(app, 'node_modules', 'electron');
      if ('dir' in electron) {
        cpSync(electron.dir, join(into, 'dist'), { recursive: true });
        cpSync(electron.pathTxt, join(into, 'path.txt'));
      } else {
        // Without its binary the package would try to fetch it at every boot (read-only layer,
        // often no network): without the package the kiosk goes straight to Chromium.
        rmSync(into, { recursive: true, force: true });
      }
      await runTool('mksquashfs', [stage, partial, ...MKSQUASHFS_OPTIONS, '-all-root']);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  });
  return { squashfs: layer.path, key, hit: layer.hit, electron: 'dir' in electron ? { included: true, version: electron.version } : { included: false, reason: electron.reason } };
}
