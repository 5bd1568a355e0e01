import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { wipeGridReaderOnce } from '../adapters/db/wipes-grid.js';
import { DEBIAN_FONT_FILES, loadFontSource, type FontSource } from '../domain/certificates/fonts.js';
import { retryDelayMs } from './generate-certificate.js';
import { runNextLotExportJob, type LotExportDeps } from './lot-export.js';
import { removeExpiredLotExports } from '../adapters/db/lot-exports.js';
import type { WorkerLog } from './certificate-worker.js';
import { isoAt } from './lot-parts.js';

/** Defaults for a production lot export worker. */
export const LOT_EXPORT_WORKER_DEFAULTS = {
  /** Thousands of certificates take minutes on a slow disk: the lease is long, the progress line shows it moving. */
  leaseMs: 15 * 60_000,
  maxAttempts: 3,
  pollMs: 1000,
  retryDelayMs: (attempt: number) => retryDelayMs(attempt),
  /** A made file can be downloaded for a day; after that its link answers 410 Gone. */
  ttlMs: 24 * 3_600_000,
} as const;

/** Expired files are looked for at most this often. */
const SWEEP_EVERY_MS = 10 * 60_000;

export interface LotExportWorker {
  stop(): Promise<void>;
  abort(): void;
  wake(): void;
}

/**
 * Runs lot exports one at a time until stopped (each is long and mostly CPU: one lane leaves the
 * rest of the process to the certificates and the HTTP loop), and removes expired files. All
 * state is in the jobs table, so any number of processes may run one.
 */
export function startLotExportWorker(deps: LotExportDeps & { pollMs: number; log?: WorkerLog }): LotExportWorker {
  let stopped = false;
  let idle = new AbortController();
  const aborted = new AbortController();
  let swept = 0;
  const loop = async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await runNextLotExportJob(deps, aborted.signal);
        if (!worked && deps.clock.now().getTime() - swept >= SWEEP_EVERY_MS) {
          swept = deps.clock.now().getTime();
          await removeExpiredLotExports(deps.db, deps.store, isoAt(deps.clock));
        }
      } catch (error) {
        if (!aborted.signal.aborted) deps.log?.error({ err: error }, 'lot export worker iteration failed');
      }
      if (worked || stopped) continue;
      await sleep(deps.pollMs, undefined, { signal: idle.signal }).catch(() => undefined);
      if (idle.signal.aborted && !stopped) idle = new AbortController();
    }
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      idle.abort();
      await running;
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

/** Runs due lot exports until none is left (tests, bench). Returns how many were run. */
export async function drainLotExportJobs(deps: LotExportDeps): Promise<number> {
  let runs = 0;
  while (await runNextLotExportJob(deps)) runs++;
  return runs;
}

/** The worker as `serve` and `erasure-cloud worker` run it: the certificates' store and PDF signer, Debian's fonts. */
export function startDeploymentLotExportWorker(input: {
  db: LotExportDeps['db'];
  clock: LotExportDeps['clock'];
  store: LotExportDeps['store'];
  pdfSigning: NonNullable<LotExportDeps['pdfSigning']>;
  publicBaseUrl: string;
  log?: WorkerLog;
}): LotExportWorker {
  let fonts: FontSource | undefined;
  return startLotExportWorker({
    ...LOT_EXPORT_WORKER_DEFAULTS,
    ...input,
    wipeGrid: wipeGridReaderOnce(input.db),
    fonts: () => (fonts ??= loadFontSource(DEBIAN_FONT_FILES, { readFile: (path) => readFileSync(path) })),
  });
}
