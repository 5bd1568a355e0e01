#!/usr/bin/env node
// Install step of @erasure/engine-agent: builds the block-device addon (native/blockdev.c) with
// node-gyp. The erase path cannot run without it (O_DIRECT needs sector-aligned memory, and the
// verify step needs BLKFLSBUF), so a failed build fails the install with a message saying why,
// instead of surfacing later as EINVAL in the middle of an erase.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..');

/** node-gyp as npm ships it: npm passes its path to lifecycle scripts; else look beside npm. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((c) => c && existsSync(c));
}

if (process.platform !== 'linux') {
  console.warn('[engine-agent] not Linux: the block-device addon is not built; erase and verify will refuse to run');
  process.exit(0);
}
const gyp = nodeGyp();
if (!gyp) {
  console.error('[engine-agent] node-gyp not found (it ships with npm): cannot build the block-device addon');
  process.exit(1);
}
// Distro Node ships its headers under <prefix>/include/node; use them rather than downloading
// (the build machine may be offline). npm passes npm_config_nodedir when it is configured.
const prefix = join(dirname(process.execPath), '..');
const localHeaders = !process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h'));
const args = [gyp, 'rebuild', ...(localHeaders ? [`--nodedir=${prefix}`] : [])];
const result = spawnSync(process.execPath, args, { cwd: workspace, stdio: 'inherit' });
if (result.status !== 0) {
  console.error(
    '[engine-agent] building the block-device addon failed. It needs python3, make, a C compiler and the\n' +
      'Node.js headers (Debian: apt-get install python3 make g++; npm config nodedir=/usr for distro Node).\n' +
      'Retry with: npm rebuild -w @erasure/engine-agent',
  );
  process.exit(1);
}
