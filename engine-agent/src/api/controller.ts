import { EventEmitter } from 'node:events';
import type { AgentIntent, AgentState, DriveProgress, DriveResult, Fingerprint, ScreenReport, StationView } from '@erasure/shared';
import { planErase } from '../drives/plan-erase.js';
import { abortableSleep, exitCodeOf, listDrives, recordIdOf, runErase, selectDrives, type AgentEnv } from '../agent.js';
import { readErasurePolicy } from '../adapters/erasure-policy-client.js';
import { methodFor, NO_POLICY_YET, type PolicyState } from '../session/erasure-policy.js';
import { erasureView } from './erasure-view.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { ipAddresses } from '../probes/ip-addresses.js';
import { DEFAULT_LIMITS, type Session } from '../session/types.js';
import { BootGate } from './boot-gate.js';
import { describeUnfreeze, prepareDrives } from '../boot-prep/prepare-drives.js';
import { readUnfreezeSetting, saveUnfreezeSetting } from '../adapters/unfreeze-setting.js';
import { CertificateFollower, type CertificateLookup } from './certificate-numbers.js';
import { HardwareReporter, type ReportPorts } from './hardware-report.js';
import { JobProgress } from '../session/job-progress.js';
import { driveEstimate, driveView, jobWire, progressWire, resultView } from './state-view.js';
import { StationController, type StationRuntimePorts } from './station-controller.js';
import type { ErasePolicy } from '../station/station.js';
import type { SettledResult } from '../adapters/result-outbox.js';
import type { DriveReport } from '../session/types.js';
import { SessionInbox } from '../adapters/session-interpreter.js';
import { resultOutbox } from '../adapters/result-outbox.js';
import { outboxKeptIn, type KeptIn } from '../adapters/outbox-storage.js';
import { CANCELLED_BY_OPERATOR } from '../erase/erase-drive.js';
import { cancelView, powerCommand, type PowerAction } from './cancel-power.js';
import { ScreenHealth } from './screen-health.js';
import { ValidationDesk } from './validate-intent.js';

/** The gateway calls of serve besides the session's own: the hardware reports and the certificate lookup. */
export interface ControllerPorts extends ReportPorts {
  readonly lookupCertificates: CertificateLookup;
  /**
   * Present on a hotswap station: builds the station's ports once the boot is unlocked (the
   * account and the boot's fingerprint are known then), with its erase policy.
   */
  readonly station?: {
    readonly policy: ErasePolicy;
    /** Why the station refuses to start (see `stationTokenRefusal`): it then never watches drives or checks in. */
    readonly refused?: string;
    ports(boot: { account: string; recordId: string; fingerprint: () => Promise<Fingerprint> }, certificates: { follow(jobId: string): void; numberOf(jobId: string): string | undefined }): StationRuntimePorts;
    /** The boot's fingerprint as the chassis reports it (see BootGateHooks.chassis). */
    chassis?(collected: Fingerprint): Promise<Fingerprint>;
  };
  /** The operator's "Send now": one outbox delivery round at once; absent where nothing redelivers. */
  readonly sendResultsNow?: () => Promise<{ delivered: number; refused: number; kept: number }>;
}

/** Result of an intent: refused intents change nothing and say why. */
export type IntentOutcome = { ok: true } | { ok: false; reason: string };

/** How long the kiosk shows "the screen goes dark for a few seconds" before the machine sleeps. */
export const SUSPEND_NOTICE_MS = 3000;

/** The phrase the operator types to confirm erasing `n` drives. */
export const confirmationPhrase = (n: number): string => `ERASE ${n} DRIVE${n === 1 ? '' : 'S'}`;

/**
 * Holds the agent's state for the kiosk and applies operator intents; emits `change` with every
 * new snapshot and `progress` with per-drive progress. All rules live here (the kiosk mirrors):
 * nothing is allowed before verify unlocked this boot, a selection needs the typed
 * confirmation, and nothing changes the selection while a run erases drives. The boot itself is
 * the BootGate's; after a run, the certificate numbers are followed by a CertificateFollower.
 */
export class KioskController extends EventEmitter {
  private readonly recordId: string;
  /** Aborted on shutdown: in-flight gateway calls and retry waits end at once. */
  private readonly shutdown = new AbortController();
  private readonly gate: BootGate;
  private readonly certificates: CertificateFollower;
  private drives: DiscoveredDrive[] = [];
  private selected: string[] = [];
  /** The operator's method per selected device (issue 29); a device not in it gets the default. */
  private methods: Readonly<Record<string, string>> = {};
  private confirmed = false;
  private running = false;
  private finished: { session: Session; exitCode?: number } | undefined;
  /** Erased drives of this boot's runs before the last one, newest first (`erased_earlier`). */
  private earlierReports: DriveReport[] = [];
  private runPhase: string | undefined;
  private runReason: string | undefined;
  private progress: Record<string, DriveProgress> = {};
  private job: JobProgress | undefined;
  private readonly reporter: HardwareReporter;
  private station: StationController | undefined;
  /** The boot's drive preparation ran (once per process; once per boot is the boot state's). */
  private prepared = false;
  /** The machine is about to sleep for the freeze lock removal. */
  private suspending = false;
  /** The freeze lock removal setting and what it did this boot (absent until the drives were prepared). */
  private unfreeze: NonNullable<AgentState['unfreeze']> | undefined;
  /** Results the outbox settled after their session ended (the gateway was down then), by job id. */
  private readonly settledLater = new Map<string, SettledResult>();
  /** Where the operator's cancel of one drive goes into the running session, and the run's drives in order. */
  private inbox: SessionInbox | undefined;
  private runDevices: readonly string[] = [];
  /** Drives the operator cancelled: sent into the session once its erase phase began, stopping meanwhile. */
  private cancelled = new Set<string>();
  private sentCancels = new Set<string>();
  /** Results still waiting in the outbox (a shutdown then needs a second confirmation), and the last power action. */
  private pendingResults = 0;
  private lastPower: string | undefined;
  /** Whether those results survive a power cut (the outbox on a disk) or not (in memory): the warning says which. */
  private keptIn: KeptIn | undefined;
  /** The machine's own screen, as the kiosk shell's watchdog reports it. */
  private readonly screen = new ScreenHealth();
  /** The erasure policy of this boot (issue 29): none until read after verify allowed, and then nothing is erased. */
  private policy: PolicyState = NO_POLICY_YET;
  /** The operator's method per drive, where it is not the policy's default. */
  private chosen = new Map<string, string>();
  private readonly validation = new ValidationDesk({ env: () => this.env, signal: () => this.shutdown.signal, changed: () => this.changed() });

  constructor(
    private readonly env: AgentEnv,
    private readonly ports: ControllerPorts,
  ) {
    super();
    this.recordId = recordIdOf(env.now());
    this.reporter = new HardwareReporter(ports, () => this.changed());
    this.gate = new BootGate(env, this.recordId, this.shutdown.signal, {
      changed: () => this.changed(),
      // A station lists no drives up front: its bays show them as they are seated.
      beforeCheck: async () => void (this.drives = ports.station ? [] : await this.prepareDrives()),
      recordAcknowledged: () => this.reporter.recordAcknowledged(),
      recordFailed: () => this.reporter.recordFailed(),
      ...(ports.station?.chassis ? { chassis: ports.station.chassis } : {}),
    });
    const delays = (env.limits ?? DEFAULT_LIMITS).certificateLookupDelaysMs;
    this.certificates = new CertificateFollower(ports.lookupCertificates, abortableSleep(env.sleep, this.shutdown.signal), delays, () => this.changed());
  }

  /**
   * The drives at boot: prepared once by this process (a sanitize left running or failed said,
   * frozen drives unfrozen by one suspend and resume per boot), listed plainly after that. The
   * kiosk shows the `unfreeze` phase before the screen goes dark.
   */
  private async prepareDrives(): Promise<DiscoveredDrive[]> {
    if (this.prepared || this.env.config.ERASURE_SIMULATE) return listDrives(this.env);
    this.prepared = true;
    const say = (line: string) => process.stdout.write(`erasure-agent: ${line}\n`);
    const setting = await readUnfreezeSetting(this.env.config.DATA_DIR, this.env.config.ERASURE_UNFREEZE);
    this.unfreeze = { mode: setting.mode === 'off' ? 'off' : 'auto', source: setting.source };
    const { drives, unfreeze } = await prepareDrives({
      run: this.env.run,
      sys: this.env.sys,
      now: this.env.now,
      dataDir: this.env.config.DATA_DIR,
      unfreeze: setting,
      list: (policy) => listDrives(this.env, policy),
      say,
      beforeSuspend: async () => {
        this.suspending = true;
        this.changed();
        // The kiosk needs a moment to show what is about to happen before the screen goes dark.
        await this.env.sleep(SUSPEND_NOTICE_MS);
      },
      writing: () => this.running,
    }).finally(() => {
      this.suspending = false;
    });
    this.unfreeze = { ...this.unfreeze, this_boot: describeUnfreeze(unfreeze) };
    return drives;
  }

  /** This boot's fingerprint (collected once; the asset report re-sent later uses it too). */
  fingerprint(): Promise<Fingerprint> {
    return this.gate.fingerprint();
  }

  /** The boot record id every report of this session carries. */
  get record(): string {
    return this.recordId;
  }

  /** The current snapshot (the `AgentState` contract). */
  snapshot(): AgentState {
    const unlocked = this.gate.unlocked;
    // A station erases bay by bay; the engine's select-and-start flow is closed.
    const idle = unlocked && !this.running && !this.ports.station;
    const ended = this.finished && (this.finished.session.phase === 'done' || this.finished.session.phase === 'failed') ? this.finished.session : undefined;
    const reports = ended ? ended.reports.map((r) => this.withLaterDelivery(r)) : [];
    const results: DriveResult[] = reports.map((r) => resultView(r, this.certificates.view(r.jobId)));
    const erasedEarlier = this.earlierReports.map((r) => resultView(this.withLaterDelivery(r), this.certificates.view(r.jobId)));
    // A run failed only because its results were not delivered yet is, once the outbox delivered them all, the run it would have been with the gateway up.
    const deliveredLater = ended?.phase === 'failed' && reports.length > 0 && reports.every((r) => r.delivered);
    const exitCode = ended ? exitCodeOf(deliveredLater ? { phase: 'done', reports } : { ...ended, reports }) : this.finished?.exitCode;
    const runPhase = deliveredLater ? 'done' : this.runPhase;
    const runReason = deliveredLater ? undefined : this.runReason;
    const machine = this.gate.machine;
    return {
      record_id: this.recordId,
      locked: !unlocked,
      // Where this machine is on the network and which gateway it tries: what a locked screen needs to be acted on.
      boot: { ...this.gate.view(), ...(this.suspending ? { phase: 'unfreeze' as const } : {}), addresses: ipAddresses(), gateway_url: this.env.config.ERASURE_GATEWAY_URL },
      ...(machine ? { fingerprint: machine } : {}),
      drives: this.drives.map(driveView),
      selected: this.selected,
      confirmation: { phrase: this.selected.length > 0 ? confirmationPhrase(this.selected.length) : null, confirmed: this.confirmed },
      run: {
        status: this.running ? 'running' : this.finished ? 'finished' : 'idle',
        ...(runPhase ? { phase: runPhase } : {}),
        ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
        ...(runReason ? { reason: runReason } : {}),
        ...(this.running ? { cancel: this.cancelView() } : {}),
        ...(this.job ? { job: jobWire(this.job.job()) } : {}),
      },
      progress: this.progress,
      ...(unlocked ? { erasure: erasureView(this.policy, this.drives.map((d) => d.device), (d) => this.methodOf(d), (d, m) => this.planRefusal(d, m)) } : {}),
      results,
      ...(erasedEarlier.length > 0 ? { erased_earlier: erasedEarlier } : {}),
      ...this.reporter.view(),
      ...(this.unfreeze ? { unfreeze: this.unfreeze } : {}),
      ...this.screen.view(),
      ...(this.ports.station ? { station: this.station?.view() ?? stationBeforeStart(this.ports.station) } : {}),
      ...this.validation.view(),
      can: {
        refresh: idle,
        select: idle,
        confirm: idle && this.selected.length > 0 && !this.confirmed,
        start: idle && this.selected.length > 0 && this.confirmed && this.policy.ok,
        set_test_result: unlocked,
        set_notes: unlocked,
        retry: this.gate.canRetry,
        cancel_all: this.running && this.cancellable().length > 0,
        shutdown: !this.running,
        restart: !this.running,
      },
      power: { pending_results: this.pendingResults, ...(this.keptIn ? { kept_in: this.keptIn } : {}), ...(this.lastPower ? { last: this.lastPower } : {}) },
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

  /**
   * The outbox settled a kept result (serve's redelivery, or Send now): the results screen shows
   * it delivered and, when it is certifiable, its certificate number is followed as after a run.
   */
  resultSettled(r: SettledResult): void {
    this.settledLater.set(r.jobId, r);
    if (r.delivered && r.certificateStatus) void this.certificates.follow([r.jobId], this.shutdown.signal);
    this.changed();
    // It left the outbox: a Shut down or Restart must no longer warn about it (issue 28 item 8).
    void this.countPending().then(() => this.changed());
  }

  /** Counts the results still waiting in the outbox, the one place that knows, and where it keeps them. */
  private async countPending(): Promise<number> {
    const dataDir = this.env.config.DATA_DIR;
    this.pendingResults = (await resultOutbox(dataDir).pending().catch(() => [])).length;
    this.keptIn ??= await outboxKeptIn(this.env.sys, dataDir);
    return this.pendingResults;
  }

  /** The kiosk shell reported the screen (shown, blank, or reloaded and why); every reload is logged. */
  screenReported(r: ScreenReport): void {
    // One journal line per reload: control characters in the reported reason cannot start another.
    if (r.status === 'reloaded') process.stdout.write(`erasure-agent: the kiosk screen was reloaded: ${(r.reason ?? 'no reason given').replace(/[\u0000-\u001f\u007f]/g, ' ')}\n`);
    this.screen.report(r, this.env.now().toISOString(), process.memoryUsage().rss);
    this.changed();
  }

  private changed(): void {
    // After shutdown, aborted calls still settle; nobody is listening for what they change.
    if (this.shutdown.signal.aborted) return;
    this.emit('change', this.snapshot());
  }

  /** Unlocks this boot: health, verify and the asset report, once (spec 1.9); see BootGate. */
  async bootUp(): Promise<void> {
    await this.gate.check();
    await this.readPolicy();
    await this.startStation();
  }

  /**
   * Reads the erasure policy this boot erases under (the token's contract, else the account's),
   * once verify allowed it. Anything but a policy that reads (no answer, a refusal, a garbled
   * one) leaves the agent without one, and it erases nothing until a later read succeeds.
   */
  private async readPolicy(): Promise<PolicyState> {
    if (!this.gate.unlocked) return this.policy;
    this.policy = await readErasurePolicy(this.env, this.shutdown.signal);
    if (!this.policy.ok) process.stdout.write(`erasure-agent: nothing can be erased: ${this.policy.reason}\n`);
    this.changed();
    return this.policy;
  }

  /** A station starts once this boot is unlocked (at boot, or after a retry that unlocked it). */
  private async startStation(): Promise<void> {
    const spec = this.ports.station;
    if (!spec || spec.refused || this.station || !this.gate.unlocked || this.shutdown.signal.aborted) return;
    const ports = spec.ports(
      { account: this.gate.account ?? '', recordId: this.recordId, fingerprint: () => this.fingerprint() },
      {
        follow: (jobId) => void this.certificates.follow([jobId], this.shutdown.signal),
        numberOf: (jobId) => this.certificates.view(jobId)?.certificate_number ?? undefined,
      },
    );
    this.station = new StationController(ports, spec.policy, () => this.changed());
    await this.station.start();
  }

  /** A station intent; refused before the station runs. */
  private async applyStation(intent: Extract<AgentIntent, { type: 'station_wizard' | 'station_remap' | 'station_policy' | 'bay_confirm' | 'bay_cancel' | 'bay_locate' }>): Promise<IntentOutcome> {
    const station = this.station;
    if (!station) return { ok: false, reason: this.ports.station ? 'the station starts once this boot is unlocked' : 'this machine is not a hotswap station' };
    switch (intent.type) {
      case 'station_wizard':
        return station.wizardStep(intent.step);
      case 'station_remap':
        return station.remap();
      case 'station_policy':
        return station.setPolicy(intent.policy);
      case 'bay_confirm':
        return station.confirm(intent.lane);
      case 'bay_cancel':
        return station.cancel(intent.lane);
      case 'bay_locate':
        return station.locate(intent.lane);
    }
  }

  /** Applies an intent; a refused intent returns the reason and changes nothing. */
  async apply(intent: AgentIntent): Promise<IntentOutcome> {
    const can = this.snapshot().can;
    const locked = !this.gate.unlocked;
    const boot = this.gate.view();
    const why = locked ? `locked: this boot is not unlocked (${boot.phase}${boot.reason ? `: ${boot.reason}` : ''})` : 'a session is running';
    switch (intent.type) {
      case 'validate_drive':
        return this.validation.apply(intent, locked ? why : this.running ? 'an erase is running: validate a drive once it has finished' : undefined);
      case 'retry':
        if (!this.gate.retry(() => void this.readPolicy().then(() => this.startStation()))) return { ok: false, reason: locked ? `no check to retry now (${boot.phase})` : 'this boot is already unlocked' };
        break;
      case 'station_wizard':
      case 'station_remap':
      case 'station_policy':
      case 'bay_confirm':
      case 'bay_cancel':
      case 'bay_locate':
        return locked ? { ok: false, reason: why } : this.applyStation(intent);
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
        // The operator's method per drive (issue 29): refused for a drive, nothing is selected.
        const methods = intent.methods ?? {};
        for (const [device, methodId] of Object.entries(methods)) {
          const drive = byDevice.get(device);
          if (!drive || !intent.devices.includes(device)) return { ok: false, reason: `a method was chosen for ${device}, which is not selected` };
          const plan = planErase(drive.capabilities, { methodId });
          if (!plan.ok) return { ok: false, reason: `${device}: ${plan.reason}` };
        }
        this.methods = methods;
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
      case 'choose_method': {
        if (!can.select) return { ok: false, reason: why };
        if (!this.drives.some((d) => d.device === intent.device)) return { ok: false, reason: `not a drive of this machine: ${intent.device}` };
        const method = methodFor(this.policy, intent.method);
        if (!method.ok) return { ok: false, reason: method.reason };
        this.chosen.set(intent.device, method.method);
        break;
      }
      case 'start':
        if (!can.start && !locked && !this.running && !this.policy.ok) return { ok: false, reason: `nothing can be erased: ${this.policy.reason}` };
        if (!can.start) return { ok: false, reason: locked || this.running ? why : 'select drives and type the confirmation first' };
        this.running = true; // set before returning, so a second start is refused at once
        // Cancellable from the first moment: a cancel made before the erase phase waits for it.
        this.runDevices = [...this.selected];
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
      case 'send_results': {
        if (!this.ports.sendResultsNow) return { ok: false, reason: 'this agent does not keep results to send' };
        const r = await this.ports.sendResultsNow();
        if (r.kept > 0) return { ok: false, reason: `the erasure service is still unreachable: ${r.kept} result(s) stay saved on this machine and are sent again every minute` };
        break;
      }
      case 'cancel_drive': {
        const allowed = this.cancellable();
        if (!allowed.includes(intent.device)) return { ok: false, reason: this.whyNotCancel(intent.device) };
        this.cancel([intent.device]);
        break;
      }
      case 'cancel_all': {
        const allowed = this.cancellable();
        if (allowed.length === 0) return { ok: false, reason: this.running ? 'no drive can be cancelled now' : 'no erase is running' };
        this.cancel(allowed);
        break;
      }
      case 'shutdown':
      case 'restart':
        return this.power(intent.type === 'shutdown' ? 'poweroff' : 'reboot', intent.pending_ok === true);
      case 'set_unfreeze':
        if (locked) return { ok: false, reason: why };
        if (!this.unfreeze) return { ok: false, reason: 'freeze lock removal does not apply here (simulated machine)' };
        // Saved for the next boots: this boot's removal ran (or not) before the checks.
        await saveUnfreezeSetting(this.env.config.DATA_DIR, intent.mode);
        this.unfreeze = { ...this.unfreeze, mode: intent.mode, source: 'kiosk setting' };
        break;
    }
    this.changed();
    return { ok: true };
  }

  /** The drives of the running erase a cancel can still stop (the rule is cancelView's). */
  private cancellable(): string[] {
    if (!this.running) return [];
    const view = this.cancelView();
    return this.runDevices.filter((d) => view[d]?.can_cancel === true);
  }

  private whyNotCancel(device: string): string {
    if (!this.running) return 'no erase is running';
    if (!this.runDevices.includes(device)) return `not a drive of this erase: ${device}`;
    if (this.cancelled.has(device)) return `${device} is already stopping`;
    return this.cancelView()[device]?.note ?? `${device} has finished`;
  }

  private cancelView() {
    const firmware = (device: string) => {
      const plan = this.drives.find((d) => d.device === device)?.plan;
      return plan?.ok === true && plan.method !== 'overwrite';
    };
    return cancelView(this.progress, this.runDevices, this.cancelled, firmware);
  }

  /** Marks drives cancelled and sends what the session can take now (its erase phase). */
  private cancel(devices: readonly string[]): void {
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

  /**
   * Shut down or restart through the one runner, never while an erase runs, and with results
   * still waiting only once the operator confirmed that too. A simulated machine only says what it would do.
   */
  private async power(action: PowerAction, pendingOk: boolean): Promise<IntentOutcome> {
    const word = action === 'poweroff' ? 'shut down' : 'restart';
    if (this.running) return { ok: false, reason: `an erase is running: the machine cannot ${word} now` };
    await this.countPending();
    if (this.pendingResults > 0 && !pendingOk) {
      this.changed();
      return { ok: false, reason: `${this.pendingResults} result(s) are still waiting to be sent: confirm again to ${word} anyway` };
    }
    const command = powerCommand(action);
    if (this.env.config.ERASURE_SIMULATE) {
      this.lastPower = `Simulated machine: it would ${word} now (${command.tool} ${command.args.join(' ')}); nothing was run.`;
      process.stdout.write(`erasure-agent: ${this.lastPower}\n`);
    } else {
      const r = await this.env.run(command.tool, command.args, { timeoutMs: 30_000 }).catch((error: unknown) => ({ exitCode: null, stderr: (error as Error).message }));
      if (r.exitCode !== 0) return { ok: false, reason: `${command.tool} ${command.args.join(' ')} failed: ${r.stderr.trim() || `exit ${r.exitCode}`}` };
      this.lastPower = `The machine is ${action === 'poweroff' ? 'shutting down' : 'restarting'}.`;
    }
    this.changed();
    return { ok: true };
  }

  private async start(): Promise<void> {
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
    // The last run's "it would shut down now" is about that run, not this one.
    this.lastPower = undefined;
    this.changed();
    let session: Session | undefined;
    try {
      // The policy is read again now: one changed since the boot (a contract revised, a method
      // withdrawn) decides, and a drive whose method it no longer allows stops the run before
      // any check-in, so no quota is spent and nothing is written.
      const refused = await this.methodsRefused();
      if (refused) {
        this.runReason = refused;
        this.runPhase = 'denied';
        session = { phase: 'denied', at: 'checkin', reason: refused };
        this.finished = { session, exitCode: exitCodeOf(session) };
        return;
      }
      // Each drive is planned with its method under the policy read now (the planner refuses a
      // method that cannot reach every sector of that drive, and nothing starts then).
      const methods = Object.fromEntries(this.selected.map((d) => [d, this.methodOf(d) ?? (this.policy.ok ? this.policy.policy.default_method : '')]));
      const selection = await selectDrives(this.env, this.selected, undefined, { ...(this.policy.ok ? { erasure: this.policy.policy } : {}), methods });
      if (!selection.ok) throw new Error(selection.reason);
      this.runDevices = selection.drives.map((d) => d.device);
      const job = new JobProgress(selection.drives.map(driveEstimate), () => performance.now());
      this.job = job;
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
            this.changed();
          },
          onProgress: (p) => {
            job.update(p);
            const view = show(p.device);
            if (view) this.emit('progress', view);
          },
        },
        { recordId: this.recordId, account: this.gate.account ?? '', inbox: this.inbox },
      );
      this.finished = { session, exitCode: exitCodeOf(session) };
      if (session.phase === 'denied' || session.phase === 'failed') this.runReason = session.reason;
      this.followCertificates(session);
    } catch (error) {
      this.runReason = (error as Error).message;
      this.finished = { session: { phase: 'failed', reason: this.runReason, reports: [] }, exitCode: 3 };
    } finally {
      await this.countPending();
      // A drive this run erased is done: the next run starts without it ticked (a second erase spends quota again).
      const erased = new Set((session?.phase === 'done' || session?.phase === 'failed' ? session.reports : []).filter((r) => r.outcome.ok).map((r) => r.outcome.device));
      this.selected = this.selected.filter((d) => !erased.has(d));
      this.running = false;
      this.confirmed = false;
      this.changed();
    }
  }

  /** The operator's method for a drive: chosen on its row, else with the selection; undefined: the policy's default. */
  private methodOf(device: string): string | undefined {
    return this.chosen.get(device) ?? this.methods[device];
  }

  /** Why the chosen method cannot be erased with on a drive under the policy (the planner's word), or undefined. */
  private planRefusal(device: string, methodId: string): string | undefined {
    const drive = this.drives.find((d) => d.device === device);
    if (!drive || !drive.plan.ok || !this.policy.ok) return undefined;
    const plan = planErase(drive.capabilities, { erasure: this.policy.policy, methodId });
    return plan.ok ? undefined : plan.reason;
  }

  /** Why the selected drives cannot be erased under the policy read now, or undefined when each one's method is allowed. */
  private async methodsRefused(): Promise<string | undefined> {
    const policy = await this.readPolicy();
    for (const device of this.selected) {
      const method = methodFor(policy, this.methodOf(device));
      if (!method.ok) return policy.ok ? `${method.reason} (drive ${device}). Choose an allowed method on the Drives step.` : method.reason;
    }
    return undefined;
  }

  /** Looks up the certificate numbers of the delivered, certifiable results (in the background). */
  private followCertificates(session: Session): void {
    if (session.phase !== 'done' && session.phase !== 'failed') return;
    const jobIds = session.reports.filter((r) => r.delivered && r.certificateStatus).map((r) => r.jobId);
    if (jobIds.length > 0) void this.certificates.follow(jobIds, this.shutdown.signal);
  }

  /** Server shutdown: aborts gateway calls and waits of the boot and the lookups, stops timers. */
  close(): Promise<void> {
    this.shutdown.abort();
    this.reporter.close();
    return this.station?.close() ?? Promise.resolve();
  }
}

/** The station before it runs: waiting for this boot to unlock, or refused for good (the kiosk says why). */
function stationBeforeStart(spec: NonNullable<ControllerPorts['station']>): StationView {
  return spec.refused
    ? { phase: 'failed', reason: spec.refused, policy: spec.policy, bays: [], unmapped: [], watching: false }
    : { phase: 'waiting_for_unlock', policy: spec.policy, bays: [], unmapped: [], watching: false };
}
