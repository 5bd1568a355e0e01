import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of ../shared/STYLE.md section A, as `npm test` enforces them through
 * ESLint: each rule fires on a snippet that crosses its boundary, and stays quiet on one that
 * does not. The snippets are linted as if they lived at the given path.
 */
const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

async function rulesFired(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('lint boundaries', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';\nexport const f = () => readFileSync('x');"],
    ["import { connect } from 'net';\nexport const f = () => connect(1);"],
    ["import { request } from 'undici';\nexport const f = () => request('http://x');"],
  ])('shared/ does no I/O: %s', async (code) => {
    expect(await rulesFired('shared/src/contracts/example.ts', code)).toContain('no-restricted-imports');
  });

  it('shared/ reads no environment and calls no fetch', async () => {
    expect(await rulesFired('shared/src/example.ts', 'export const secret = process.env.SECRET;')).toContain('no-restricted-syntax');
    expect(await rulesFired('shared/src/example.ts', "export const get = () => fetch('http://x');")).toContain('no-restricted-globals');
  });

  it('shared/ may hash and sign (node:crypto is pure)', async () => {
    expect(await rulesFired('shared/src/example.ts', "import { createHash } from 'node:crypto';\nexport const h = () => createHash('sha256');")).toEqual([]);
  });

  it.each([
    ['kiosk/src/renderer/features/example.tsx', "import { readFileSync } from 'node:fs';\nexport const f = () => readFileSync('x');"],
    ['kiosk/src/renderer/store/example.ts', "import { app } from 'electron';\nexport const f = () => app.quit();"],
    ['cloud/web/src/pages/example.tsx', "import { ERRORS } from '@erasure/shared';\nexport const e = ERRORS;"],
    ['kiosk/src/renderer/example.ts', "import { join } from 'path';\nexport const p = join('a', 'b');"],
  ])('browser code imports no node code: %s', async (path, code) => {
    expect(await rulesFired(path, code)).toContain('no-restricted-imports');
  });

  it('browser code may import the browser-safe contracts', async () => {
    expect(await rulesFired('kiosk/src/renderer/example.ts', "import { AgentState } from '@erasure/shared/contracts';\nexport const s = AgentState;")).toEqual([]);
  });

  it('the Electron main process imports no React', async () => {
    expect(await rulesFired('kiosk/src/main/example.ts', "import { createElement } from 'react';\nexport const e = createElement;")).toContain('no-restricted-imports');
  });

  it.each([
    ['cloud/src/domain/device/example.ts', "import { storeWipeResult } from '../../adapters/db/wipe-results.js';\nexport const s = storeWipeResult;"],
    ['cloud/src/domain/webhooks/example.ts', "import { buildCloudApp } from '../../http/app.js';\nexport const b = buildCloudApp;"],
    ['engine-agent/src/session/example.ts', "import { createRunner } from '../adapters/runner.js';\nexport const r = createRunner;"],
    ['engine-agent/src/drives/example.ts', "import { buildApp } from '../api/app.js';\nexport const b = buildApp;"],
  ])('the domain does not import the adapters or its callers: %s', async (path, code) => {
    expect(await rulesFired(path, code)).toContain('@typescript-eslint/no-restricted-imports');
  });

  it("the domain may name an adapter's types (its ports)", async () => {
    expect(await rulesFired('cloud/src/domain/device/example.ts', "import type { WritableDb } from '../../adapters/db/open.js';\nexport type D = WritableDb;")).toEqual([]);
  });
});
