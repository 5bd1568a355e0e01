import type { Fingerprint } from '@erasure/shared';
import { denialReason, isUnreachable, type CloudClient } from './cloud-client.js';
import type { EraseDeps, EraseOutcome } from '../erase/erase-drive.js';
import { eraseDrive, REMOVED_DURING_ERASE } from '../erase/erase-drive.js';
import { driveChanged } from '../probes/drive-identity.js';
import { eraseWithHealth, readSmartHealth } from '../health/erase-health.js';
import type { HealthGrading } from '../health/grading.js';
import { runShortSelfTest } from '../health/self-test.js';
import type { AtaMasterPasswords } from '../erase/ata-master-unlock.js';
import type { OverwriteScheme } from '../erase/overwrite-verify.js';
import { passPatterns } from '../erase/pattern.js';
import { notErasedOutcome } from '../session/not-erased.js';
import { initialSession, step, type Transition } from '../session/machine.js';
import { isTerminal, type Effect, type Executors, type Session, type SessionContext, type SessionEvent } from '../session/types.js';

/** What the executors need from the outside world. */
export interface ExecutorDeps {
  readonly client: CloudClient;
  readonly erase: EraseDeps;
  readonly fingerprint: () => Promise<Fingerprint>;
  readonly sleep: (ms: number) => Promise<void>;
  /** Jitter added to retry delays (STYLE C backoff); tests pass () => 0. */
  readonly jitterMs: () => number;
  readonly simulated?: boolean;
  readonly overwrite?: OverwriteScheme;
  /** The account's ATA master passwords (issue 30 item 1), given to each erase; never in the session's context or state. */
  readonly ataMasterPasswords?: AtaMasterPasswords;
  /** The account's health grade table and self-test switch (issue 30 item 6); absent: the default table, no self-test. */
  readonly healthGrading?: HealthGrading;
}

/** Builds the executors: one per effect kind, each turning I/O into exactly one event. */
export function createExecutors(ctx: SessionContext, deps: ExecutorDeps): Executors {
  const { client } = deps;
  // One stop per drive: the operator's cancel of one drive stops that drive alone.
  const stops = ctx.drives.map(() => new AbortController());
  const wait = async (ms: number) => (ms > 0 ? deps.sleep(ms + deps.jitterMs()) : undefined);
  return {
    checkHealth: async (e) => {
      await wait(e.delayMs);
      const r = await client.call('health');
      return r.ok ? { type: 'health', ok: true } : { type: 'health', ok: false, detail: denialReason(r.error) };
    },
    callVerify: async () => {
      const r = await client.call('verify', {});
      return r.ok ? { type: 'verify', allow: true, account: r.value.account } : { type: 'verify', allow: false, reason: denialReason(r.error) };
    },
    sendRecord: async (e) => {
      await wait(e.delayMs);
      const fingerprint = await deps.fingerprint();
      const r = await client.call('record', { record_id: ctx.recordId, engine_version: ctx.engineVersion, fingerprint });
      return r.ok ? { type: 'record', ok: true, assetId: r.value.asset_id } : { type: 'record', ok: false, detail: denialReason(r.error) };
    },
    callCheckin: async () => {
      // A station bay whose drive was pulled (or cancelled) before this point never checks in:
      // the check-in is the metered step, and there is nothing left to erase.
      const stop = deps.erase.signal;
      if (stop?.aborted) return { type: 'withdrawn', reason: String(stop.reason ?? 'aborted') };
      // Nor one whose node names another disk by now (pulled, and the name given to the next one).
      const bound = deps.erase.boundTo;
      if (bound && !deps.simulated && (await driveChanged(deps.erase.sys, bound))) return { type: 'withdrawn', reason: REMOVED_DURING_ERASE };
      if (stop?.aborted) return { type: 'withdrawn', reason: String(stop.reason ?? 'aborted') };
      const r = await client.call('checkin', {});
      // The schema requires a non-empty job_id: an allow without one never validates (fail closed).
      if (r.ok) return { type: 'checkin', allow: true, jobId: r.value.job_id };
      return { type: 'checkin', allow: false, reason: denialReason(r.error), ...(isUnreachable(r.error) ? { unreachable: true as const } : {}) };
    },
    erase: async (e) => {
      // Seen, not erased: reported at once, the drive is never opened.
      if (e.drive.notErased) return { type: 'erased', index: e.index, outcome: notErasedOutcome(e.drive, deps.erase.now().toISOString()) };
      const own = stops[e.index]?.signal;
      const whole = deps.erase.signal;
      const signal = own && whole ? AbortSignal.any([whole, own]) : (own ?? whole);
      const startedAt = deps.erase.now().toISOString();
      const run = () => eraseDrive(
        {
          device: e.drive.device,
          method: e.drive.method,
          preconditions: e.drive.preconditions,
          selected: ctx.drives.map((d) => d.device),
          ...(deps.simulated ? { simulated: true } : {}),
          ...(deps.overwrite ? { overwrite: deps.overwrite } : {}),
          // Fresh PRNG seeds per erase: each random pass is its own keystream.
          ...(e.drive.overwritePasses ? { passes: passPatterns(e.drive.overwritePasses) } : {}),
          ...(e.drive.passesBeforeFirmware ? { passesBeforeFirmware: passPatterns(e.drive.passesBeforeFirmware) } : {}),
          ...(e.drive.verification ? { verification: e.drive.verification } : {}),
          ...(deps.ataMasterPasswords ? { ataMasterPasswords: deps.ataMasterPasswords } : {}),
        },
        { ...deps.erase, ...(signal ? { signal } : {}) },
      ).catch((error: unknown) => {
        // A broken invariant in one drive's erase fails that drive; the others carry on.
        const at = deps.erase.now().toISOString();
        return { device: e.drive.device, method: e.drive.method, ok: false, refused: false, failureCode: 'error', startedAt, completedAt: at, passes: null, verification: `the erase stopped on an error: ${(error as Error).message}`, commands: [] } satisfies EraseOutcome;
      });
      // SMART before and after, and the resale grade of an erased drive (issue 30 item 6). A
      // simulated drive is asked too: smartctl on its file says it has none, or a test's fake
      // smartctl answers for it.
      const outcome: EraseOutcome = await eraseWithHealth(run, () => readSmartHealth(deps.erase.run, e.drive.device), deps.healthGrading, () => runShortSelfTest({ run: deps.erase.run, sleep: deps.erase.sleep }, e.drive.device));
      return { type: 'erased', index: e.index, outcome };
    },
    stopErase: async (e) => {
      stops[e.index]?.abort(e.reason);
      return { type: 'stopping', index: e.index };
    },
    sendWipeResult: async (e) => {
      await wait(e.delayMs);
      const r = await client.call('wipeResult', e.body);
      if (r.ok) return { type: 'reported', index: e.index, ok: true, wipeResultId: r.value.wipe_result_id, certificateStatus: r.value.certificate_status };
      // Transport failures and 5xx may succeed later; a 4xx will not (the job id is idempotent either way).
      const retryable = r.error.kind === 'transport' || (r.error.kind === 'status' && r.error.status >= 500);
      return { type: 'reported', index: e.index, ok: false, detail: denialReason(r.error), retryable };
    },
  };
}

function execute(executors: Executors, effect: Effect): Promise<SessionEvent> {
  // One cast at the dispatch point: the map guarantees executor and effect kinds agree.
  const run = executors[effect.kind] as (e: Effect) => Promise<SessionEvent>;
  return run(effect);
}

/** Observer and persistence hooks of the interpreter. */
export interface InterpreterHooks {
  /** Persists the state before its effects run (resume after a crash starts from here). */
  readonly persist?: (s: Session) => Promise<void>;
  readonly onState?: (s: Session) => void;
}

/**
 * Events from outside the session (the operator stopping one drive), fed into `step` between
 * the executors' own. A queue, so an event sent while the loop is busy is not lost.
 */
export class SessionInbox {
  private readonly queue: SessionEvent[] = [];
  private wake: (() => void) | undefined;

  send(ev: SessionEvent): void {
    this.queue.push(ev);
    this.wake?.();
  }

  /** Resolves with the next event (at once when one is waiting). */
  next(): Promise<SessionEvent> {
    const ready = this.queue.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve(this.queue.shift() as SessionEvent);
      };
    });
  }
}

/**
 * Runs the session to a terminal state: persist, notify, start the transition's effects, and
 * feed each event back into `step` as it arrives. Effects run concurrently (every drive's erase
 * and wipe result at once); `step` still sees one event at a time, so the state stays one value.
 * A flat loop (STYLE C), bounded because every phase has an attempt budget.
 */
export async function runSession(ctx: SessionContext, executors: Executors, hooks: InterpreterHooks = {}, start?: Transition, inbox?: SessionInbox): Promise<Session> {
  let { next: s, effects } = start ?? step(ctx, initialSession, { type: 'start' });
  const running = new Map<number, Promise<{ id: number; event: SessionEvent }>>();
  let ids = 0;
  let outside: Promise<{ id: number; event: SessionEvent }> | undefined;
  for (;;) {
    await hooks.persist?.(s);
    hooks.onState?.(s);
    if (isTerminal(s)) return s;
    for (const effect of effects) {
      const id = ids++;
      running.set(id, execute(executors, effect).then((event) => ({ id, event })));
    }
    // A non-terminal state with nothing running would wait forever: end it, failed (fail closed).
    if (running.size === 0) return { phase: 'failed', reason: `session stalled in phase ${s.phase}`, reports: [] };
    outside ??= inbox?.next().then((event) => ({ id: -1, event }));
    const { id, event } = await Promise.race([...running.values(), ...(outside ? [outside] : [])]);
    if (id === -1) outside = undefined;
    else running.delete(id);
    ({ next: s, effects } = step(ctx, s, event));
  }
}
