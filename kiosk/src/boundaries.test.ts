import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repo has no linter yet, so STYLE A's process boundaries are checked here, by folder:
// the renderer runs in a sandboxed page (no electron, no node), the main process renders nothing.
const SRC = fileURLToPath(new URL('.', import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(c|m)?tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });

const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');

describe('process boundaries', () => {
  it('the renderer imports neither electron nor node built-ins', () => {
    const offending = sources(join(SRC, 'renderer')).flatMap((f) => importsOf(f).filter((i) => i === 'electron' || i.startsWith('node:')).map((i) => `${relative(SRC, f)}: ${i}`));
    expect(offending).toEqual([]);
  });

  it('the main process and preload import no React', () => {
    const files = [...sources(join(SRC, 'main')), ...sources(join(SRC, 'preload'))];
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((f) => importsOf(f).filter((i) => /^react(-dom)?(\/|$)/.test(i)).map((i) => `${relative(SRC, f)}: ${i}`));
    expect(offending).toEqual([]);
  });

  it('the preload reaches electron only through require, as a sandboxed preload must', () => {
    const preload = readFileSync(join(SRC, 'preload/preload.cts'), 'utf8');
    expect(importsOf(join(SRC, 'preload/preload.cts')).filter((i) => i !== 'electron' && !i.startsWith('./'))).toEqual([]);
    expect(preload).toMatch(/satisfies KioskBridge/);
  });
});
