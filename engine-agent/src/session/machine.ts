import type { EraseOutcome } from '../erase/erase-drive.js';
import type { DriveJob, DriveReport, DriveRun, Effect, Session, SessionContext, SessionEvent } from './types.js';
import { wipeResultBody } from './wipe-result.js';

/** Result of one transition: the next state and the effects to run (none once terminal). */
export interface Transition {
  readonly next: Session;
  readonly effects: readonly Effect[];
}

/** Throws on an impossible value: every switch ends here (Signal's missingCaseError). */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}

/** The session before anything ran. */
export const initialSession: Session = { phase: 'health', attempt: 1 };

/**
 * The erase part of a session whose boot already ran (serve: health, verify and the asset report
 * happen once at start, before the operator picks drives). It starts at check-in, so a run
 * without an allowed verify cannot be built from here: the caller must hold the account verify named.
 */
export const checkinStart = (account: string): Transition => ({
  next: { phase: 'checkin', account, index: 0, jobIds: [] },
  effects: [{ kind: 'callCheckin', index: 0 }],
});

type Erasing = Extract<Session, { phase: 'erase' }>;

const stay = (s: Session): Transition => ({ next: s, effects: [] });
const backoff = (ctx: SessionContext, attempt: number) => Math.min(ctx.limits.retryCapMs, ctx.limits.retryBaseMs * 2 ** (attempt - 1));

/** The job id of drive `index`: engine suffixes the run's one id; hotswap checked in per drive. */
export function jobIdFor(ctx: SessionContext, jobIds: readonly string[], index: number): string {
  return ctx.product === 'hotswap' ? (jobIds[index] ?? '') : `${jobIds[0] ?? ''}-${index}`;
}

function sendResult(ctx: SessionContext, s: Erasing, index: number, outcome: EraseOutcome, attempt: number, delayMs: number): Effect {
  const drive = ctx.drives[index] as DriveJob;
  // Issue 31 item 6: the boot's record, whose job details (customer, lot, asset tag) the cloud puts on the result.
  const body = { ...wipeResultBody(drive, outcome, jobIdFor(ctx, s.jobIds, index), ctx.toolComponents), record_id: ctx.recordId };
  return { kind: 'sendWipeResult', index, attempt, delayMs, body };
}

/**
 * Starts queued drives, in selection order, while a slot is free (`ctx.parallel`, default all)
 * and no drive sharing their `exclusive` key (one NVMe subsystem) is being erased.
 */
function schedule(ctx: SessionContext, runs: readonly DriveRun[]): { runs: DriveRun[]; effects: Effect[] } {
  const limit = ctx.parallel !== undefined && ctx.parallel > 0 ? ctx.parallel : Number.POSITIVE_INFINITY;
  const out = [...runs];
  let active = out.filter((r) => r.stage === 'erasing').length;
  const busy = new Set(out.flatMap((r, i) => (r.stage === 'erasing' && ctx.drives[i]?.exclusive ? [ctx.drives[i].exclusive] : [])));
  const effects: Effect[] = [];
  for (const [index, run] of out.entries()) {
    const drive = ctx.drives[index];
    if (run.stage !== 'queued' || !drive) continue;
    if (active >= limit) break;
    if (drive.exclusive !== undefined && busy.has(drive.exclusive)) continue;
    out[index] = { stage: 'erasing' };
    active += 1;
    if (drive.exclusive !== undefined) busy.add(drive.exclusive);
    effects.push({ kind: 'erase', index, drive });
  }
  return { runs: out, effects };
}

/**
 * The erase phase after a change to one drive: start what can start, and end the session once
 * every drive settled (done when every result was delivered, failed naming how many were not).
 */
function advance(ctx: SessionContext, s: Erasing, runs: readonly DriveRun[], effects: readonly Effect[]): Transition {
  const started = schedule(ctx, runs);
  const all = [...effects, ...started.effects];
  const settled = started.runs.every((r) => r.stage === 'reported' || r.stage === 'withheld');
  if (!settled || all.length > 0) return { next: { ...s, drives: started.runs }, effects: all };
  const reports = started.runs.flatMap((r) => (r.stage === 'reported' ? [r.report] : []));
  const undelivered = reports.filter((r) => !r.delivered).length;
  return stay(undelivered === 0 ? { phase: 'done', reports } : { phase: 'failed', reason: `${undelivered} wipe result(s) not delivered`, reports });
}

/** Into the erase phase: the first `checkedIn` drives have a job; any after them are withheld. */
function toErase(ctx: SessionContext, account: string, jobIds: readonly string[], checkedIn: number, why = ''): Transition {
  const runs: DriveRun[] = ctx.drives.map((_, i) => (i < checkedIn ? { stage: 'queued' } : { stage: 'withheld', reason: why }));
  return advance(ctx, { phase: 'erase', account, jobIds, drives: runs }, runs, []);
}

/** One event of one drive in the erase phase. */
function stepDrive(ctx: SessionContext, s: Erasing, ev: SessionEvent): Transition {
  if (ev.type !== 'erased' && ev.type !== 'reported' && ev.type !== 'cancel') return stay(s);
  const run = s.drives[ev.index];
  const drive = ctx.drives[ev.index];
  if (!run || !drive) return stay(s);
  const put = (next: DriveRun) => s.drives.map((r, i) => (i === ev.index ? next : r));
  switch (ev.type) {
    case 'erased': {
      if (run.stage !== 'erasing') return stay(s);
      // Sent at once: this drive's certificate does not wait for the others.
      return advance(ctx, s, put({ stage: 'reporting', outcome: ev.outcome, attempt: 1 }), [sendResult(ctx, s, ev.index, ev.outcome, 1, 0)]);
    }
    case 'reported': {
      if (run.stage !== 'reporting') return stay(s);
      if (!ev.ok && ev.retryable && run.attempt < ctx.limits.resultAttempts) {
        return advance(ctx, s, put({ ...run, attempt: run.attempt + 1 }), [sendResult(ctx, s, ev.index, run.outcome, run.attempt + 1, backoff(ctx, run.attempt))]);
      }
      const jobId = jobIdFor(ctx, s.jobIds, ev.index);
      const report: DriveReport = ev.ok
        ? { outcome: run.outcome, jobId, delivered: true, wipeResultId: ev.wipeResultId, certificateStatus: ev.certificateStatus }
        : { outcome: run.outcome, jobId, delivered: false, error: ev.detail, ...(ev.retryable ? {} : { deliveryRefused: true }) };
      return advance(ctx, s, put({ stage: 'reported', report }), []);
    }
    case 'cancel': {
      if (run.stage === 'erasing' && run.stopping === undefined) return { next: { ...s, drives: put({ stage: 'erasing', stopping: ev.reason }) }, effects: [{ kind: 'stopErase', index: ev.index, reason: ev.reason }] };
      if (run.stage !== 'queued') return stay(s);
      // Checked in but never started: reported as cancelled, nothing written.
      const outcome: EraseOutcome = { device: drive.device, method: drive.method, ok: false, refused: true, failureCode: 'cancelled', startedAt: ev.at, completedAt: ev.at, passes: null, verification: `${ev.reason}: stopped before its erase began, nothing was written`, commands: [] };
      return advance(ctx, s, put({ stage: 'reporting', outcome, attempt: 1 }), [sendResult(ctx, s, ev.index, outcome, 1, 0)]);
    }
    default:
      return assertNever(ev);
  }
}

/**
 * The device session as a pure transition function (STYLE C): health -> verify -> record ->
 * checkin -> erase, where every drive is erased at once (within `ctx.parallel`) and its wipe
 * result is sent as soon as it finished -> done, or denied/failed. It does no I/O; an event that
 * does not fit the phase or the drive's stage leaves the state unchanged.
 */
export function step(ctx: SessionContext, s: Session, ev: SessionEvent): Transition {
  switch (s.phase) {
    case 'health': {
      if (ev.type === 'start') return { next: s, effects: [{ kind: 'checkHealth', attempt: s.attempt, delayMs: 0 }] };
      if (ev.type !== 'health') return stay(s);
      if (ev.ok) return { next: { phase: 'verify' }, effects: [{ kind: 'callVerify' }] };
      if (s.attempt < ctx.limits.healthAttempts) {
        return { next: { phase: 'health', attempt: s.attempt + 1 }, effects: [{ kind: 'checkHealth', attempt: s.attempt + 1, delayMs: ctx.limits.healthDelayMs }] };
      }
      return stay({ phase: 'denied', at: 'health', reason: `gateway unreachable after ${s.attempt} attempts${ev.detail ? `: ${ev.detail}` : ''}` });
    }
    case 'verify': {
      if (ev.type !== 'verify') return stay(s);
      // Only an explicit allow unlocks this boot; anything else is a denial (fail closed).
      if (!ev.allow) return stay({ phase: 'denied', at: 'verify', reason: ev.reason });
      return { next: { phase: 'record', account: ev.account, attempt: 1 }, effects: [{ kind: 'sendRecord', attempt: 1, delayMs: 0 }] };
    }
    case 'record': {
      if (ev.type !== 'record') return stay(s);
      if (!ev.ok && s.attempt < ctx.limits.recordAttempts) {
        return { next: { ...s, attempt: s.attempt + 1 }, effects: [{ kind: 'sendRecord', attempt: s.attempt + 1, delayMs: backoff(ctx, s.attempt) }] };
      }
      // The asset report is re-armed on a later connection (spec 4.1 rule 8): it does not gate the wipe.
      if (ctx.drives.length === 0) return stay({ phase: 'done', reports: [] });
      const next: Session = { phase: 'checkin', account: s.account, index: 0, jobIds: [], ...(ev.ok ? { assetId: ev.assetId } : {}) };
      return { next, effects: [{ kind: 'callCheckin', index: 0 }] };
    }
    case 'checkin': {
      if (ev.type === 'withdrawn') {
        // No check-in went out, so no quota was spent and there is no job to report for this drive.
        if (s.jobIds.length > 0) return toErase(ctx, s.account, s.jobIds, s.jobIds.length, ev.reason);
        return stay({ phase: 'failed', reason: `${ev.reason} before check-in: nothing was sent`, reports: [] });
      }
      if (ev.type !== 'checkin') return stay(s);
      if (!ev.allow) {
        // Hotswap drives already checked in are still erased and reported.
        if (s.jobIds.length > 0) return toErase(ctx, s.account, s.jobIds, s.jobIds.length, ev.reason);
        return stay({ phase: 'denied', at: 'checkin', reason: ev.reason, ...(ev.unreachable ? { unreachable: true as const } : {}) });
      }
      const jobIds = [...s.jobIds, ev.jobId];
      // Engine: one check-in covers the drive set (job ids -0, -1, …). Hotswap: one per drive.
      const more = ctx.product === 'hotswap' && s.index + 1 < ctx.drives.length;
      if (more) return { next: { ...s, index: s.index + 1, jobIds }, effects: [{ kind: 'callCheckin', index: s.index + 1 }] };
      return toErase(ctx, s.account, jobIds, ctx.drives.length);
    }
    case 'erase':
      return stepDrive(ctx, s, ev);
    case 'done':
    case 'denied':
    case 'failed':
      return stay(s);
    default:
      return assertNever(s);
  }
}
