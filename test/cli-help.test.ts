import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
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
const CLOUD = bin('cloud/bin/erasure-cloud.js');
const BINARIES = [
  { name: 'erasure-cloud', path: CLOUD, command: 'serve' },
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

// Issue 28 item 17: the four command-line binaries agree on what no command means.
describe.each(BINARIES.filter((b) => b.name !== 'erasure-kiosk'))('$name with no command', ({ name, path }) => {
  it('prints usage on stderr and exits 2, starting no server and creating no ./data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-bare-'));
    // No DATA_DIR: the default (./data under the working directory) is what a bare run used to create.
    const result = await execa(process.execPath, [path], { cwd: dir, env: { PATH: process.env.PATH ?? '', PORT: '0' }, extendEnv: false, reject: false, timeout: 20_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${name}: no command given`);
    expect(result.stderr).toContain(`usage: ${name} <command>`);
    expect(result.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});

describe('erasure-cloud verify-pdf: what a wrong call says (issue 28 item 17)', () => {
  // One process per test: each waits on one process start, however loaded the machine.
  it.each(['not-a-key', 'AAAA'])('a bad --public-key (%s) names the certificate public key, not the device token key, and exits 2', async (key) => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-verify-'));
    const result = await runIn(dir, CLOUD, ['verify-pdf', 'certificate.pdf', '--public-key', key]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--public-key must be the certificate public key, base64 of 32 raw bytes');
    expect(result.stderr).toContain('erasure-cloud certificate-public-key --all');
    expect(result.stderr).not.toMatch(/device token/i);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it("a --public-key without a value is refused, not read as 'use the database'", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-verify-'));
    const result = await runIn(dir, CLOUD, ['verify-pdf', 'certificate.pdf', '--public-key']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--public-key needs a value');
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it("with DATA_DIR at the `npm start` folder, says the cloud's database is under cloud/ and creates none", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-verify-'));
    const stackData = join(dir, 'data');
    mkdirSync(join(stackData, 'cloud'), { recursive: true });
    writeFileSync(join(stackData, 'cloud', 'cloud.sqlite'), '');
    const result = await runIn(dir, CLOUD, ['verify-pdf', 'certificate.pdf']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`no cloud database at ${join(stackData, 'cloud.sqlite')}`);
    expect(result.stderr).toContain(`the cloud's database is ${join(stackData, 'cloud', 'cloud.sqlite')}`);
    expect(result.stderr).toContain(`DATA_DIR=${join(stackData, 'cloud')}`);
    expect(readdirSync(stackData)).toEqual(['cloud']);
  }, 60_000);
});
