import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDir } from '../support/fixtures.js';
import { loopSkipReason, makeWorkDir } from '../support/loop.js';
import { agentRunStack } from '../support/run-stack.js';
import { throttleSkipReason, writeThrottle } from '../support/throttle.js';

const MiB = 1024 * 1024;
const skip = loopSkipReason ?? throttleSkipReason;

interface Row {
  readonly id: number;
  readonly job_id: string;
  readonly wipe_status: string;
  readonly validation: string;
  readonly started_at: string;
  readonly completed_at: string;
  readonly created_at: string;
}

/**
 * `erasure-agent run` with several drives, against a real cloud and gateway: the drives are
 * erased at once, and each wipe result reaches the cloud when its own drive is done. One drive
 * is made slow by the kernel's blkio write throttle; the cloud's row order shows what arrived first.
 */
describe.skipIf(Boolean(skip))('erasure-agent run: every selected drive at once', () => {
  const stack = agentRunStack(skip ? '' : makeWorkDir('agent-parallel-'), 'Parallel Refurb');
  const throttle = skip ? undefined : writeThrottle('erasure-parallel-test');

  beforeAll(() => stack.start(), 180_000);
  afterAll(async () => {
    await stack.stop();
    throttle?.cleanup();
  });

  const rows = () => stack.cloudRows<Row>('SELECT id, job_id, wipe_status, validation, started_at, completed_at, created_at FROM wipe_results ORDER BY id');

  /** Starts the agent in the throttled group; resolves with its exit code and output. */
  const agent = (devices: string[], extra: string[] = []) => {
    const [file, args] = (throttle as NonNullable<typeof throttle>).command(process.execPath, [join(workspaceDir, 'bin/erasure-agent.js'), 'run', '--json', '--yes', ...extra, ...devices.flatMap((d) => ['--device', d])]);
    const child = spawn(file, args, { env: stack.agentEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (status) => resolve({ status, stdout, stderr })));
  };
  const disk = (name: string, bytes: number, slowTo?: number) => {
    const content = randomBytes(bytes);
    const l = stack.disk(name, content);
    if (slowTo !== undefined) throttle?.limit(l.device, slowTo);
    return { ...l, bytes: content.length };
  };
  const zero = (d: { file: string; bytes: number }) => readFileSync(d.file).equals(Buffer.alloc(d.bytes));
  const until = async (check: () => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('erases four drives at once and each wipe result reaches the cloud as its drive finishes, before the slowest', async () => {
    const fast = [disk('a.img', 4 * MiB), disk('b.img', 4 * MiB), disk('c.img', 4 * MiB)];
    const slow = disk('slow.img', 8 * MiB, 1 * MiB);
    const sut = await agent([slow.device, ...fast.map((d) => d.device)]);
    expect(sut.status, sut.stderr).toBe(0);
    const got = rows();
    expect(got).toHaveLength(4);
    const base = got[0]?.job_id.replace(/-\d+$/, '');
    // The slow drive is selected first (-0) yet its result arrives last: the others did not wait for it.
    expect(got.at(-1)?.job_id).toBe(`${base}-0`);
    const slowRow = got.at(-1) as Row;
    for (const r of got.slice(0, 3)) {
      expect(r).toMatchObject({ wipe_status: 'completed', validation: 'approved' });
      // Erased side by side: each fast drive finished after the slow one started …
      expect(r.completed_at > slowRow.started_at).toBe(true);
      // … and its result was in the cloud before the slow drive finished.
      expect(r.created_at < slowRow.completed_at).toBe(true);
    }
    expect(slowRow).toMatchObject({ wipe_status: 'completed', validation: 'approved' });
    expect([slow, ...fast].every(zero)).toBe(true);
  }, 120_000);

  it('a drive pulled during its erase is reported failed and does not stop the others', async () => {
    const before = rows().length;
    const quick = disk('quick.img', 4 * MiB);
    const pulled = disk('pulled.img', 8 * MiB, 1 * MiB);
    const steady = disk('steady.img', 16 * MiB, 1 * MiB);
    const run = agent([pulled.device, steady.device, quick.device]);
    // The quick drive's result in the cloud: the erase is under way on the other two.
    await until(() => rows().length > before, 60_000);
    // Pulled: the medium goes away under the open device (capacity 0, every further I/O fails).
    truncateSync(pulled.file, 0);
    execFileSync('losetup', ['--set-capacity', pulled.device]);
    const sut = await run;
    expect(sut.status, `${sut.stdout}\n${sut.stderr}`).toBe(3);
    const out = JSON.parse(sut.stdout) as { phase: string; drives: Array<{ device: string; erased: boolean; delivered: boolean; job_id: string }> };
    expect(out.phase).toBe('done');
    expect(out.drives.map((d) => [d.device, d.erased, d.delivered])).toEqual([
      [pulled.device, false, true],
      [steady.device, true, true],
      [quick.device, true, true],
    ]);
    const mine = rows().slice(before);
    const byJob = new Map(mine.map((r) => [r.job_id, r]));
    expect(byJob.get(out.drives[0]?.job_id ?? '')).toMatchObject({ wipe_status: 'failed', validation: 'rejected' });
    expect(byJob.get(out.drives[1]?.job_id ?? '')).toMatchObject({ wipe_status: 'completed', validation: 'approved' });
    expect(zero(steady) && zero(quick)).toBe(true);
  }, 120_000);
});
