import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Builds every workspace once before the suite: CLI and end-to-end tests run the real
 * binaries (`cloud/bin`, `gateway/bin`), which load `dist/`, so it must match the sources.
 */
export default function buildOnce(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'inherit' });
}
