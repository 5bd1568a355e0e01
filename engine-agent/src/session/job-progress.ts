import type { EraseProgress } from '../erase/progress.js';
import type { Session } from './types.js';

/** What the progress of one drive is measured against: its size and its plan's estimate. */
export interface DriveEstimate {
  readonly device: string;
  readonly sizeBytes?: number;
  /** True for a drive command (sanitize, format, secure erase): no byte counts, the plan's estimate instead. */
  readonly firmware: boolean;
  /** The plan's estimate of the whole erase, in seconds. */
  readonly expectedSeconds?: number;
}

/** How a finished drive ended, as a technician reads it. */
export type DriveOutcomeWord = 'erased' | 'failed' | 'cancelled';

/** One drive's progress: stage, pass n of N, bytes, rate, elapsed and the time left for the whole drive. */
export interface DriveProgressView {
  readonly device: string;
  readonly stage: EraseProgress['stage'];
  readonly pass: number;
  /** Overwrite passes in all (N of "pass n of N"); absent for a drive command. */
  readonly passes?: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly percent?: number;
  readonly bytesPerSecond?: number;
  readonly elapsedSeconds: number;
  /** Seconds left for this drive, every stage still to come included. */
  readonly etaSeconds?: number;
  readonly outcome?: DriveOutcomeWord;
}

/** The whole job: drives finished of all, elapsed, and the time left until the slowest drive is done. */
export interface JobProgressView {
  readonly drives: number;
  readonly finished: number;
  readonly elapsedSeconds: number;
  readonly etaSeconds?: number;
}

interface Track {
  readonly plan: DriveEstimate;
  startedAt?: number;
  finishedAt?: number;
  outcome?: DriveOutcomeWord;
  last?: EraseProgress;
  stage?: { key: string; at: number; bytes: number };
  rate?: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Turns the erase's raw progress and the session's per-drive states into what technicians
 * expect to read (nwipe, Blancco): for each drive its stage, pass n of N, bytes, rate, elapsed
 * and time left; for the job, drives done and the time left until the slowest drive finishes.
 *
 * An overwrite's remaining work is every pass still to write plus the full read-back, at the rate
 * measured in the current stage. A drive command reports no bytes: its time left is the plan's
 * estimate less the time it has run. `now` is in milliseconds (performance.now in production).
 */
export class JobProgress {
  private readonly tracks = new Map<string, Track>();
  private readonly order: string[];
  private begun: number | undefined;

  constructor(
    drives: readonly DriveEstimate[],
    private readonly now: () => number,
  ) {
    for (const d of drives) this.tracks.set(d.device, { plan: d });
    this.order = drives.map((d) => d.device);
  }

  /** Follows the session: a drive starts when its erase starts and is finished once its outcome is known. */
  onState(s: Session): string[] {
    if (s.phase !== 'erase') return [];
    const changed: string[] = [];
    s.drives.forEach((run, index) => {
      const track = this.tracks.get(this.order[index] ?? '');
      if (!track) return;
      if (run.stage === 'erasing' && track.startedAt === undefined) {
        track.startedAt = this.now();
        this.begun ??= track.startedAt;
        changed.push(track.plan.device);
      }
      if ((run.stage === 'reporting' || run.stage === 'reported') && track.outcome === undefined) {
        const outcome = run.stage === 'reporting' ? run.outcome : run.report.outcome;
        track.finishedAt = this.now();
        track.startedAt ??= track.finishedAt;
        track.outcome = outcome.ok ? 'erased' : outcome.failureCode === 'cancelled' ? 'cancelled' : 'failed';
        changed.push(track.plan.device);
      }
    });
    return changed;
  }

  /** Takes one progress report of the erase; returns the drive's view after it. */
  update(p: EraseProgress): DriveProgressView | undefined {
    const track = this.tracks.get(p.device);
    if (!track || track.outcome) return track ? this.view(p.device) : undefined;
    const at = this.now();
    track.startedAt ??= at;
    this.begun ??= at;
    const key = `${p.stage}/${p.pass}`;
    if (!track.stage || track.stage.key !== key) track.stage = { key, at, bytes: p.bytesDone };
    const seconds = (at - track.stage.at) / 1000;
    const measured = seconds > 0 ? (p.bytesDone - track.stage.bytes) / seconds : undefined;
    const rate = p.bytesPerSecond ?? measured;
    if (rate !== undefined && rate > 0) track.rate = rate;
    track.last = p;
    return this.view(p.device);
  }

  /** One drive's view, or undefined for a drive not in this job. */
  view(device: string): DriveProgressView | undefined {
    const track = this.tracks.get(device);
    if (!track) return undefined;
    const at = track.finishedAt ?? this.now();
    const elapsedSeconds = track.startedAt === undefined ? 0 : Math.max(0, Math.round((at - track.startedAt) / 1000));
    const p = track.last;
    const size = p?.bytesTotal || track.plan.sizeBytes || 0;
    const stage = p?.stage ?? (track.plan.firmware ? 'firmware' : 'prepare');
    const passes = track.plan.firmware ? undefined : (p?.passes ?? 1);
    const base = { device, stage, pass: p?.pass ?? 0, ...(passes !== undefined ? { passes } : {}), bytesDone: p?.bytesDone ?? 0, bytesTotal: p?.bytesTotal ?? size, elapsedSeconds };
    if (track.outcome) return { ...base, ...(track.outcome === 'erased' ? { percent: 100 } : p?.percent !== undefined ? { percent: round1(p.percent) } : {}), etaSeconds: 0, outcome: track.outcome };
    const percent = p?.percent ?? (p && p.bytesTotal > 0 ? Math.min(100, (p.bytesDone / p.bytesTotal) * 100) : undefined);
    const eta = this.etaOf(track, elapsedSeconds);
    return { ...base, ...(percent !== undefined ? { percent: round1(percent) } : {}), ...(track.rate ? { bytesPerSecond: Math.round(track.rate) } : {}), ...(eta !== undefined ? { etaSeconds: eta } : {}) };
  }

  private etaOf(track: Track, elapsedSeconds: number): number | undefined {
    const p = track.last;
    const fromPlan = track.plan.expectedSeconds !== undefined ? Math.max(0, Math.round(track.plan.expectedSeconds - elapsedSeconds)) : undefined;
    if (track.plan.firmware || !p || !track.rate) return track.startedAt === undefined ? track.plan.expectedSeconds : fromPlan || undefined;
    const size = p.bytesTotal;
    const passes = p.passes ?? 1;
    // Work left in bytes: the rest of this pass, the passes after it, and the full read-back.
    const left = p.stage === 'verify' ? size - p.bytesDone : p.stage === 'write' ? size - p.bytesDone + (passes - p.pass) * size + size : (passes + 1) * size;
    return Math.ceil(Math.max(0, left) / track.rate);
  }

  /** Every drive's view, in selection order. */
  views(): DriveProgressView[] {
    return this.order.flatMap((d) => this.view(d) ?? []);
  }

  /** The job as a whole: its time left is that of the slowest drive still to finish. */
  job(): JobProgressView {
    const views = this.views();
    const open = views.filter((v) => v.outcome === undefined);
    const etas = open.map((v) => v.etaSeconds);
    const known = etas.every((e) => e !== undefined);
    const elapsedSeconds = this.begun === undefined ? 0 : Math.max(0, Math.round((this.now() - this.begun) / 1000));
    return { drives: views.length, finished: views.length - open.length, elapsedSeconds, ...(open.length === 0 ? { etaSeconds: 0 } : known ? { etaSeconds: Math.max(...(etas as number[])) } : {}) };
  }
}
