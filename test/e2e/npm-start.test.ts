import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/start-stack.js', import.meta.url).pathname;

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'erasure-start-'));
  const child = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, DATA_DIR: dataDir, CLOUD_PORT: '0', GATEWAY_PORT: '0', SANDBOX_PORT: '0', AGENT_PORT: '0', KIOSK_OPEN: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));

  afterAll(async () => {
    if (child.exitCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings up cloud and gateway, prints their URLs and a device token that verifies', async () => {
    const deadline = Date.now() + 45_000;
    while (!output.includes('Erasure stack is up') && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output, output).toContain('Erasure stack is up');
    const gateway = /gateway\s+(http:\/\/\S+)/.exec(output)?.[1];
    expect(gateway).toBeDefined();
    const token = readFileSync(join(dataDir, 'device-token'), 'utf8').trim();
    expect(output).toContain(token);
    const res = await fetch(`${gateway}/api/verify`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(await res.json()).toEqual({ allow: true, account: 'Demo Refurbishing', quota_remaining: 1000 });
  }, 60_000);
});
