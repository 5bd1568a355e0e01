import type { Fingerprint } from '@erasure/shared';
import { denialReason, type CloudClient } from './cloud-client.js';
import type { EraseDeps, EraseOutcome } from '../erase/erase-drive.js';
import { eraseDrive, REMOVED_DURING_ERASE } from '../erase/erase-drive.js';
import { driveChanged } from '../probes/drive-identity.js';
import type { OverwriteScheme } from '../erase/overwrite-verify.js';
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
  /** Called before a drive's erase starts (kiosk progress). */
  readonly onEraseStart?: (device: string) => void;
}

/** Builds the executors: one per effect kind, each turning I/O into exactly one event. */
export function createExecutors(ctx: SessionContext, deps: ExecutorDeps): Executors {
  const { client } = deps;
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
      return r.ok ? { type: 'checkin', allow: true, jobId: r.value.job_id } : { type: 'checkin', allow: false, reason: denialReason(r.error) };
    },
    erase: async (e) => {
      deps.onEraseStart?.(e.drive.device);
      const outcome: EraseOutcome = await eraseDrive(
        {
          device: e.drive.device,
          method: e.drive.method,
          preconditions: e.drive.preconditions,
          selected: ctx.drives.map((d) => d.device),
          ...(deps.simulated ? { simulated: true } : {}),
          ...(deps.overwrite ? { overwrite: deps.overwrite } : {}),
        },
        deps.erase,
      );
      return { type: 'erased', outcome };
    },
    sendWipeResult: async (e) => {
      await wait(e.delayMs);
      const r = await client.call('wipeResult', e.body);
      if (r.ok) return { type: 'reported', ok: true, wipeResultId: r.value.wipe_result_id, certificateStatus: r.value.certificate_status };
      // Transport failures and 5xx may succeed later; a 4xx will not (the job id is idempotent either way).
      const retryable = r.error.kind === 'transport' || (r.error.kind === 'status' && r.error.status >= 500);
      return { type: 'reported', ok: false, detail: denialReason(r.error), retryable };
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
 * Runs the session to a terminal state: persist, notify, execute the effect, feed its event back
 * into `step`. A flat loop (STYLE C), bounded because every phase has an attempt budget.
 */
export async function runSession(ctx: SessionContext, executors: Executors, hooks: InterpreterHooks = {}, start?: Transition): Promise<Session> {
  let { next, effects } = start ?? step(ctx, initialSession, { type: 'start' });
  for (;;) {
    const s = next;
    await hooks.persist?.(s);
    hooks.onState?.(s);
    const effect = effects[0];
    if (isTerminal(s)) return s;
    // A non-terminal state without an effect would wait forever: end it, failed (fail closed).
    if (!effect) return { phase: 'failed', reason: `session stalled in phase ${s.phase}`, reports: [] };
    const event = await execute(executors, effect);
    ({ next, effects } = step(ctx, s, event));
  }
}
