import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources; the alias keeps `@erasure/shared`
// pointing at src so a change there needs no rebuild before `npm test`.
/** Tests that run on both stores: every cloud test that goes through `startCloud` or the store port. */
const CLOUD_ON_POSTGRES = [
  'cloud/test/app/**/*.test.ts',
  'cloud/test/e2e/web-{pages,webhooks,lots,downloads,not-issued}.test.ts',
  'test/e2e/device-call-sequence.test.ts',
  'cloud/test/integration/{admin-cli,certificate-keys,certificates-storage,certificates-numbering,certificates-cli,certificates-worker-crash,certificates-s3-worker-crash,webhooks-ledger,rate-windows,wipes-grid-reader,wipes-search,admin-api-keys,worker-shutdown}.test.ts',
  // Issue 31 item 1: the wipes grid searched on the server, in the browser.
  'cloud/test/e2e/web-wipes-filters.test.ts',
];

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
    globalSetup: ['test/global-setup.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on the 2-core CI
    // machine, where most test time is spent waiting on browsers, servers and child processes.
    maxWorkers: 2,
    // Browser and stack tests poll the page; on a loaded 2-core CI machine a second is not enough.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts', 'test/**/*.test.ts'] },
      },
      {
        // The cloud's repository and API tests once more, on PostgreSQL (issue 14): the same test
        // code, with `startCloud` opening a fresh database in a throwaway cluster for each cloud.
        extends: true,
        test: {
          name: 'cloud on postgres',
          include: CLOUD_ON_POSTGRES,
          env: { ERASURE_TEST_STORE: 'postgres' },
          globalSetup: ['test/postgres-global-setup.ts'],
        },
      },
      {
        // Issue 33: the certificate and lot tests once more with the objects in an S3 bucket
        // (a throwaway s3rver per cloud), kept to the files that read and write the store: the
        // certificates made, served and verified, and the lots (ZIP, merged lot PDF, stored lot exports).
        extends: true,
        test: {
          name: 'cloud on s3',
          include: ['cloud/test/app/{certificates-routes,certificates-worker,certificates-verify,certificate-lots,lot-exports}.test.ts'],
          env: { ERASURE_TEST_OBJECT_STORE: 's3' },
        },
      },
    ],
  },
});
