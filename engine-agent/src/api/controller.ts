import { EventEmitter } from 'node:events';
import type { AgentIntent, AgentState, BootPhase, DriveProgress, DriveResult } from '@erasure/shared';
import { exitCodeOf, listDrives, recordIdOf, runErase, selectDrives, type AgentEnv } from '../agent.js';
import type { DiscoveredDrive } from '../drives/discover.js';
import type { Session } from '../session/types.js';
import { HardwareReporter, type ReportPorts } from './hardware-report.js';
import { driveView, progressTracker, resultView } from './state-view.js';

/** Result of an intent: refused intents change nothing and say why. */
export type IntentOutcome = { ok: true } | { ok: false; reason: string };

/** The phrase the operator types to confirm erasing `n` drives. */
export const confirmationPhrase = (n: number): string => `ERASE ${n} DRIVE${n === 1 ? '' : 'S'}`;

/**
 * Holds the agent's state for the kiosk and applies operator intents; emits `change` with every
 * new snapshot and `progress` with per-drive progress. All rules live here (the kiosk mirrors):
 * nothing is allowed before verify unlocked this boot, a selection needs the typed
 * confirmation, and nothing changes the selection while a run erases drives.
 */
export class KioskController extends EventEmitter {
  private readonly recordId: string;
  private boot: { phase: BootPhase; account?: string; reason?: string; assetId?: string } = { phase: 'starting' };
  private drives: DiscoveredDrive[] = [];
  private selected: string[] = [];
  private confirmed = false;
  private running = false;
  private finished: { session: Session; exitCode?: number } | undefined;
  private runPhase: string | undefined;
  private runReason: string | undefined;
  private progress: Record<string, DriveProgress> = {};
  private readonly reporter: HardwareReporter;

  constructor(
    private readonly env: AgentEnv,
    ports: ReportPorts,
  ) {
    super();
    this.recordId = recordIdOf(env.now());
    this.reporter = new HardwareReporter(ports, () => this.changed());
  }

  /** The boot record id every report of this session carries. */
  get record(): string {
    return this.recordId;
  }

  /** The current snapshot (the `AgentState` contract). */
  snapshot(): AgentState {
    const unlocked = this.boot.phase === 'unlocked';
    const idle = unlocked && !this.running;
    const reports = this.finished && (this.finished.session.phase === 'done' || this.finished.session.phase === 'failed') ? this.finished.session.reports : [];
    const results: DriveResult[] = reports.map(resultView);
    return {
      record_id: this.recordId,
      locked: !unlocked,
      boot: { phase: this.boot.phase, ...(this.boot.account ? { account: this.boot.account } : {}), ...(this.boot.reason ? { reason: this.boot.reason } : {}), ...(this.boot.assetId ? { asset_id: this.boot.assetId } : {}) },
      drives: this.drives.map(driveView),
      selected: this.selected,
      confirmation: { phrase: this.selected.length > 0 ? confirmationPhrase(this.selected.length) : null, confirmed: this.confirmed },
      run: {
        status: this.running ? 'running' : this.finished ? 'finished' : 'idle',
        ...(this.runPhase ? { phase: this.runPhase } : {}),
        ...(this.finished?.exitCode !== undefined ? { exit_code: this.finished.exitCode } : {}),
        ...(this.runReason ? { reason: this.runReason } : {}),
      },
      progress: this.progress,
      results,
      ...this.reporter.view(),
      can: {
        refresh: idle,
        select: idle,
        confirm: idle && this.selected.length > 0 && !this.confirmed,
        start: idle && this.selected.length > 0 && this.confirmed,
        set_test_result: unlocked,
        set_notes: unlocked,
      },
    };
  }

  private changed(): void {
    this.emit('change', this.snapshot());
  }

  /**
   * Unlocks this boot: health, verify and the asset report, once (spec 1.9). Drives are listed
   * first so the locked screen can already show them. Only `allow: true` unlocks (fail closed).
   */
  async bootUp(): Promise<void> {
    try {
      await this.unlock();
    } catch (error) {
      // Stays locked (fail closed), and says why.
      this.boot = { phase: 'denied', reason: `boot failed: ${(error as Error).message}` };
      this.changed();
    }
  }

  private async unlock(): Promise<void> {
    this.drives = await listDrives(this.env);
    this.boot = { phase: 'health' };
    this.changed();
    let account: string | undefined;
    const end = await runErase(
      this.env,
      [],
      {
        onState: (s) => {
          if (s.phase === 'record' && !account) {
            account = s.account;
            // Verify allowed: the kiosk unlocks now; the asset report runs on behind it.
            this.boot = { phase: 'unlocked', account };
            this.changed();
          } else if (s.phase === 'health' || s.phase === 'verify') {
            this.boot = { phase: s.phase };
            this.changed();
          }
        },
        onRecord: (ev) => {
          if (!ev.ok) return;
          this.boot = { ...this.boot, assetId: ev.assetId };
          this.reporter.recordAcknowledged();
          this.changed();
        },
      },
      { recordId: this.recordId },
    );
    if (end.phase === 'denied') this.boot = { phase: 'denied', reason: end.reason };
    else if (!this.boot.assetId) this.reporter.recordFailed();
    this.changed();
  }

  /** Applies an intent; a refused intent returns the reason and changes nothing. */
  async apply(intent: AgentIntent): Promise<IntentOutcome> {
    const can = this.snapshot().can;
    const locked = this.boot.phase !== 'unlocked';
    const why = locked ? `locked: this boot is not unlocked (${this.boot.phase}${this.boot.reason ? `: ${this.boot.reason}` : ''})` : 'a session is running';
    switch (intent.type) {
      case 'refresh':
        if (!can.refresh) return { ok: false, reason: why };
        this.drives = await listDrives(this.env);
        this.selected = this.selected.filter((d) => this.drives.some((x) => x.device === d));
        break;
      case 'select': {
        if (!can.select) return { ok: false, reason: why };
        const byDevice = new Map(this.drives.map((d) => [d.device, d]));
        const unknown = intent.devices.filter((d) => !byDevice.has(d));
        if (unknown.length > 0) return { ok: false, reason: `not drives of this machine: ${unknown.join(', ')}` };
        const unplanned = intent.devices.filter((d) => byDevice.get(d)?.plan.ok === false);
        if (unplanned.length > 0) return { ok: false, reason: `no erase method can run on: ${unplanned.join(', ')}` };
        this.selected = [...new Set(intent.devices)];
        this.confirmed = false; // a new selection needs a new confirmation
        break;
      }
      case 'confirm': {
        if (!can.confirm) return { ok: false, reason: locked || this.running ? why : this.selected.length === 0 ? 'nothing selected' : 'already confirmed' };
        const phrase = confirmationPhrase(this.selected.length);
        if (intent.text.trim().toUpperCase() !== phrase) return { ok: false, reason: `type "${phrase}" to confirm` };
        this.confirmed = true;
        break;
      }
      case 'start':
        if (!can.start) return { ok: false, reason: locked || this.running ? why : 'select drives and type the confirmation first' };
        this.running = true; // set before returning, so a second start is refused at once
        void this.start();
        return { ok: true };
      case 'set_test_result':
        if (!can.set_test_result) return { ok: false, reason: why };
        this.reporter.setTest(intent.id, { status: intent.status, ...(intent.detail !== undefined ? { detail: intent.detail } : {}) });
        break;
      case 'set_notes':
        if (!can.set_notes) return { ok: false, reason: why };
        this.reporter.setNotes(intent.notes);
        break;
    }
    this.changed();
    return { ok: true };
  }

  private async start(): Promise<void> {
    this.progress = {};
    this.finished = undefined;
    this.runPhase = undefined;
    this.runReason = undefined;
    this.changed();
    const track = progressTracker();
    let session: Session | undefined;
    try {
      const selection = await selectDrives(this.env, this.selected);
      if (!selection.ok) throw new Error(selection.reason);
      session = await runErase(
        this.env,
        selection.drives,
        {
          onState: (s) => {
            this.runPhase = s.phase;
            this.changed();
          },
          onProgress: (p) => {
            const view = track(p);
            this.progress = { ...this.progress, [p.device]: view };
            this.emit('progress', view);
          },
        },
        { recordId: this.recordId, account: this.boot.account ?? '' },
      );
      this.finished = { session, exitCode: exitCodeOf(session) };
      if (session.phase === 'denied' || session.phase === 'failed') this.runReason = session.reason;
    } catch (error) {
      this.runReason = (error as Error).message;
      this.finished = { session: { phase: 'failed', reason: this.runReason, reports: [] }, exitCode: 3 };
    } finally {
      this.running = false;
      this.confirmed = false;
      this.changed();
    }
  }

  /** Stops timers (server shutdown). */
  close(): void {
    this.reporter.close();
  }
}
