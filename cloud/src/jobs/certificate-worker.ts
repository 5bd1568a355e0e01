import { setTimeout as sleep } from 'node:timers/promises';
import { retryDelayMs, runNextCertificateJob, type CertificateJobDeps } from './generate-certificate.js';

/** Defaults for a production worker; tests and the CLI override the lease only. */
export const CERTIFICATE_WORKER_DEFAULTS = {
  /** Generation takes well under a second; a minute leaves room for a slow disk. */
  leaseMs: 60_000,
  maxAttempts: 5,
  /** Idle poll interval: how soon a new job is noticed by a worker in another process. */
  pollMs: 250,
  /**
   * Jobs in flight per worker. Rendering is CPU on the one JS thread, but each job also waits
   * on several fsyncs; a second job renders during those waits. More cores need more workers.
   */
  concurrency: 2,
  retryDelayMs: (attempt: number) => retryDelayMs(attempt),
} as const;

/** The slice of a pino logger the worker uses. */
export interface WorkerLog {
  error(details: object, message: string): void;
  /** A job attempt that failed and why (it is retried, or failed for good after the last). */
  warn(details: object, message: string): void;
}

/** A running worker loop. */
export interface CertificateWorker {
  /** Finishes the job in hand, then resolves; no new job is claimed after the call. */
  stop(): Promise<void>;
  /**
   * Cuts the jobs in hand short (render, lock waits) and hands them back, due now, for the next
   * worker; `stop()` then resolves once they are handed back. For a stop that must end in time.
   */
  abort(): void;
  /** Nudges an idle worker to look for work now (e.g. right after a wipe result was stored). */
  wake(): void;
}

/**
 * Runs certificate jobs until stopped: a flat loop that works while jobs are due and sleeps
 * `pollMs` when none are. All scheduling state (due times, leases, attempts) is in the jobs
 * table, so any number of workers in any number of processes can run side by side, and a
 * restart loses nothing. An unexpected error (e.g. the database busy past its timeout) is
 * logged and the loop carries on after a pause.
 */
export function startCertificateWorker(
  deps: CertificateJobDeps & { pollMs: number; concurrency?: number; log?: WorkerLog },
): CertificateWorker {
  let stopped = false;
  let idle = new AbortController();
  const aborted = new AbortController();
  const loop = async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await runNextCertificateJob(deps, aborted.signal);
      } catch (error) {
        // A claim cut short by abort() rolled back: nothing to report.
        if (!aborted.signal.aborted) deps.log?.error({ err: error }, 'certificate worker iteration failed');
      }
      if (worked || stopped) continue;
      await sleep(deps.pollMs, undefined, { signal: idle.signal }).catch(() => undefined);
      if (idle.signal.aborted && !stopped) idle = new AbortController();
    }
  };
  const loops = Array.from({ length: Math.max(1, deps.concurrency ?? 1) }, loop);
  return {
    async stop() {
      stopped = true;
      idle.abort();
      await Promise.all(loops);
    },
    abort() {
      stopped = true;
      idle.abort();
      aborted.abort(new Error('worker stopping: job handed back'));
    },
    wake() {
      idle.abort();
    },
  };
}

/**
 * Runs due certificate jobs until none is left (tests, bench), `concurrency` at a time like
 * the worker. Returns how many jobs were run.
 */
export async function drainCertificateJobs(deps: CertificateJobDeps, concurrency = 1): Promise<number> {
  let runs = 0;
  const lane = async () => {
    while (await runNextCertificateJob(deps)) runs++;
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  return runs;
}
