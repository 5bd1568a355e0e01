import type { AgentState, DriveProgress, DriveResult } from '@erasure/shared';
import { exitCodeOf, runErase, type AgentEnv } from '../agent.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import type { DriveReport, Session } from '../session/types.js';
import { JobProgress } from '../session/job-progress.js';
import { SessionInbox } from '../adapters/session-interpreter.js';
import type { SettledResult } from '../adapters/result-outbox.js';
import type { AtaMasterPasswords } from '../erase/ata-master-unlock.js';
import { CANCELLED_BY_OPERATOR } from '../erase/erase-drive.js';
import { hiddenBehindAll, NOT_ERASED, notErasedKey, type NotErasedDrive } from '../session/not-erased.js';
import { cancelView } from './cancel-power.js';
import type { CertificateFollower } from './certificate-numbers.js';
import { driveEstimate, jobWire, progressWire, resultView } from './state-view.js';
import type { HealthGrading } from '../health/grading.js';

/** What one run is asked to erase, and what the controller decides around it. */
export interface RunRequest {
  readonly devices: readonly string[];
  readonly account: string;
  /** Why the run stops before any check-in (so no quota is spent and nothing is written), or undefined. */
  refused(): Promise<string | undefined>;
  /** The drives with their plans; refused, the run fails with the reason before any check-in. */
  select(): Promise<{ ok: true; drives: DiscoveredDrive[] } | { ok: false; reason: string }>;
  /** The account's ATA master passwords under the policy read for this run (issue 30 item 1). */
  readonly ataMasterPasswords?: () => AtaMasterPasswords | undefined;
  /** The account's health grade table and self-test switch under the same policy (issue 30 item 6). */
  readonly healthGrading?: () => HealthGrading | undefined;
  /**
   * The drives the agent sees and refused to plan (not the boot medium), at the moment the run
   * starts: each gets a not-erased result in this run's check-in (issue 30 item 7).
   */
  readonly refusedDrives?: () => readonly NotErasedDrive[];
  /** The run ended (still `running` meanwhile): the devices it erased. */
  ended(erased: ReadonlySet<string>): Promise<void>;
}

/**
 * The engine's erase runs of this boot, one at a time: its phase and per-drive progress, the
 * operator's cancels, and the results (the last run's, and the drives erased earlier this boot).
 */
export class EraseRun {
  private busy = false;
  private finished: { session: Session; exitCode?: number } | undefined;
  /** Erased drives of this boot's runs before the last one, newest first (`erased_earlier`). */
  private earlierReports: DriveReport[] = [];
  private runPhase: string | undefined;
  private runReason: string | undefined;
  private progress: Record<string, DriveProgress> = {};
  private job: JobProgress | undefined;
  /** Results the outbox settled after their session ended (the gateway was down then), by job id. */
  private readonly settledLater = new Map<string, SettledResult>();
  /** Where the operator's cancel of one drive goes into the running session, and the run's drives in order. */
  private inbox: SessionInbox | undefined;
  private runDevices: readonly string[] = [];
  /** Drives the operator cancelled: sent into the session once its erase phase began, stopping meanwhile. */
  private cancelled = new Set<string>();
  private sentCancels = new Set<string>();
  /** The not-erased drives this boot's runs already reported (`notErasedKey`): never a second result for one. */
  private readonly reportedNotErased = new Set<string>();

  constructor(
    private readonly env: AgentEnv,
    private readonly recordId: string,
    private readonly certificates: CertificateFollower,
    private readonly signal: AbortSignal,
    private readonly hooks: {
      changed(): void;
      progress(view: DriveProgress): void;
      /** The drive's plan is a firmware erase (its read-back then cannot be cancelled either). */
      firmware(device: string): boolean;
    },
  ) {}

  get running(): boolean {
    return this.busy;
  }

  /** The run's part of the snapshot: its status, per-drive progress and results. */
  view(): Pick<AgentState, 'run' | 'progress' | 'results' | 'erased_earlier'> {
    const ended = this.finished && (this.finished.session.phase === 'done' || this.finished.session.phase === 'failed') ? this.finished.session : undefined;
    const reports = ended ? ended.reports.map((r) => this.withLaterDelivery(r)) : [];
    const results: DriveResult[] = reports.map((r) => resultView(r, this.certificates.view(r.jobId)));
    const erasedEarlier = this.earlierReports.map((r) => resultView(this.withLaterDelivery(r), this.certificates.view(r.jobId)));
    // A run failed only because its results were not delivered yet is, once the outbox delivered them all, the run it would have been with the gateway up.
    const deliveredLater = ended?.phase === 'failed' && reports.length > 0 && reports.every((r) => r.delivered);
    const exitCode = ended ? exitCodeOf(deliveredLater ? { phase: 'done', reports } : { ...ended, reports }) : this.finished?.exitCode;
    const runPhase = deliveredLater ? 'done' : this.runPhase;
    const runReason = deliveredLater ? undefined : this.runReason;
    return {
      run: {
        status: this.busy ? 'running' : this.finished ? 'finished' : 'idle',
        ...(runPhase ? { phase: runPhase } : {}),
        ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
        ...(runReason ? { reason: runReason } : {}),
        ...(this.busy ? { cancel: this.cancelView() } : {}),
        ...(this.job ? { job: jobWire(this.job.job()) } : {}),
      },
      progress: this.progress,
      results,
      ...(erasedEarlier.length > 0 ? { erased_earlier: erasedEarlier } : {}),
    };
  }

  /** A report as the outbox left it: a result it delivered later is delivered, with the cloud's answer. */
  private withLaterDelivery(r: DriveReport): DriveReport {
    const later = r.delivered ? undefined : this.settledLater.get(r.jobId);
    if (!later) return r;
    if (!later.delivered) return { ...r, deliveryRefused: true, error: 'the erasure service refused this result' };
    const { error: _sendError, ...rest } = r;
    return { ...rest, delivered: true, ...(later.wipeResultId ? { wipeResultId: later.wipeResultId } : {}), ...(later.certificateStatus !== undefined ? { certificateStatus: later.certificateStatus } : {}) };
  }

  /** The outbox settled a kept result: the results show it delivered (the controller follows its certificate). */
  settled(r: SettledResult): void {
    this.settledLater.set(r.jobId, r);
  }

  /** Starts a run; `running` is set before this returns, so a second start is refused at once. */
  begin(request: RunRequest): void {
    this.busy = true;
    // Cancellable from the first moment: a cancel made before the erase phase waits for it.
    this.runDevices = [...request.devices];
    void this.start(request);
  }

  /** The drives of the running erase a cancel can still stop (the rule is cancelView's). */
  cancellable(): string[] {
    if (!this.busy) return [];
    const view = this.cancelView();
    return this.runDevices.filter((d) => view[d]?.can_cancel === true);
  }

  whyNotCancel(device: string): string {
    if (!this.busy) return 'no erase is running';
    if (!this.runDevices.includes(device)) return `not a drive of this erase: ${device}`;
    if (this.cancelled.has(device)) return `${device} is already stopping`;
    return this.cancelView()[device]?.note ?? `${device} has finished`;
  }

  private cancelView() {
    return cancelView(this.progress, this.runDevices, this.cancelled, (d) => this.hooks.firmware(d));
  }

  /** Marks drives cancelled and sends what the session can take now (its erase phase). */
  cancel(devices: readonly string[]): void {
    for (const d of devices) this.cancelled.add(d);
    this.flushCancels();
  }

  /**
   * The session takes a cancel only in its erase phase (a queued drive is then reported cancelled
   * without a byte written, a running one is stopped); one made during the check-in waits for it.
   */
  private flushCancels(): void {
    if (this.runPhase !== 'erase' || !this.inbox) return;
    for (const device of this.cancelled) {
      if (this.sentCancels.has(device)) continue;
      const index = this.runDevices.indexOf(device);
      if (index < 0) continue;
      this.sentCancels.add(device);
      this.inbox.send({ type: 'cancel', index, reason: CANCELLED_BY_OPERATOR, at: this.env.now().toISOString() });
    }
  }

  private async start(request: RunRequest): Promise<void> {
    // The last run's erased drives stay marked on the Drives step for the rest of this boot.
    const erased = (this.finished?.session.phase === 'done' || this.finished?.session.phase === 'failed' ? this.finished.session.reports : []).filter((r) => r.outcome.ok);
    this.earlierReports = [...erased, ...this.earlierReports];
    this.progress = {};
    this.cancelled = new Set();
    this.sentCancels = new Set();
    this.inbox = new SessionInbox();
    this.finished = undefined;
    this.runPhase = undefined;
    this.runReason = undefined;
    this.job = undefined;
    this.hooks.changed();
    let session: Session | undefined;
    try {
      const refused = await request.refused();
      if (refused) {
        this.runReason = refused;
        this.runPhase = 'denied';
        session = { phase: 'denied', at: 'checkin', reason: refused };
        this.finished = { session, exitCode: exitCodeOf(session) };
        return;
      }
      const selection = await request.select();
      if (!selection.ok) throw new Error(selection.reason);
      this.runDevices = selection.drives.map((d) => d.device);
      const job = new JobProgress(selection.drives.map(driveEstimate), () => performance.now());
      this.job = job;
      const notErased = notErasedOf(selection.drives, request.refusedDrives?.() ?? [], this.reportedNotErased);
      const show = (device: string) => {
        const v = job.view(device);
        if (!v) return undefined;
        const view = progressWire(v);
        this.progress = { ...this.progress, [device]: view };
        return view;
      };
      session = await runErase(
        this.env,
        selection.drives,
        {
          onState: (s) => {
            this.runPhase = s.phase;
            this.flushCancels();
            // A drive that started or finished: its row changes now, not at its next report.
            for (const device of job.onState(s)) show(device);
            this.hooks.changed();
          },
          onProgress: (p) => {
            job.update(p);
            const view = show(p.device);
            if (view) this.hooks.progress(view);
          },
        },
        // The physical disks behind an erased RAID virtual disk, and the drives the agent refused
        // to plan, each get their own not-erased result in this check-in (issue 30 item 7).
        { recordId: this.recordId, account: request.account, inbox: this.inbox, ...mastersOf(request), ...gradingOf(request), ...notErased },
      );
      this.noteReported(session, notErased.notErased ?? []);
      this.finished = { session, exitCode: exitCodeOf(session) };
      if (session.phase === 'denied' || session.phase === 'failed') this.runReason = session.reason;
      this.followCertificates(session);
    } catch (error) {
      this.runReason = (error as Error).message;
      this.finished = { session: { phase: 'failed', reason: this.runReason, reports: [] }, exitCode: 3 };
    } finally {
      // A drive this run erased is done: the next run starts without it ticked (a second erase spends quota again).
      await request.ended(new Set((session?.phase === 'done' || session?.phase === 'failed' ? session.reports : []).filter((r) => r.outcome.ok).map((r) => r.outcome.device)));
      this.busy = false;
      this.hooks.changed();
    }
  }

  /** A not-erased result the session reported (delivered, or kept for later) is never sent again this boot. */
  private noteReported(session: Session, sent: readonly NotErasedDrive[]): void {
    if (session.phase !== 'done' && session.phase !== 'failed') return;
    const reported = new Set(session.reports.filter((r) => r.outcome.failureCode === NOT_ERASED).map((r) => r.outcome.device));
    for (const d of sent) if (reported.has(d.device)) this.reportedNotErased.add(notErasedKey(d));
  }

  /** Looks up the certificate numbers of the delivered, certifiable results (in the background). */
  private followCertificates(session: Session): void {
    if (session.phase !== 'done' && session.phase !== 'failed') return;
    const jobIds = session.reports.filter((r) => r.delivered && r.certificateStatus).map((r) => r.jobId);
    if (jobIds.length > 0) void this.certificates.follow(jobIds, this.signal);
  }
}

/** The run's health grading for `runErase`, read with the policy like the master passwords. */
function gradingOf(request: RunRequest): { healthGrading?: HealthGrading } {
  const grading = request.healthGrading?.();
  return grading ? { healthGrading: grading } : {};
}

/** The run's master passwords for `runErase`, read after the policy was read again for this run. */
function mastersOf(request: RunRequest): { ataMasterPasswords?: AtaMasterPasswords } {
  const masters = request.ataMasterPasswords?.();
  return masters ? { ataMasterPasswords: masters } : {};
}

/**
 * The run's not-erased drives for `runErase`: the physical disks its virtual disks hide and the
 * drives the agent refused to plan, each once, less those an earlier run of this boot reported
 * (a second Erase press or a re-probe sends no second result for one drive).
 */
function notErasedOf(drives: readonly DiscoveredDrive[], refused: readonly NotErasedDrive[], reported: ReadonlySet<string>): { notErased?: NotErasedDrive[] } {
  const seen = new Set(reported);
  const once = [...hiddenBehindAll(drives), ...refused].filter((d) => {
    const key = notErasedKey(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return once.length > 0 ? { notErased: once } : {};
}
