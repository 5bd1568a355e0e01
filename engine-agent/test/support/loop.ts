import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Loop devices need root and losetup; the tests that use them skip with this note otherwise. */
export const loopSkipReason = (() => {
  if (process.getuid?.() !== 0) return 'not root: loop-device tests skipped';
  try {
    execFileSync('losetup', ['--version'], { stdio: 'ignore' });
    execFileSync('losetup', ['-f'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'losetup unavailable or no free loop device: loop-device tests skipped';
  }
})();
if (loopSkipReason) console.warn(`[loop] ${loopSkipReason}`);

/** Backing files live in /var/tmp, a real disk filesystem (tmpfs would hide O_DIRECT behaviour). */
export function makeWorkDir(prefix: string): string {
  return mkdtempSync(join('/var/tmp', prefix));
}

/** Attaches `file` to a free loop device; `sectorSize` 4096 makes it a 4Kn disk. */
export function attachLoop(file: string, directIo = true, sectorSize?: number): string {
  const args = ['-f', '--show', ...(directIo ? ['--direct-io=on'] : []), ...(sectorSize ? ['--sector-size', String(sectorSize)] : []), file];
  return execFileSync('losetup', args, { encoding: 'utf8' }).trim();
}

/** Detaches a loop device; never throws, so it is safe in finally blocks. */
export function detachLoop(device: string): void {
  try {
    execFileSync('losetup', ['-d', device], { stdio: 'ignore' });
  } catch {
    // already detached
  }
}

/** Writes `bytes` to a new file and attaches it; returns both, and a cleanup that always detaches. */
export function loopWith(dir: string, name: string, bytes: Buffer, sectorSize?: number): { file: string; device: string; cleanup: () => void } {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const device = attachLoop(file, true, sectorSize);
  return { file, device, cleanup: () => detachLoop(device) };
}

/** Removes a work dir. */
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });
