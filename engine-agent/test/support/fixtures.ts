import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real-hardware fixtures live beside the repository (../shared/fixtures/real), never in it.
 * The workspace is found by walking up to its package.json, so the answer does not depend on
 * which test file asks or on the current directory.
 */
function findWorkspaceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && /"name":\s*"@erasure\/engine-agent"/.test(readFileSync(manifest, 'utf8'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('engine-agent workspace not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Absolute path of the engine-agent workspace. */
export const workspaceDir = findWorkspaceDir();
/** Repository root: the workspace's parent. */
export const repoRoot = dirname(workspaceDir);
/** The fixture folder: `<repo root>/../shared/fixtures/real`. */
export const fixtureRoot = join(repoRoot, '..', 'shared', 'fixtures', 'real');
/** Whether the fixture folder is present (it is not shipped with the repository). */
export const fixturesPresent = existsSync(fixtureRoot) && statSync(fixtureRoot).isDirectory();

if (!fixturesPresent) {
  console.warn(`[fixtures] ${fixtureRoot} is absent: tests over real tool outputs are skipped`);
}

/** Message for describe.skipIf titles. */
export const FIXTURES_SKIP_NOTE = `real fixtures (${fixtureRoot})`;

/** Names of the fixture files in one tool folder, sorted, or [] when the folder is absent. */
export function fixtureFiles(tool: string): string[] {
  const dir = join(fixtureRoot, tool);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

/** Tool folders under the fixture root. */
export function fixtureTools(): string[] {
  if (!fixturesPresent) return [];
  return readdirSync(fixtureRoot)
    .filter((name) => statSync(join(fixtureRoot, name)).isDirectory())
    .sort();
}

/** Reads a fixture as text. */
export function fixtureText(tool: string, name: string): string {
  return readFileSync(join(fixtureRoot, tool, name), 'utf8');
}

/** Reads a fixture as bytes (EDID binaries, archives). */
export function fixtureBytes(tool: string, name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(fixtureRoot, tool, name)));
}

/** Absolute path of a fixture. */
export function fixturePath(tool: string, name: string): string {
  return join(fixtureRoot, tool, name);
}
