#!/usr/bin/env node
// Four throttled drives erased in one boot of the image against the slowest of them erased alone
// in a second boot (QEMU, TCG here). Needs the built image (npm run iso) and qemu-system-x86_64.
// Usage: node bench/qemu-parallel.js
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const config = fileURLToPath(new URL('./vm/vitest.config.ts', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const r = spawnSync(process.execPath, [vitest, 'run', '--config', config, '--reporter=dot'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
