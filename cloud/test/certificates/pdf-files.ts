import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** Where PDF tests leave their page images, to be looked at (test-results/screens). */
export const SCREENS_DIR = fileURLToPath(new URL('../../../test-results/screens/', import.meta.url));

export const runTool = (cmd: string, args: readonly string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

/**
 * For a describe block that checks rendered PDFs: a temporary folder (removed after the block)
 * and `render`, which writes one there, draws its pages into SCREENS_DIR as `<name>-<page>.png`
 * (the first page only, unless `allPages`) and returns its path and its text with spaces folded.
 */
export function pdfFiles(prefix: string, options: { allPages?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name: string, bytes: Uint8Array): { path: string; text: string } => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    mkdirSync(SCREENS_DIR, { recursive: true });
    runTool('pdftoppm', ['-png', '-r', '80', ...(options.allPages ? [] : ['-f', '1', '-l', '1']), path, join(SCREENS_DIR, name)]);
    return { path, text: runTool('pdftotext', ['-enc', 'UTF-8', path, '-']).replace(/\s+/g, ' ') };
  };
}
