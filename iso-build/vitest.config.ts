import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:iso`: boots the built image in QEMU. Kept apart from `npm test` because it needs
// the image (`npm run iso`) and takes minutes per boot under TCG.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: {
    alias: [{ find: /^@erasure\/shared$/, replacement: fileURLToPath(new URL('../shared/src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['iso-build/vm-test/**/*.test.ts'],
    testTimeout: 45 * 60_000,
    hookTimeout: 10 * 60_000,
    pool: 'forks',
    // One VM at a time: two TCG guests on two cores would each take twice as long.
    fileParallelism: false,
  },
});
