import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/**
 * Every binary answers `--help` and `help <command>` without side effects (no server started, no
 * database created), and an unknown command exits 2 with usage on stderr.
 */
const bin = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const BINARIES = [
  { name: 'erasure-cloud', path: bin('cloud/bin/erasure-cloud.js'), command: 'serve' },
  { name: 'erasure-gateway', path: bin('gateway/bin/erasure-gateway.js'), command: 'serve' },
  { name: 'erasure-agent', path: bin('engine-agent/bin/erasure-agent.js'), command: 'run' },
  { name: 'erasure-iso', path: bin('iso-build/bin/erasure-iso.js'), command: 'build' },
  { name: 'erasure-kiosk', path: bin('kiosk/bin/erasure-kiosk.js'), command: undefined },
];

async function runIn(dataDir: string, path: string, args: string[]) {
  // A short timeout: a binary that started a server instead of answering would hang here.
  return execa(process.execPath, [path, ...args], { cwd: dataDir, env: { DATA_DIR: join(dataDir, 'data'), PORT: '0' }, reject: false, timeout: 20_000 });
}

describe.each(BINARIES)('$name', ({ name, path, command }) => {
  it('--help prints usage on stdout, exits 0 and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-help-'));
    const result = await runIn(dir, path, ['--help']);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`usage: ${name}`);
    expect(existsSync(join(dir, 'data'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(command === undefined)('help <command> describes that command', async () => {
    const result = await runIn(mkdtempSync(join(tmpdir(), 'cli-help-')), path, ['help', command!]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`usage: ${name} ${command}`);
  });

  it('an unknown command exits 2 with usage on stderr', async () => {
    const result = await runIn(mkdtempSync(join(tmpdir(), 'cli-help-')), path, ['no-such-command']);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown command no-such-command');
    expect(result.stderr).toContain(`usage: ${name}`);
  });
});
