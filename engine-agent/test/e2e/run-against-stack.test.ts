import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, makeWorkDir } from '../support/loop.js';
import { agentRunStack } from '../support/run-stack.js';
import { cloudCli } from '../support/stack.js';

const MiB = 1024 * 1024;

describe.skipIf(Boolean(loopSkipReason))('erasure-agent run against a real cloud and gateway', () => {
  const stack = agentRunStack(loopSkipReason ? '' : makeWorkDir('agent-e2e-'), 'E2E Refurb');

  beforeAll(() => stack.start(), 180_000);
  afterAll(() => stack.stop());

  const agent = (gatewayUrl: string, devices: string[]) =>
    spawnSync(process.execPath, [join(workspaceDir, 'bin/erasure-agent.js'), 'run', '--json', '--yes', ...devices.flatMap((d) => ['--device', d])], {
      env: stack.agentEnv(gatewayUrl),
      encoding: 'utf8',
      timeout: 60_000,
    });
  const disk = (name: string) => {
    const bytes = randomBytes(4 * MiB);
    return { ...stack.disk(name, bytes), bytes };
  };

  it('erases two loop devices and reports one wipe result each with -0/-1 job ids', () => {
    const a = disk('a.img');
    const b = disk('b.img');
    const sut = agent(stack.gatewayUrl, [a.device, b.device]);
    expect(sut.status, sut.stderr).toBe(0);
    const out = JSON.parse(sut.stdout) as { phase: string; drives: Array<{ job_id: string; erased: boolean; delivered: boolean }> };
    expect(out.phase).toBe('done');
    const [first, second] = out.drives;
    const base = first?.job_id.replace(/-0$/, '');
    expect([first?.job_id, second?.job_id]).toEqual([`${base}-0`, `${base}-1`]);
    expect(readFileSync(a.file).equals(Buffer.alloc(4 * MiB))).toBe(true);
    expect(readFileSync(b.file).equals(Buffer.alloc(4 * MiB))).toBe(true);
    const rows = stack.cloudRows('SELECT job_id, wipe_status, validation, verification_hash, drive_capacity_gb FROM wipe_results ORDER BY job_id');
    expect(rows.map((r) => [r.job_id, r.wipe_status, r.validation])).toEqual([
      [`${base}-0`, 'completed', 'approved'],
      [`${base}-1`, 'completed', 'approved'],
    ]);
    expect(String(rows[0]?.verification_hash)).toMatch(/^[0-9a-f]{64}$/);
    // Issue 30 item 6: each drive's health grade rides with its result through the gateway into the cloud.
    for (const h of stack.cloudRows('SELECT health_grade, health_json FROM wipe_results ORDER BY job_id')) {
      expect(['A', 'B', 'C', 'F']).toContain(h.health_grade);
      const health = JSON.parse(String(h.health_json)) as { grade: string; profile_mbps?: unknown[]; io_errors?: number };
      expect(health.grade).toBe(h.health_grade);
      expect(health.profile_mbps?.length).toBeGreaterThan(0);
      expect(health.io_errors).toBe(0);
    }
  });

  it('erases nothing when the gateway cannot be reached (exit 2)', () => {
    const c = disk('c.img');
    const sut = agent('http://127.0.0.1:9', [c.device]);
    expect(sut.status, sut.stderr).toBe(2);
    expect(JSON.parse(sut.stdout)).toMatchObject({ phase: 'denied', at: 'health' });
    expect(readFileSync(c.file).equals(c.bytes)).toBe(true);
  }, 30_000);

  it('erases nothing with a revoked token (exit 2)', () => {
    cloudCli(stack.cloudEnv, ['admin', 'set-token-status', '--jti', stack.jti, '--status', 'revoked']);
    const d = disk('d.img');
    const sut = agent(stack.gatewayUrl, [d.device]);
    expect(sut.status, sut.stderr).toBe(2);
    expect(JSON.parse(sut.stdout)).toMatchObject({ phase: 'denied', at: 'verify', reason: 'revoked' });
    expect(readFileSync(d.file).equals(d.bytes)).toBe(true);
  });
});

