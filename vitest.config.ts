import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources; the alias keeps `@erasure/shared`
// pointing at src so a change there needs no rebuild before `npm test`.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@erasure\/shared\/contracts$/,
        replacement: fileURLToPath(new URL('./shared/src/contracts/index.ts', import.meta.url)),
      },
      { find: /^@erasure\/shared$/, replacement: fileURLToPath(new URL('./shared/src/index.ts', import.meta.url)) },
      { find: /^@erasure\/iso-build$/, replacement: fileURLToPath(new URL('./iso-build/src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Browser and stack tests poll the page; on a loaded 2-core CI machine a second is not enough.
    expect: { poll: { timeout: 15_000 } },
  },
});
