import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverKeptResults, runErase, type AgentEnv } from '../../src/agent.js';
import { resultOutbox } from '../../src/adapters/result-outbox.js';
import { keepDeliveringResults } from '../../src/api/serve.js';
import { simulatedDrives } from '../../src/simulate/profile.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

let dir = '';
let closeGateway: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeGateway?.();
  closeGateway = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const agentEnv = (gatewayUrl: string): AgentEnv => outboxAgentEnv(dir, gatewayUrl);

describe('wipe results kept on disk until the cloud took them', () => {
  it('keeps a result the gateway could not take, and delivers it on the next round', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const gateway = await startFakeGateway({ wipeResultFailures: 3 });
    closeGateway = gateway.close;
    const env = agentEnv(gateway.url);
    const drives = simulatedDrives(env.config.DATA_DIR).slice(0, 1);
    const session = await runErase(env, drives);
    expect(session.phase === 'done' && session.reports[0]?.delivered).toBe(false);
    const kept = await resultOutbox(env.config.DATA_DIR).pending();
    expect(kept.map((k) => k.jobId)).toEqual([String(kept[0]?.body.job_id)]);

    // The gateway is back (the fake answers 201 from the 4th wipe result on): the round delivers it.
    expect(await deliverKeptResults(env)).toEqual({ delivered: 1, refused: 0, kept: 0 });
    expect(readdirSync(join(env.config.DATA_DIR, 'outbox'))).toEqual([]);
    const sent = gateway.calls.filter((c) => c.path === '/api/wipe_result');
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((c) => c.body.job_id)).size).toBe(1);
  });

  it('leaves nothing behind once the cloud took the result the first time', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    const env = agentEnv(gateway.url);
    await runErase(env, simulatedDrives(env.config.DATA_DIR).slice(0, 1));
    expect(await resultOutbox(env.config.DATA_DIR).pending()).toEqual([]);
  });

  it('survives a restart: a result kept by one process is delivered by the next', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const outbox = resultOutbox(join(dir, 'agent'));
    await outbox.keep('6f1c2b1e-0000-4000-8000-000000000009', { job_id: '6f1c2b1e-0000-4000-8000-000000000009', drive_serial: 'S1', wipe_status: 'completed' });
    expect(existsSync(join(dir, 'agent', 'outbox', '6f1c2b1e-0000-4000-8000-000000000009.json'))).toBe(true);
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    expect(await deliverKeptResults(agentEnv(gateway.url))).toMatchObject({ delivered: 1, kept: 0 });
  });

  it('keeps results while the gateway stays unreachable', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    await resultOutbox(join(dir, 'agent')).keep('job-1', { job_id: 'job-1' });
    expect(await deliverKeptResults(agentEnv('http://127.0.0.1:9'))).toEqual({ delivered: 0, refused: 0, kept: 1 });
    expect(await resultOutbox(join(dir, 'agent')).pending()).toHaveLength(1);
  });

  it('serve offers kept results again every interval until the gateway takes them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    await resultOutbox(join(dir, 'agent')).keep('6f1c2b1e-0000-4000-8000-000000000010', { job_id: '6f1c2b1e-0000-4000-8000-000000000010', wipe_status: 'completed' });
    const gateway = await startFakeGateway({ wipeResultFailures: 2 });
    closeGateway = gateway.close;
    const loop = keepDeliveringResults(agentEnv(gateway.url), { intervalMs: 20 });
    try {
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (await resultOutbox(join(dir, 'agent')).pending()).length > 0) await new Promise((r) => setTimeout(r, 20));
      expect(await resultOutbox(join(dir, 'agent')).pending()).toEqual([]);
      expect(gateway.calls.filter((c) => c.path === '/api/wipe_result')).toHaveLength(3);
    } finally {
      loop.stop();
    }
  });

  it('serve keeps offering for its whole life: a result kept after rounds found the outbox empty is still delivered', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    const loop = keepDeliveringResults(agentEnv(gateway.url), { intervalMs: 20 });
    try {
      // Several rounds over an empty outbox: they call nobody.
      await new Promise((r) => setTimeout(r, 150));
      expect(gateway.calls).toEqual([]);
      await resultOutbox(join(dir, 'agent')).keep('6f1c2b1e-0000-4000-8000-000000000011', { job_id: '6f1c2b1e-0000-4000-8000-000000000011', wipe_status: 'completed' });
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (await resultOutbox(join(dir, 'agent')).pending()).length > 0) await new Promise((r) => setTimeout(r, 20));
      expect(await resultOutbox(join(dir, 'agent')).pending()).toEqual([]);
      expect(gateway.calls.map((c) => [c.path, c.body.job_id])).toEqual([['/api/wipe_result', '6f1c2b1e-0000-4000-8000-000000000011']]);
    } finally {
      loop.stop();
    }
  });

  it('a session that could not deliver its result has it offered again soon, not at the next minute', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    // The session's own three attempts fail; the gateway is back for the fourth.
    const gateway = await startFakeGateway({ wipeResultFailures: 3 });
    closeGateway = gateway.close;
    const base = agentEnv(gateway.url);
    const loop = keepDeliveringResults(base, { intervalMs: 60_000, afterKeptMs: 50 });
    try {
      const env: AgentEnv = { ...base, onResultKept: () => loop.resultKept() };
      const session = await runErase(env, simulatedDrives(env.config.DATA_DIR).slice(0, 1));
      expect(session.phase === 'done' && session.reports[0]?.delivered).toBe(false);
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (await resultOutbox(env.config.DATA_DIR).pending()).length > 0) await new Promise((r) => setTimeout(r, 20));
      expect(await resultOutbox(env.config.DATA_DIR).pending()).toEqual([]);
      expect(gateway.calls.filter((c) => c.path === '/api/wipe_result')).toHaveLength(4);
    } finally {
      loop.stop();
    }
  });

  it('refuses to name a file after a job id that is not one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    await expect(resultOutbox(dir).keep('../../etc/passwd', {})).rejects.toThrow(/unsafe job id/);
  });
});
