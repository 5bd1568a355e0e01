#!/usr/bin/env node
// `npm run bench`: every benchmark script in this folder, one after another, in one run (lib.js and cloud-seed.js are their shared helpers).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const here = new URL('.', import.meta.url);
const scripts = readdirSync(here).filter((f) => f.endsWith('.js') && !['run-all.js', 'lib.js', 'cloud-seed.js'].includes(f)).sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  const result = spawnSync(process.execPath, [new URL(script, here).pathname], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
