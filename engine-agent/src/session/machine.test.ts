import { describe, expect, it } from 'vitest';
import type { EraseOutcome } from '../erase/erase-drive.js';
import { initialSession, jobIdFor, step } from './machine.js';
import { DEFAULT_LIMITS, type Effect, type Session, type SessionContext, type SessionEvent } from './types.js';
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

  it('engine: one check-in, every drive erased at once, one wipe result per drive with -0, -1 job ids', () => {
    let s: Session = initialSession;
    const bodies: string[] = [];
    const events: SessionEvent[] = [{ type: 'start' }, ...healthy, { type: 'checkin', allow: true, jobId: 'job' }, { type: 'erased', index: 0, outcome: outcome('/dev/a') }, { type: 'erased', index: 1, outcome: outcome('/dev/b', false) }, { type: 'reported', index: 0, ok: true, wipeResultId: 'wr_1', certificateStatus: 'pending' }, { type: 'reported', index: 1, ok: true, wipeResultId: 'wr_2', certificateStatus: null }];
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
    const sut = drive_([...healthy, { type: 'checkin', allow: true, jobId: 'j1' }, { type: 'checkin', allow: true, jobId: 'j2' }], hot);
    expect(sut.kinds.filter((k) => k === 'callCheckin')).toHaveLength(2);
    expect(sut.s).toMatchObject({ phase: 'erase', jobIds: ['j1', 'j2'], drives: [{ stage: 'erasing' }, { stage: 'erasing' }] });
    expect([jobIdFor(hot, ['j1', 'j2'], 0), jobIdFor(hot, ['j1', 'j2'], 1), jobIdFor(ctx, ['j'], 1)]).toEqual(['j1', 'j2', 'j-1']);
  });

  it('a wipe result that cannot be delivered is retried with backoff, then the session fails naming it', () => {
    const erasing: Session = { phase: 'erase', account: 'Acme', jobIds: ['job'], drives: [{ stage: 'reporting', outcome: outcome('/dev/a'), attempt: 1 }, { stage: 'reporting', outcome: outcome('/dev/b'), attempt: 1 }] };
    const fail: SessionEvent = { type: 'reported', index: 0, ok: false, detail: 'HTTP 503', retryable: true };
    const t1 = step(ctx, erasing, fail);
    expect(t1.effects[0]).toMatchObject({ kind: 'sendWipeResult', index: 0, attempt: 2, delayMs: 1000 });
    const t2 = step(ctx, t1.next, fail);
    const t3 = step(ctx, t2.next, fail);
    expect(t3.effects).toEqual([]);
    expect(t3.next).toMatchObject({ phase: 'erase', drives: [{ stage: 'reported', report: { delivered: false, error: 'HTTP 503' } }, { stage: 'reporting' }] });
    const end = step(ctx, t3.next, { type: 'reported', index: 1, ok: true, wipeResultId: 'wr', certificateStatus: 'pending' });
    expect(end.next).toMatchObject({ phase: 'failed', reason: '1 wipe result(s) not delivered' });
  });

  it('a wipe result the cloud refused for good is not retried and is reported refused, not as still sending', () => {
    const erasing: Session = { phase: 'erase', account: 'Acme', jobIds: ['job'], drives: [{ stage: 'reporting', outcome: outcome('/dev/a'), attempt: 1 }] };
    const t = step(ctx, erasing, { type: 'reported', index: 0, ok: false, detail: 'HTTP 409', retryable: false });
    expect(t.effects).toEqual([]);
    expect(t.next).toMatchObject({ phase: 'failed', reports: [{ delivered: false, deliveryRefused: true, error: 'HTTP 409' }] });
    // A 503 is not a refusal: it is sent again.
    expect(step(ctx, erasing, { type: 'reported', index: 0, ok: false, detail: 'HTTP 503', retryable: true }).effects[0]).toMatchObject({ kind: 'sendWipeResult', attempt: 2 });
  });

  it('hotswap: a drive withdrawn (pulled, cancelled) before its check-in ends the session with nothing sent', () => {
    const hot = { ...ctx, product: 'hotswap' as const, drives: [drive('/dev/a')] };
    const t = step(hot, { phase: 'checkin', account: 'Acme', index: 0, jobIds: [] }, { type: 'withdrawn', reason: 'removed during erase' });
    expect(t.effects).toEqual([]);
    expect(t.next).toEqual({ phase: 'failed', reason: 'removed during erase before check-in: nothing was sent', reports: [] });
  });

  it('hotswap: drives checked in before the next one is withdrawn are still erased, the withdrawn one is withheld', () => {
    const hot = { ...ctx, product: 'hotswap' as const };
    const t = step(hot, { phase: 'checkin', account: 'Acme', index: 1, jobIds: ['j1'] }, { type: 'withdrawn', reason: 'cancelled by the operator' });
    expect(t.effects).toMatchObject([{ kind: 'erase', index: 0 }]);
    expect(t.next).toMatchObject({ phase: 'erase', drives: [{ stage: 'erasing' }, { stage: 'withheld', reason: 'cancelled by the operator' }] });
  });

  it('ignores events that do not belong to the phase', () => {
    expect(step(ctx, { phase: 'verify' }, { type: 'erased', index: 0, outcome: outcome('/dev/a') })).toEqual({ next: { phase: 'verify' }, effects: [] });
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

describe('device session step(): drives erased at once', () => {
  const four: SessionContext = { ...ctx, drives: ['/dev/a', '/dev/b', '/dev/c', '/dev/d'].map(drive) };
  const checkedIn = (c: SessionContext) => step(c, { phase: 'checkin', account: 'Acme', index: 0, jobIds: [] }, { type: 'checkin', allow: true, jobId: 'job' });
  /** Feeds events from a state, collecting every effect. */
  const feed = (c: SessionContext, from: Session, events: SessionEvent[]) => {
    let s = from;
    const effects: Effect[] = [];
    for (const ev of events) {
      const t = step(c, s, ev);
      s = t.next;
      effects.push(...t.effects);
    }
    return { s, effects };
  };
  const erasedAt = (effects: readonly Effect[]) => effects.flatMap((e) => (e.kind === 'erase' ? [e.index] : []));
  const sentFor = (effects: readonly Effect[]) => effects.flatMap((e) => (e.kind === 'sendWipeResult' ? [e.body.job_id] : []));
  const delivered = (index: number): SessionEvent => ({ type: 'reported', index, ok: true, wipeResultId: `wr_${index}`, certificateStatus: 'pending' });

  it('one check-in starts the erase of every selected drive', () => {
    const t = checkedIn(four);
    expect(erasedAt(t.effects)).toEqual([0, 1, 2, 3]);
    expect(t.next).toMatchObject({ phase: 'erase', drives: [{ stage: 'erasing' }, { stage: 'erasing' }, { stage: 'erasing' }, { stage: 'erasing' }] });
  });

  it('a drive that finished has its wipe result sent while the others are still erasing', () => {
    const sut = feed(four, checkedIn(four).next, [{ type: 'erased', index: 2, outcome: outcome('/dev/c') }]);
    expect(sentFor(sut.effects)).toEqual(['job-2']);
    expect(sut.s).toMatchObject({ phase: 'erase', drives: [{ stage: 'erasing' }, { stage: 'erasing' }, { stage: 'reporting' }, { stage: 'erasing' }] });
  });

  it('--parallel 2 erases two drives at a time, the next starting as one finishes', () => {
    const two = { ...four, parallel: 2 };
    const start = checkedIn(two);
    expect(erasedAt(start.effects)).toEqual([0, 1]);
    const sut = feed(two, start.next, [{ type: 'erased', index: 1, outcome: outcome('/dev/b') }]);
    expect(erasedAt(sut.effects)).toEqual([2]);
    expect(sentFor(sut.effects)).toEqual(['job-1']);
  });

  it('two namespaces of one NVMe subsystem are never erased at once; other drives do not wait for them', () => {
    const nvme = (device: string) => ({ ...drive(device), method: 'nvme-sanitize-crypto' as const, exclusive: 'nvme:subsys0' });
    const c: SessionContext = { ...ctx, drives: [nvme('/dev/nvme0n1'), nvme('/dev/nvme0n2'), drive('/dev/sda')] };
    const start = checkedIn(c);
    expect(erasedAt(start.effects)).toEqual([0, 2]);
    const sut = feed(c, start.next, [{ type: 'erased', index: 0, outcome: { ...outcome('/dev/nvme0n1'), method: 'nvme-sanitize-crypto' } }]);
    expect(erasedAt(sut.effects)).toEqual([1]);
  });

  it('one drive fails while another verifies: the failure is reported at once and the other carries on to its own result', () => {
    const two = { ...ctx };
    const failed: EraseOutcome = { ...outcome('/dev/a', false), failureCode: 'io_error', verification: 'read error at byte 1048576' };
    const first = feed(two, checkedIn(two).next, [{ type: 'erased', index: 0, outcome: failed }, delivered(0)]);
    expect(sentFor(first.effects)).toEqual(['job-0']);
    expect(first.effects.find((e) => e.kind === 'sendWipeResult')).toMatchObject({ body: { wipe_status: 'failed', validation: 'rejected' } });
    // The other drive is still erasing (verifying): its state is untouched by the failure.
    expect(first.s).toMatchObject({ phase: 'erase', drives: [{ stage: 'reported' }, { stage: 'erasing' }] });
    const end = feed(two, first.s, [{ type: 'erased', index: 1, outcome: outcome('/dev/b') }, delivered(1)]);
    expect(sentFor(end.effects)).toEqual(['job-1']);
    expect(end.s).toMatchObject({ phase: 'done', reports: [{ jobId: 'job-0', outcome: { ok: false } }, { jobId: 'job-1', outcome: { ok: true } }] });
  });

  it("a cancel of one drive during another's firmware erase stops only the cancelled drive", () => {
    const c: SessionContext = { ...ctx, drives: [{ ...drive('/dev/nvme0n1'), method: 'nvme-sanitize-block', exclusive: 'nvme:subsys0' }, drive('/dev/sda')] };
    const cancel: SessionEvent = { type: 'cancel', index: 1, reason: 'cancelled by the operator', at: '2026-01-01T00:00:30.000Z' };
    const sut = feed(c, checkedIn(c).next, [cancel]);
    expect(sut.effects).toEqual([{ kind: 'stopErase', index: 1, reason: 'cancelled by the operator' }]);
    expect(sut.s).toMatchObject({ drives: [{ stage: 'erasing' }, { stage: 'erasing', stopping: 'cancelled by the operator' }] });
    // A second cancel of the same drive sends no second stop.
    expect(feed(c, sut.s, [cancel]).effects).toEqual([]);
    const stopped: EraseOutcome = { ...outcome('/dev/sda', false), failureCode: 'cancelled', passes: null, verification: 'cancelled by the operator: stopped' };
    const after = feed(c, sut.s, [{ type: 'stopping', index: 1 }, { type: 'erased', index: 1, outcome: stopped }, delivered(1)]);
    expect(after.effects.find((e) => e.kind === 'sendWipeResult')).toMatchObject({ body: { job_id: 'job-1', wipe_status: 'cancelled' } });
    expect(after.s).toMatchObject({ phase: 'erase', drives: [{ stage: 'erasing' }, { stage: 'reported' }] });
    const end = feed(c, after.s, [{ type: 'erased', index: 0, outcome: { ...outcome('/dev/nvme0n1'), method: 'nvme-sanitize-block' } }, delivered(0)]);
    expect(end.s).toMatchObject({ phase: 'done', reports: [{ outcome: { ok: true } }, { outcome: { failureCode: 'cancelled' } }] });
  });

  it('a drive cancelled before its turn is reported cancelled and never erased', () => {
    const one = { ...ctx, parallel: 1 };
    const start = checkedIn(one);
    const sut = feed(one, start.next, [{ type: 'cancel', index: 1, reason: 'cancelled by the operator', at: '2026-01-01T00:00:30.000Z' }, { type: 'erased', index: 0, outcome: outcome('/dev/a') }]);
    expect(erasedAt([...start.effects, ...sut.effects])).toEqual([0]);
    expect(sentFor(sut.effects)).toEqual(['job-1', 'job-0']);
    expect(sut.effects.find((e) => e.kind === 'sendWipeResult')).toMatchObject({ body: { wipe_status: 'cancelled', validation: 'rejected' } });
  });

  it('an event for a drive not in the stage it names changes nothing', () => {
    const s = checkedIn(ctx).next;
    expect(step(ctx, s, delivered(0))).toEqual({ next: s, effects: [] });
    expect(step(ctx, s, { type: 'erased', index: 7, outcome: outcome('/dev/x') })).toEqual({ next: s, effects: [] });
  });
});
