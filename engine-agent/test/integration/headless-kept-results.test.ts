import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEnv } from '../../src/agent.js';
import { resultOutbox } from '../../src/adapters/result-outbox.js';
import { parseBootOptions } from '../../src/image/boot-options.js';
import { runHeadless, settleKeptResults } from '../../src/image/headless.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

const JOB = '6f1c2b1e-0000-4000-8000-000000000021-1';
let dir = '';
let closeGateway: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeGateway?.();
  closeGateway = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** An agent whose sleeps are counted, not waited: each retry of the gateway is one sleep. */
function agentEnv(gatewayUrl: string, sleeps: number[] = []): AgentEnv {
  dir = dir || mkdtempSync(join(tmpdir(), 'headless-kept-'));
  return outboxAgentEnv(dir, gatewayUrl, async (ms) => void sleeps.push(ms));
}

const keep = (env: AgentEnv) => resultOutbox(env.config.DATA_DIR).keep(JOB, { job_id: JOB, drive_serial: 'S1', wipe_status: 'completed' });

describe('headless: wipe results kept across a power cut', () => {
  it('sends the results an earlier run kept before anything else of the new run', async () => {
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    const env = agentEnv(gateway.url);
    await keep(env);
    const lines: string[] = [];
    await runHeadless(env, parseBootOptions('erasure.mode=headless erasure.devices=all'), (l) => lines.push(l));
    const paths = gateway.calls.map((c) => c.path);
    expect(paths[0]).toBe('/api/wipe_result');
    expect(paths).toContain('/api/record');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^kept result ${JOB}: delivered, wipe result \\S+`)));
    expect(lines).toContain('kept wipe results from an earlier run: 1 delivered, 0 refused, 0 still waiting');
    expect(await resultOutbox(env.config.DATA_DIR).pending()).toEqual([]);
  });

  it('says nothing of kept results when none are waiting', async () => {
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    const lines: string[] = [];
    await runHeadless(agentEnv(gateway.url), parseBootOptions('erasure.mode=headless'), (l) => lines.push(l));
    expect(lines.filter((l) => /^kept |not delivered yet/.test(l))).toEqual([]);
  });

  it('powers off with results kept on the ERASURE-DATA volume: the next boot sends them', async () => {
    const sleeps: number[] = [];
    const env = agentEnv('http://127.0.0.1:9', sleeps);
    await keep(env);
    const lines: string[] = [];
    await settleKeptResults(env, { persistent: true, after: 'poweroff' }, (l) => lines.push(l));
    expect(lines).toEqual(['1 wipe result(s) not delivered yet, kept on the ERASURE-DATA volume: they are sent at the next boot with the gateway reachable']);
    expect(sleeps).toEqual([]);
    expect(await resultOutbox(env.config.DATA_DIR).pending()).toHaveLength(1);
  });

  it('stays on while results held only in memory wait, and powers off once the gateway took them', async () => {
    // The gateway refuses the first two offers (503), takes the third.
    const gateway = await startFakeGateway({ wipeResultFailures: 2 });
    closeGateway = gateway.close;
    const sleeps: number[] = [];
    const env = agentEnv(gateway.url, sleeps);
    await keep(env);
    const lines: string[] = [];
    await settleKeptResults(env, { persistent: false, after: 'poweroff', retryMs: 30_000 }, (l) => lines.push(l));
    expect(lines[0]).toBe('1 wipe result(s) not delivered yet and held in memory only (no ERASURE-DATA volume): the machine stays on and tries again every 30 s; powering it off now would lose them');
    expect(lines.at(-1)).toBe('every wipe result is delivered');
    expect(sleeps).toEqual([30_000, 30_000, 30_000]);
    expect(await resultOutbox(env.config.DATA_DIR).pending()).toEqual([]);
  });

  it('with erasure.after=wait keeps trying even when the results are safe on the volume', async () => {
    const gateway = await startFakeGateway({ wipeResultFailures: 1 });
    closeGateway = gateway.close;
    const sleeps: number[] = [];
    const env = agentEnv(gateway.url, sleeps);
    await keep(env);
    const lines: string[] = [];
    await settleKeptResults(env, { persistent: true, after: 'wait', retryMs: 1000 }, (l) => lines.push(l));
    expect(lines[0]).toMatch(/kept on the ERASURE-DATA volume: they are sent at the next boot with the gateway reachable, or as soon as it answers$/);
    expect(lines.at(-1)).toBe('every wipe result is delivered');
    expect(sleeps).toEqual([1000, 1000]);
  });
});
