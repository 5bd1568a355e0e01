import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../bin/erasure-iso.js', import.meta.url));

describe('erasure-iso build on a machine without the build tools', () => {
  it('names the Debian packages to install, exits 1 and writes nothing', async () => {
    // A PATH holding node alone: no grub-mkrescue, mmdebstrap, xorriso or mksquashfs.
    const bin = mkdtempSync(join(tmpdir(), 'iso-nobin-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const cache = mkdtempSync(join(tmpdir(), 'iso-cache-'));
    const outDir = join(mkdtempSync(join(tmpdir(), 'iso-out-')), 'out');
    const result = await execa(join(bin, 'node'), [CLI, 'build', '--out', join(outDir, 'x.iso')], {
      env: { PATH: bin, ERASURE_ISO_CACHE: cache, HOME: dirname(cache) },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('grub-mkrescue (command) from the Debian package grub-common');
    expect(result.stderr).toContain('npm run iso:deps');
    expect(result.stderr).toMatch(/apt-get install .*mmdebstrap/);
    expect(existsSync(outDir)).toBe(false);
    expect(readdirSync(cache)).toEqual([]);
  });
});
