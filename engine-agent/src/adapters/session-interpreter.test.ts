import { describe, expect, it } from 'vitest';
import type { EraseOutcome } from '../erase/erase-drive.js';
import { checkinStart } from '../session/machine.js';
import { DEFAULT_LIMITS, type DriveJob, type Executors, type SessionContext } from '../session/types.js';
import { runSession, SessionInbox } from './session-interpreter.js';

const drive = (device: string): DriveJob => ({ device, method: 'overwrite', preconditions: [], label: 'NIST 800-88 R2 Clear', technique: 'Overwrite' });
const ctx: SessionContext = { product: 'engine', drives: [drive('/dev/slow'), drive('/dev/fast')], recordId: 'CW-20260101-000000', engineVersion: '0.1.0', toolComponents: 'erasure-agent 0.1.0', limits: DEFAULT_LIMITS };
const outcome = (device: string, failureCode?: string): EraseOutcome => ({ device, method: 'overwrite', ok: !failureCode, refused: false, ...(failureCode ? { failureCode } : {}), startedAt: 'a', completedAt: 'b', passes: 1, verification: 'v', commands: [] });

/** A promise the test settles by hand: the drive's erase ends when the test says so. */
function gate<T>() {
  let open: (v: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * Executors that record what ran, in order. The erase of each drive waits on a gate the test
 * opens, so the order of events is the test's, not the machine's speed.
 */
function recorder(gates: Record<string, ReturnType<typeof gate<EraseOutcome>>>) {
  const log: string[] = [];
  const executors: Executors = {
    checkHealth: async () => ({ type: 'health', ok: true }),
    callVerify: async () => ({ type: 'verify', allow: true, account: 'A' }),
    sendRecord: async () => ({ type: 'record', ok: true, assetId: 'asset' }),
    callCheckin: async () => ({ type: 'checkin', allow: true, jobId: 'job' }),
    erase: async (e) => {
      log.push(`erase ${e.drive.device}`);
      const o = await (gates[e.drive.device] as ReturnType<typeof gate<EraseOutcome>>).promise;
      log.push(`erased ${e.drive.device}`);
      return { type: 'erased', index: e.index, outcome: o };
    },
    stopErase: async (e) => {
      log.push(`stop ${ctx.drives[e.index]?.device}`);
      gates[ctx.drives[e.index]?.device ?? '']?.open(outcome(ctx.drives[e.index]?.device ?? '', 'cancelled'));
      return { type: 'stopping', index: e.index };
    },
    sendWipeResult: async (e) => {
      log.push(`result ${e.body.job_id} ${e.body.wipe_status}`);
      return { type: 'reported', index: e.index, ok: true, wipeResultId: `wr-${e.index}`, certificateStatus: 'pending' };
    },
  };
  return { log, executors };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('session interpreter', () => {
  it('runs every drive at once and sends a finished drive\'s result while a slower one still erases', async () => {
    const gates = { '/dev/slow': gate<EraseOutcome>(), '/dev/fast': gate<EraseOutcome>() };
    const { log, executors } = recorder(gates);
    const run = runSession(ctx, executors, {}, checkinStart('A'));
    await tick();
    gates['/dev/fast'].open(outcome('/dev/fast'));
    await tick();
    // The slow drive's erase is still open here: the fast drive's result went out regardless.
    expect(log).toEqual(['erase /dev/slow', 'erase /dev/fast', 'erased /dev/fast', 'result job-1 completed']);
    gates['/dev/slow'].open(outcome('/dev/slow'));
    const end = await run;
    expect(log.slice(4)).toEqual(['erased /dev/slow', 'result job-0 completed']);
    expect(end).toMatchObject({ phase: 'done', reports: [{ jobId: 'job-0' }, { jobId: 'job-1' }] });
  });

  it('stops only the drive the operator cancelled, through the inbox', async () => {
    const gates = { '/dev/slow': gate<EraseOutcome>(), '/dev/fast': gate<EraseOutcome>() };
    const { log, executors } = recorder(gates);
    const inbox = new SessionInbox();
    const run = runSession(ctx, executors, {}, checkinStart('A'), inbox);
    await tick();
    inbox.send({ type: 'cancel', index: 1, reason: 'cancelled by the operator', at: '2026-01-01T00:00:00.000Z' });
    await tick();
    expect(log).toEqual(['erase /dev/slow', 'erase /dev/fast', 'stop /dev/fast', 'erased /dev/fast', 'result job-1 cancelled']);
    gates['/dev/slow'].open(outcome('/dev/slow'));
    expect(await run).toMatchObject({ phase: 'done', reports: [{ outcome: { ok: true } }, { outcome: { failureCode: 'cancelled' } }] });
  });
});
