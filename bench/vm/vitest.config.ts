import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `node bench/qemu-parallel.js`: boots the built image in QEMU to time erases. A benchmark, not a
// test: it prints figures and fails only when an erase does.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: {
    alias: [{ find: /^@erasure\/shared$/, replacement: fileURLToPath(new URL('../../shared/src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['bench/vm/**/*.bench-vm.ts'],
    testTimeout: 60 * 60_000,
    hookTimeout: 10 * 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
