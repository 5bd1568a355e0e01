import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = new URL('../../bin/erasure-agent.js', import.meta.url).pathname;

describe('erasure-agent run: mistakes in the call erase nothing and exit 1', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-args-'));
  // A gateway nobody listens on: the run must stop before it would ever call it.
  const env = { ...process.env, ERASURE_SIMULATE: '1', DATA_DIR: dataDir, ERASURE_GATEWAY_URL: 'http://127.0.0.1:9' };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    ['no --device at all', ['run', '--json', '--yes'], /--device/],
    ['a device that is not a drive of this machine', ['run', '--json', '--yes', '--device', '/dev/not-a-drive'], /not a drive of this machine/],
    ['an unknown --method', ['run', '--json', '--yes', '--device', '/dev/x', '--method', 'shred-harder'], /unknown --method/],
    ['a --parallel that is not a number of drives', ['run', '--json', '--yes', '--device', '/dev/x', '--parallel', '0'], /--parallel takes a whole number/],
  ])('%s', async (_name, args, message) => {
    const failure = await run(process.execPath, [BIN, ...args], { env }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect('code' in failure && failure.code).toBe(1);
    expect((failure as { stderr: string }).stderr).toMatch(message);
  });
});
