// ESLint (flat config): typescript-eslint's recommended rules plus the process and layer
// boundaries of ../shared/STYLE.md section A, each a `no-restricted-imports` per folder.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Every Node built-in, bare and `node:`-prefixed. */
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:*'];

const restrict = (paths, patterns = []) => ['error', { paths, patterns }];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/build/**', '**/web-dist/**', '**/node_modules/**', 'coverage/**', 'data/**', 'iso-build/out/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // Parsed boundaries (tool JSON, request bodies) are typed `any` on purpose, then validated.
      '@typescript-eslint/no-explicit-any': 'off',
      // `_name` marks a deliberately unused binding (destructuring a field away, a required parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Non-null assertions follow checks the compiler cannot see (noUncheckedIndexedAccess).
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A binding read by a closure before its one assignment (late wiring) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // shared/ holds contracts and pure helpers: no file system, network, processes or environment.
    files: ['shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process', 'dgram', 'node:dgram', 'undici', 'execa', 'better-sqlite3'].map(
          (name) => ({ name, message: 'shared/ does no I/O: pass data in, keep I/O in the packages that own it.' }),
        ),
      ),
      'no-restricted-globals': ['error', { name: 'fetch', message: 'shared/ does no I/O.' }, { name: 'require', message: 'ESM only.' }],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'shared/ reads no environment: config.ts of each package does.' }],
    },
  },
  {
    // Browser code (the kiosk renderer, the cloud's web pages): no Node, no Electron, contracts only.
    files: ['kiosk/src/renderer/**/*.{ts,tsx}', 'cloud/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        [
          ...NODE_BUILTINS.filter((name) => name !== 'node:*').map((name) => ({ name, message: 'Browser code: no Node built-ins.' })),
          { name: 'electron', message: 'The renderer runs in a plain browser; Electron only wraps it.' },
          { name: '@erasure/shared', message: 'Import the browser-safe @erasure/shared/contracts instead.' },
          ...['execa', 'fastify', 'better-sqlite3', 'undici'].map((name) => ({ name, message: 'Browser code: server-side package.' })),
        ],
        [{ group: ['node:*', '**/main/**', '**/preload/**', '**/cloud/src/**', '**/engine-agent/**'], message: 'Browser code imports no Node or server modules.' }],
      ),
      'no-restricted-globals': ['error', { name: 'process', message: 'Browser code has no process.' }, { name: 'require', message: 'ESM only.' }],
    },
  },
  {
    // The Electron main process: no React.
    files: ['kiosk/src/main/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['react', 'react-dom', 'react-dom/client', 'zustand'].map((name) => ({ name, message: 'kiosk/src/main is the Electron shell: no React.' }))),
    },
  },
  {
    // The cloud's domain is plain functions over ports: no adapters (types of their handles are
    // fine: erased at run time), no HTTP, jobs or CLI.
    files: ['cloud/src/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/adapters/**'], allowTypeImports: true, message: 'The domain takes adapters as ports (deps); import their types only.' },
            { group: ['**/http/**', '**/jobs/**', '**/cli/**', '**/sandbox/**'], message: 'The domain does not depend on its callers.' },
          ],
        },
      ],
    },
  },
  {
    // The engine agent's domain: the device session and drive planning.
    files: ['engine-agent/src/session/**/*.ts', 'engine-agent/src/drives/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/adapters/**'], allowTypeImports: true, message: 'The domain takes adapters as ports (deps); import their types only.' },
            { group: ['**/api/**', '**/cli/**'], message: 'The domain does not depend on its callers.' },
          ],
        },
      ],
    },
  },
);
