import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run soak:station`: an hour (by default) of a station booted from the image, kept busy with
// hot-plugs. A soak, not a test: never part of `npm test` or CI; it prints a table and figures.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: {
    alias: [{ find: /^@erasure\/shared$/, replacement: fileURLToPath(new URL('../../shared/src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['iso-build/soak/**/*.soak.ts'],
    testTimeout: 24 * 60 * 60_000,
    hookTimeout: 60 * 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
