import type { EraseOutcome } from '../erase/erase-drive.js';
import type { DriveReport, Effect, Session, SessionContext, SessionEvent } from './types.js';
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
  next: { phase: 'checkin', account, index: 0, jobIds: [], outcomes: [] },
  effects: [{ kind: 'callCheckin', index: 0 }],
});

const stay = (s: Session): Transition => ({ next: s, effects: [] });
const backoff = (ctx: SessionContext, attempt: number) => Math.min(ctx.limits.retryCapMs, ctx.limits.retryBaseMs * 2 ** (attempt - 1));

/** The job id of drive `index`: engine suffixes the run's one id; hotswap checked in per drive. */
export function jobIdFor(ctx: SessionContext, jobIds: readonly string[], index: number): string {
  return ctx.product === 'hotswap' ? (jobIds[index] ?? '') : `${jobIds[0] ?? ''}-${index}`;
}

function toResults(ctx: SessionContext, jobIds: readonly string[], outcomes: readonly EraseOutcome[]): Transition {
  return sendResult(ctx, { phase: 'results', index: 0, attempt: 1, jobIds, outcomes, reports: [] }, 0);
}

function sendResult(ctx: SessionContext, s: Extract<Session, { phase: 'results' }>, delayMs: number): Transition {
  const outcome = s.outcomes[s.index];
  const drive = ctx.drives[s.index];
  if (!outcome || !drive) {
    const undelivered = s.reports.filter((r) => !r.delivered).length;
    const next: Session = undelivered === 0 ? { phase: 'done', reports: s.reports } : { phase: 'failed', reason: `${undelivered} wipe result(s) not delivered`, reports: s.reports };
    return stay(next);
  }
  const body = wipeResultBody(drive, outcome, jobIdFor(ctx, s.jobIds, s.index), ctx.toolComponents);
  return { next: s, effects: [{ kind: 'sendWipeResult', index: s.index, attempt: s.attempt, delayMs, body }] };
}

function afterErase(ctx: SessionContext, account: string, index: number, jobIds: readonly string[], outcomes: readonly EraseOutcome[]): Transition {
  const nextIndex = index + 1;
  const drive = ctx.drives[nextIndex];
  if (!drive) return toResults(ctx, jobIds, outcomes);
  if (ctx.product === 'hotswap') return { next: { phase: 'checkin', account, index: nextIndex, jobIds, outcomes }, effects: [{ kind: 'callCheckin', index: nextIndex }] };
  return { next: { phase: 'erase', account, index: nextIndex, jobIds, outcomes }, effects: [{ kind: 'erase', index: nextIndex, drive }] };
}

/**
 * The device session as a pure transition function (STYLE C): health -> verify -> record ->
 * checkin -> erase each drive -> one wipe result per drive -> done, or denied/failed. It does
 * no I/O; an event that does not fit the phase leaves the state unchanged.
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
      return stay({ phase: 'denied', at: 'health', reason: `gateway unreachable after ${s.attempt} attempts${ev.detail ? `: ${ev.detail}` : ''}`, outcomes: [] });
    }
    case 'verify': {
      if (ev.type !== 'verify') return stay(s);
      // Only an explicit allow unlocks this boot; anything else is a denial (fail closed).
      if (!ev.allow) return stay({ phase: 'denied', at: 'verify', reason: ev.reason, outcomes: [] });
      return { next: { phase: 'record', account: ev.account, attempt: 1 }, effects: [{ kind: 'sendRecord', attempt: 1, delayMs: 0 }] };
    }
    case 'record': {
      if (ev.type !== 'record') return stay(s);
      if (!ev.ok && s.attempt < ctx.limits.recordAttempts) {
        return { next: { ...s, attempt: s.attempt + 1 }, effects: [{ kind: 'sendRecord', attempt: s.attempt + 1, delayMs: backoff(ctx, s.attempt) }] };
      }
      // The asset report is re-armed on a later connection (spec 4.1 rule 8): it does not gate the wipe.
      if (ctx.drives.length === 0) return stay({ phase: 'done', reports: [] });
      const next: Session = { phase: 'checkin', account: s.account, index: 0, jobIds: [], outcomes: [], ...(ev.ok ? { assetId: ev.assetId } : {}) };
      return { next, effects: [{ kind: 'callCheckin', index: 0 }] };
    }
    case 'checkin': {
      if (ev.type === 'withdrawn') {
        // No check-in went out, so no quota was spent and there is no job to report for this drive.
        if (s.outcomes.length > 0) return toResults(ctx, s.jobIds, s.outcomes);
        return stay({ phase: 'failed', reason: `${ev.reason} before check-in: nothing was sent`, reports: [] });
      }
      if (ev.type !== 'checkin') return stay(s);
      if (!ev.allow) {
        // Hotswap drives already erased under earlier check-ins are still reported.
        if (s.outcomes.length > 0) return toResults(ctx, s.jobIds, s.outcomes);
        return stay({ phase: 'denied', at: 'checkin', reason: ev.reason, outcomes: [] });
      }
      const drive = ctx.drives[s.index];
      if (!drive) return stay({ phase: 'failed', reason: `no drive at index ${s.index}`, reports: [] });
      const jobIds = [...s.jobIds, ev.jobId];
      return { next: { phase: 'erase', account: s.account, index: s.index, jobIds, outcomes: s.outcomes }, effects: [{ kind: 'erase', index: s.index, drive }] };
    }
    case 'erase': {
      if (ev.type !== 'erased') return stay(s);
      return afterErase(ctx, s.account, s.index, s.jobIds, [...s.outcomes, ev.outcome]);
    }
    case 'results': {
      if (ev.type !== 'reported') return stay(s);
      if (!ev.ok && ev.retryable && s.attempt < ctx.limits.resultAttempts) {
        return sendResult(ctx, { ...s, attempt: s.attempt + 1 }, backoff(ctx, s.attempt));
      }
      const outcome = s.outcomes[s.index] as EraseOutcome;
      const jobId = jobIdFor(ctx, s.jobIds, s.index);
      const report: DriveReport = ev.ok
        ? { outcome, jobId, delivered: true, wipeResultId: ev.wipeResultId, certificateStatus: ev.certificateStatus }
        : { outcome, jobId, delivered: false, error: ev.detail };
      return sendResult(ctx, { ...s, index: s.index + 1, attempt: 1, reports: [...s.reports, report] }, 0);
    }
    case 'done':
    case 'denied':
    case 'failed':
      return stay(s);
    default:
      return assertNever(s);
  }
}
