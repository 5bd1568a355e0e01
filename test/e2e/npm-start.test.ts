import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productOfToken } from '../../engine-agent/src/station/token-product.js';

const SCRIPT = new URL('../../scripts/start-stack.js', import.meta.url).pathname;
const AGENT_BIN = new URL('../../engine-agent/bin/erasure-agent.js', import.meta.url).pathname;

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
    // The stack's own children may still be closing their files a moment after it exited.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('brings up cloud and gateway, prints their URLs and a device token that verifies', async () => {
    // Waits on the stack's own line; the bound is only there so a stack that never comes up fails (a loaded machine took 65 s).
    const deadline = Date.now() + 170_000;
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
  }, 180_000);
});

/**
 * `npm start -- --station` (issue 28 item 7): the stack mints the station a hotswap token, so a
 * drive seated in a simulated bay is checked in, erased and certified through the real cloud,
 * instead of "certificate pending" forever on an engine token's unsuffixed job ids.
 */
describe('npm start -- --station', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'erasure-start-station-'));
  let child: ChildProcessWithoutNullStreams;
  let output = '';
  // Started once the plain stack above is stopped: two stacks at once would share the machine's cores.
  beforeAll(() => {
    child = spawn(process.execPath, [SCRIPT, '--station'], {
      env: { ...process.env, DATA_DIR: dataDir, CLOUD_PORT: '0', GATEWAY_PORT: '0', SANDBOX_PORT: '0', AGENT_PORT: '0', KIOSK_OPEN: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }) as ChildProcessWithoutNullStreams;
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    // The stack's own children may still be closing their files a moment after it exited.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  type Station = { phase: string; reason?: string; wizard?: { proposal?: { lane: string } }; bays: { lane: string; state: string; certificate_number?: string }[] };
  const poll = async <T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${what} did not happen:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('runs the station on a hotswap token, and a drive seated in a bay gets its certificate', async () => {
    await poll(async () => (output.includes('Erasure stack is up') ? true : undefined), 'the stack coming up');
    const agent = /kiosk\s+(http:\/\/\S+)/.exec(output)![1]!;
    const tokenFile = join(dataDir, 'station-device-token');
    expect(output).toContain(`device token file  ${tokenFile} (product hotswap)`);
    expect(productOfToken(readFileSync(tokenFile, 'utf8'))).toBe('hotswap');

    const station = async () => ((await (await fetch(`${agent}/api/state`)).json()) as { station: Station }).station;
    const intent = async (body: unknown) => {
      const res = await fetch(`${agent}/api/intents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    await poll(async () => ((await station()).phase === 'wizard' ? true : undefined), 'the mapping wizard opening');
    const sim = spawnSync(process.execPath, [AGENT_BIN, 'sim', 'insert', '1', '--size', '1M'], { env: { ...process.env, DATA_DIR: join(dataDir, 'station') }, encoding: 'utf8' });
    expect(sim.stdout, sim.stderr).toMatch(/^bay 1: /);
    const lane = await poll(async () => (await station()).wizard?.proposal?.lane, 'the wizard seeing the drive');
    await intent({ type: 'station_wizard', step: { action: 'accept' } });
    await intent({ type: 'station_wizard', step: { action: 'finish' } });
    await intent({ type: 'station_wizard', step: { action: 'name', name: 'Simulated backplane' } });
    await intent({ type: 'station_wizard', step: { action: 'save' } });
    await poll(async () => ((await station()).bays.find((b) => b.lane === lane)?.state === 'awaiting_confirmation' ? true : undefined), 'the bay waiting for confirmation');
    await intent({ type: 'bay_confirm', lane });
    const certified = await poll(async () => (await station()).bays.find((b) => b.lane === lane && b.state === 'passed' && b.certificate_number), 'the certificate');
    expect(certified.certificate_number).toMatch(/^CW-\d{6}$/);
  }, 180_000);
});
