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
      await runTool('mksquashfs', [stage, partial, ...MKSQUASHFS_OPTIONS, '-all-root']);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  });
  return { squashfs: layer.path, key, hit: layer.hit };
}
