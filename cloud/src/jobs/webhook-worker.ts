import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../adapters/clock.js';
import type { SqlDatabase } from '../adapters/sql/database.js';
import { claimDeliveries, handBackDelivery, nextDueAt, pruneLedger, recordAttempt, type AttemptRecord, type ClaimedDelivery } from '../adapters/db/webhook-deliveries.js';
import { listenForDueDeliveries } from '../adapters/db/webhook-wakeup.js';
import type { WebhookSender } from '../adapters/outbound-http.js';
import { attemptError, nextStep, type DeliveryPolicy } from '../domain/webhooks/policy.js';
import { signedDeliveryHeaders } from '../domain/webhooks/signing.js';

export interface WebhookWorkerDeps {
  db: SqlDatabase;
  clock: Clock;
  sender: WebhookSender;
  policy: DeliveryPolicy;
  /** Attempts in flight at once in this worker (bounded: one slow receiver must not hog it). */
  concurrency?: number;
  /** How long a claim is held before another worker may take the delivery over. */
  leaseMs?: number;
  /** Longest idle sleep: how soon a delivery enqueued by another process is noticed. */
  pollMs?: number;
  /** `warn` gets a failed attempt's detail (errno, address): the ledger keeps only its category. */
  log?: { error(details: object, message: string): void; warn(details: object, message: string): void };
  /** How long finished deliveries stay in the ledger (WEBHOOK_LEDGER_RETENTION_DAYS); default 30 days. */
  retentionMs?: number | undefined;
  /** How often the worker prunes the ledger; default hourly (and once at start). */
  pruneEveryMs?: number;
}

export interface WebhookWorker {
  /** Stops claiming, waits for the attempts in flight and records them. */
  stop(): Promise<void>;
  /**
   * Cuts the attempts in flight short and hands their deliveries back, due now and unattempted,
   * for the next worker; `stop()` then resolves once they are handed back.
   */
  abort(): void;
  /** Nudges an idle worker: deliveries just became due (called after an event commits). */
  wake(): void;
}

export const WEBHOOK_WORKER_DEFAULTS = { concurrency: 64, pollMs: 500, retentionMs: 30 * 86_400_000, pruneEveryMs: 3_600_000 } as const;

/** Deliveries pruned per transaction, so pruning never holds the write lock for long. */
const PRUNE_BATCH = 5000;

/**
 * Delivers due webhook deliveries until stopped. All scheduling state (due times, leases,
 * attempt counts) lives in the ledger, so any number of workers in any number of processes can
 * run side by side and a restart resumes mid-backoff. One loop turn is one write transaction:
 * it records the attempts finished since the last turn and claims as many due deliveries as
 * there are free slots, so a busy worker pays one fsync per batch, not two per delivery.
 */
export function startWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const concurrency = Math.max(1, deps.concurrency ?? WEBHOOK_WORKER_DEFAULTS.concurrency);
  const pollMs = deps.pollMs ?? WEBHOOK_WORKER_DEFAULTS.pollMs;
  // An attempt takes at most the timeout; three times that leaves room for a stalled event loop.
  const leaseMs = deps.leaseMs ?? deps.policy.timeoutMs * 3;
  const finished: AttemptRecord[] = [];
  /** Claims whose attempt abort() cut short: given back, not recorded. */
  const handedBack: ClaimedDelivery[] = [];
  const inFlight = new Set<Promise<void>>();
  const aborted = new AbortController();
  let stopped = false;
  let signal = new AbortController();
  const nudge = () => signal.abort();
  // Deliveries made due by any process (on PostgreSQL; see webhook-wakeup.ts) wake this worker once committed.
  const listener = listenForDueDeliveries(deps.db, nudge, deps.log);

  const attempt = async (delivery: ClaimedDelivery) => {
    const now = deps.clock.now();
    const headers = signedDeliveryHeaders({
      secret: delivery.signing_secret,
      previousSecret: delivery.previous_signing_secret,
      eventType: delivery.event_type,
      body: delivery.payload,
      auth: delivery.auth,
      now,
    });
    const outcome = await deps.sender.send(delivery.url, delivery.payload, headers, aborted.signal);
    if (aborted.signal.aborted && !outcome.ok) {
      handedBack.push(delivery);
      return;
    }
    if (!outcome.ok) deps.log?.warn({ delivery: delivery.id, url: delivery.url, error: outcome.error }, 'webhook attempt failed');
    // Attempt number within the current round (a redelivery grants a fresh round).
    const inRound = deps.policy.maxAttempts - (delivery.max_attempts - delivery.attempts);
    finished.push({ delivery, outcome, step: nextStep(deps.policy, inRound, outcome), error: attemptError(outcome), attemptedAt: now.toISOString() });
  };

  /**
   * One transaction: record what finished, then claim up to the free slots (none once stopping).
   * `signal` cuts a turn stuck on a lock short (what it would record waits for the next turn).
   */
  const turn = async (signal?: AbortSignal): Promise<number> => {
    const records = finished.splice(0);
    const givenBack = handedBack.splice(0);
    const now = deps.clock.now();
    const iso = now.toISOString();
    let claimed: ClaimedDelivery[];
    try {
      claimed = await deps.db.transaction(async (tx) => {
        for (const record of records) await recordAttempt(tx, record, { now: iso, autoDisableAfter: deps.policy.autoDisableAfter });
        for (const delivery of givenBack) await handBackDelivery(tx, delivery, iso);
        const free = concurrency - inFlight.size;
        if (stopped || free <= 0) return [];
        return claimDeliveries(tx, { now: iso, leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), limit: free });
      }, { signal });
    } catch (error) {
      // Rolled back, so none of them was recorded: back to the queue for the next turn, while
      // their leases still hold (dropped, each would be attempted again after its lease ran out).
      finished.unshift(...records);
      handedBack.unshift(...givenBack);
      throw error;
    }
    for (const delivery of claimed) {
      const running: Promise<void> = attempt(delivery)
        .catch((error: unknown) => deps.log?.error({ err: error }, 'webhook attempt failed unexpectedly'))
        .finally(() => {
          inFlight.delete(running);
          nudge();
        });
      inFlight.add(running);
    }
    return claimed.length;
  };

  /** How long to sleep when idle: until the next retry is due, at most `pollMs`. */
  const idleMs = async (): Promise<number> => {
    const due = await nextDueAt(deps.db, deps.clock.now().toISOString());
    if (due === undefined) return pollMs;
    return Math.min(pollMs, Math.max(1, Date.parse(due) - deps.clock.now().getTime()));
  };

  const retentionMs = deps.retentionMs ?? WEBHOOK_WORKER_DEFAULTS.retentionMs;
  const pruneEveryMs = deps.pruneEveryMs ?? WEBHOOK_WORKER_DEFAULTS.pruneEveryMs;
  let lastPruneMs = -Infinity;
  /** Ledger retention, one bounded batch per turn until nothing old is left, then once per period. */
  const pruneIfDue = async () => {
    const nowMs = deps.clock.now().getTime();
    if (nowMs - lastPruneMs < pruneEveryMs) return;
    const before = new Date(nowMs - retentionMs).toISOString();
    const pruned = await deps.db.transaction((tx) => pruneLedger(tx, { before, limit: PRUNE_BATCH }), { signal: aborted.signal });
    if (pruned < PRUNE_BATCH) lastPruneMs = nowMs;
  };

  const loop = (async () => {
    while (!stopped) {
      let claimed = 0;
      try {
        claimed = await turn(aborted.signal);
        await pruneIfDue();
      } catch (error) {
        // e.g. the database busy past its timeout: the records stay queued for the next turn.
        deps.log?.error({ err: error }, 'webhook worker turn failed');
      }
      if (stopped) break;
      const wait = claimed > 0 || inFlight.size > 0 ? pollMs : await idleMs();
      if (!signal.signal.aborted) await sleep(wait, undefined, { signal: signal.signal }).catch(() => undefined);
      signal = new AbortController();
      // Let the completions of this tick gather so one transaction records them all.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();

  return {
    async stop() {
      stopped = true;
      nudge();
      await listener.close();
      await loop;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      await turn();
    },
    abort() {
      stopped = true;
      nudge();
      aborted.abort(new Error('worker stopping: delivery handed back'));
    },
    wake: nudge,
  };
}
