import { describe, expect, it } from 'vitest';
import type { EraseOutcome } from '../erase/erase-drive.js';
import { initialSession, jobIdFor, step } from './machine.js';
import { DEFAULT_LIMITS, type Session, type SessionContext, type SessionEvent } from './types.js';
import { wipeResultBody } from './wipe-result.js';

const drive = (device: string) => ({ device, method: 'overwrite' as const, preconditions: [], label: 'NIST 800-88 R2 Clear', technique: 'Overwrite', model: 'M', serial: `S-${device}`, sizeBytes: 2e9 });
const ctx: SessionContext = { product: 'engine', drives: [drive('/dev/a'), drive('/dev/b')], recordId: 'CW-20260101-000000', engineVersion: '0.1.0', toolComponents: 'erasure-agent 0.1.0', limits: DEFAULT_LIMITS };
const outcome = (device: string, ok = true): EraseOutcome => ({ device, method: 'overwrite', ok, refused: false, startedAt: '2026-01-01T00:00:00.000Z', completedAt: '2026-01-01T00:01:00.000Z', passes: 1, verificationHash: 'ab'.repeat(32), verification: 'ok', commands: [] });

/** Feeds events in order and returns the final state and every effect kind emitted. */
function drive_(events: SessionEvent[], c: SessionContext = ctx, from: Session = initialSession) {
  let s = from;
  const kinds: string[] = [];
  for (const ev of [{ type: 'start' } as SessionEvent, ...events]) {
    const t = step(c, s, ev);
    s = t.next;
    kinds.push(...t.effects.map((e) => e.kind));
  }
  return { s, kinds };
}

const healthy: SessionEvent[] = [{ type: 'health', ok: true }, { type: 'verify', allow: true, account: 'Acme' }, { type: 'record', ok: true, assetId: 'asset_1' }];

describe('device session step()', () => {
  it.each<[string, SessionEvent[], Partial<Session>, string[]]>([
    ['verify allow:false -> denied, nothing erased', [{ type: 'health', ok: true }, { type: 'verify', allow: false, reason: 'revoked' }], { phase: 'denied', at: 'verify', reason: 'revoked' }, ['checkHealth', 'callVerify']],
    ['health fails 3 times -> denied at health', [{ type: 'health', ok: false }, { type: 'health', ok: false }, { type: 'health', ok: false, detail: 'ECONNREFUSED' }], { phase: 'denied', at: 'health' }, ['checkHealth', 'checkHealth', 'checkHealth']],
    ['checkin denied -> denied, no erase effect', [...healthy, { type: 'checkin', allow: false, reason: 'quota_exceeded' }], { phase: 'denied', at: 'checkin', reason: 'quota_exceeded' }, ['checkHealth', 'callVerify', 'sendRecord', 'callCheckin']],
    ['checkin transport failure -> denied (fail closed)', [...healthy, { type: 'checkin', allow: false, reason: 'gateway unreachable: fetch failed' }], { phase: 'denied', at: 'checkin' }, ['checkHealth', 'callVerify', 'sendRecord', 'callCheckin']],
  ])('%s', (_name, events, expected, kinds) => {
    const sut = drive_(events);
    expect(sut.s).toMatchObject(expected);
    expect(sut.kinds).toEqual(kinds);
  });

  it('health retries wait 4 s between attempts', () => {
    const t = step(ctx, { phase: 'health', attempt: 1 }, { type: 'health', ok: false });
    expect(t.effects).toEqual([{ kind: 'checkHealth', attempt: 2, delayMs: 4000 }]);
  });

  it('a failed asset report is retried 3 times and then does not block the wipe', () => {
    const sut = drive_([{ type: 'health', ok: true }, { type: 'verify', allow: true, account: 'A' }, { type: 'record', ok: false, detail: 'x' }, { type: 'record', ok: false, detail: 'x' }, { type: 'record', ok: false, detail: 'x' }]);
    expect(sut.kinds.filter((k) => k === 'sendRecord')).toHaveLength(3);
    expect(sut.s.phase).toBe('checkin');
  });

  it('engine: one check-in, each drive erased, one wipe result per drive with -0, -1 job ids', () => {
    let s: Session = initialSession;
    const bodies: string[] = [];
    const events: SessionEvent[] = [{ type: 'start' }, ...healthy, { type: 'checkin', allow: true, jobId: 'job' }, { type: 'erased', outcome: outcome('/dev/a') }, { type: 'erased', outcome: outcome('/dev/b', false) }, { type: 'reported', ok: true, wipeResultId: 'wr_1', certificateStatus: 'pending' }, { type: 'reported', ok: true, wipeResultId: 'wr_2', certificateStatus: null }];
    const kinds: string[] = [];
    for (const ev of events) {
      const t = step(ctx, s, ev);
      s = t.next;
      for (const e of t.effects) {
        kinds.push(e.kind);
        if (e.kind === 'sendWipeResult') bodies.push(`${e.body.job_id}:${e.body.wipe_status}:${e.body.validation}`);
      }
    }
    expect(kinds).toEqual(['checkHealth', 'callVerify', 'sendRecord', 'callCheckin', 'erase', 'erase', 'sendWipeResult', 'sendWipeResult']);
    expect(bodies).toEqual(['job-0:completed:approved', 'job-1:failed:rejected']);
    expect(s).toMatchObject({ phase: 'done', reports: [{ delivered: true, jobId: 'job-0' }, { delivered: true, jobId: 'job-1' }] });
  });

  it('hotswap checks in once per drive and reports unsuffixed job ids', () => {
    const hot = { ...ctx, product: 'hotswap' as const };
    const sut = drive_([...healthy, { type: 'checkin', allow: true, jobId: 'j1' }, { type: 'erased', outcome: outcome('/dev/a') }, { type: 'checkin', allow: true, jobId: 'j2' }], hot);
    expect(sut.kinds.filter((k) => k === 'callCheckin')).toHaveLength(2);
    expect(sut.s).toMatchObject({ phase: 'erase', index: 1, jobIds: ['j1', 'j2'] });
    expect([jobIdFor(hot, ['j1', 'j2'], 0), jobIdFor(hot, ['j1', 'j2'], 1), jobIdFor(ctx, ['j'], 1)]).toEqual(['j1', 'j2', 'j-1']);
  });

  it('a wipe result that cannot be delivered is retried with backoff, then the session fails naming it', () => {
    const results: Session = { phase: 'results', index: 0, attempt: 1, jobIds: ['job'], outcomes: [outcome('/dev/a'), outcome('/dev/b')], reports: [] };
    const fail: SessionEvent = { type: 'reported', ok: false, detail: 'HTTP 503', retryable: true };
    const t1 = step(ctx, results, fail);
    expect(t1.effects[0]).toMatchObject({ kind: 'sendWipeResult', attempt: 2, delayMs: 1000 });
    const t2 = step(ctx, t1.next, fail);
    const t3 = step(ctx, t2.next, fail);
    expect(t3.effects[0]).toMatchObject({ kind: 'sendWipeResult', index: 1, attempt: 1 });
    const end = step(ctx, t3.next, { type: 'reported', ok: true, wipeResultId: 'wr', certificateStatus: 'pending' });
    expect(end.next).toMatchObject({ phase: 'failed', reason: '1 wipe result(s) not delivered' });
  });

  it('hotswap: a drive withdrawn (pulled, cancelled) before its check-in ends the session with nothing sent', () => {
    const hot = { ...ctx, product: 'hotswap' as const, drives: [drive('/dev/a')] };
    const t = step(hot, { phase: 'checkin', account: 'Acme', index: 0, jobIds: [], outcomes: [] }, { type: 'withdrawn', reason: 'removed during erase' });
    expect(t.effects).toEqual([]);
    expect(t.next).toEqual({ phase: 'failed', reason: 'removed during erase before check-in: nothing was sent', reports: [] });
  });

  it('hotswap: drives erased under earlier check-ins are still reported when the next one is withdrawn', () => {
    const hot = { ...ctx, product: 'hotswap' as const };
    const t = step(hot, { phase: 'checkin', account: 'Acme', index: 1, jobIds: ['j1'], outcomes: [outcome('/dev/a')] }, { type: 'withdrawn', reason: 'cancelled by the operator' });
    expect(t.effects).toMatchObject([{ kind: 'sendWipeResult', index: 0, body: { job_id: 'j1', wipe_status: 'completed' } }]);
  });

  it('ignores events that do not belong to the phase', () => {
    expect(step(ctx, { phase: 'verify' }, { type: 'erased', outcome: outcome('/dev/a') })).toEqual({ next: { phase: 'verify' }, effects: [] });
  });
});

describe('wipe result body', () => {
  const stopped = (failureCode: string, verification: string): EraseOutcome => ({ ...outcome('/dev/a', false), passes: null, verificationHash: undefined, failureCode, verification });

  it.each<[string, EraseOutcome, string]>([
    ['an erase the operator cancelled is cancelled (spec 2)', stopped('cancelled', 'cancelled by the operator: the erase was stopped before it completed'), 'cancelled'],
    ['a drive pulled out of its bay stays failed', stopped('removed', 'removed during erase: stopped before anything was written'), 'failed'],
    ['a refusal is failed', { ...stopped('mounted', 'refused: /dev/a is mounted at /mnt'), refused: true }, 'failed'],
    ['a verified erase is completed', outcome('/dev/a'), 'completed'],
  ])('%s', (_name, o, status) => {
    const body = wipeResultBody(drive('/dev/a'), o, 'job-1', 'erasure-agent 0.1.0');
    expect(body.wipe_status).toBe(status);
    expect(body.verification_result).toBe(o.verification);
    // Anything not completed is never certified: rejected, for review.
    if (status !== 'completed') expect(body).toMatchObject({ validation: 'rejected', disposition: 'review' });
  });
});
