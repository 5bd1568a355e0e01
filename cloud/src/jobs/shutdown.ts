/** A worker that can stop: finishing the work in hand, or, once aborted, handing it back. */
export interface Stoppable {
  /** Claims nothing more; resolves once the work in hand is finished or handed back. */
  stop(): Promise<void>;
  /** Cuts the work in hand short and hands it back, due now, to the next worker. */
  abort(): void;
}

/** SHUTDOWN_TIMEOUT_SECONDS when unset: how long SIGTERM may take, at most, to end a process. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;

/**
 * What the end of the shutdown window is kept for: handing aborted work back (a SQLite write may
 * wait up to 5 s for the lock), then closing the store.
 */
const HAND_BACK_RESERVE_MS = 10_000;

/**
 * How long in-flight work may go on finishing after SIGTERM, within a shutdown that must end by
 * `timeoutMs`: all of it but the hand-back reserve (20 s of the default 30 s, which outlasts a
 * webhook attempt's 10 s timeout and any normal certificate), none when the window is shorter.
 */
export const graceMsOf = (timeoutMs: number): number => Math.max(0, timeoutMs - HAND_BACK_RESERVE_MS);

/** The slice of a pino logger the shutdown uses. */
export interface ShutdownLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Stops `workers` together: each claims nothing more and finishes what it holds; whatever is
 * still in flight after `graceMs` (a receiver that holds the connection, a transaction stuck
 * behind another session's lock) is aborted and handed back, so the next worker takes it at
 * once rather than after its lease. Resolves when every worker has stopped; a worker whose stop
 * failed is logged, not thrown, so the others and the store still close.
 */
export async function stopWorkers(workers: readonly Stoppable[], options: { graceMs: number; log?: ShutdownLog | undefined }): Promise<void> {
  const stopping = Promise.allSettled(workers.map((worker) => worker.stop()));
  const abortTimer = setTimeout(() => {
    options.log?.warn({ graceMs: options.graceMs }, 'shutdown: work still in flight after the grace period, handing it back');
    for (const worker of workers) worker.abort();
  }, options.graceMs);
  try {
    for (const outcome of await stopping) {
      if (outcome.status === 'rejected') options.log?.error({ err: outcome.reason }, 'shutdown: a worker did not stop cleanly');
    }
  } finally {
    clearTimeout(abortTimer);
  }
}
