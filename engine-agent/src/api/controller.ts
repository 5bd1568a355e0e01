import { EventEmitter } from 'node:events';
import type { AgentIntent, AgentState, Fingerprint, ScreenReport } from '@erasure/shared';
import { abortableSleep, listDrives, machinePolicy, recordIdOf, selectDrives, type AgentEnv } from '../agent.js';
import { readErasurePolicy } from '../adapters/erasure-policy-client.js';
import { NO_POLICY_YET, type PolicyState } from '../session/erasure-policy.js';
import { withMasterPlans } from './master-plans.js';
import { erasureView } from './erasure-view.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { ipAddresses } from '../probes/ip-addresses.js';
import { DEFAULT_LIMITS } from '../session/types.js';
import { refusedToPlan } from '../session/not-erased.js';
import { BootGate } from './boot-gate.js';
import { CertificateFollower, type CertificateLookup } from './certificate-numbers.js';
import { HardwareReporter, type ReportPorts } from './hardware-report.js';
import { driveView } from './state-view.js';
import { StationController, type StationRuntimePorts } from './station-controller.js';
import type { ErasePolicy } from '../station/station.js';
import type { ErasePolicy as PlanAdditions } from '../drives/plan-erase.js';
import type { SettledResult } from '../adapters/result-outbox.js';
import { ScreenHealth } from './screen-health.js';
import { DrivePreparation } from './drive-preparation.js';
import { PowerControl } from './power-control.js';
import { EraseRun } from './erase-run.js';
import { MethodChoices } from './method-choices.js';
import { markOwnMedia } from '../safety/own-media.js';
import { applyStationIntent, stationBeforeStart } from './station-intents.js';
import type { IntentOutcome } from './intent-outcome.js';
import { ValidationDesk } from './validate-intent.js';
import { PsidDesk } from './psid-intent.js';

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

/** The phrase the operator types to confirm erasing `n` drives. */
export const confirmationPhrase = (n: number): string => `ERASE ${n} DRIVE${n === 1 ? '' : 'S'}`;

/**
 * Holds the agent's state for the kiosk and applies operator intents; emits `change` with every
 * new snapshot and `progress` with per-drive progress. All rules live here (the kiosk mirrors):
 * nothing is allowed before verify unlocked this boot, a selection needs the typed
 * confirmation, and nothing changes the selection while a run erases drives. The boot itself is
 * the BootGate's, the erase runs the EraseRun's; after a run, the certificate numbers are
 * followed by a CertificateFollower.
 */
export class KioskController extends EventEmitter {
  private readonly recordId: string;
  /** Aborted on shutdown: in-flight gateway calls and retry waits end at once. */
  private readonly shutdown = new AbortController();
  private readonly gate: BootGate;
  private readonly certificates: CertificateFollower;
  private readonly preparation: DrivePreparation;
  private readonly power: PowerControl;
  private readonly run: EraseRun;
  private drives: DiscoveredDrive[] = [];
  /** What this machine adds to every plan (agent.ts `machinePolicy`), read with the drives: a method is checked with it. */
  private machine: PlanAdditions = {};
  private selected: string[] = [];
  /** The operator's method per drive (issue 29); a drive without one gets the policy's default. */
  private readonly choices = new MethodChoices();
  private confirmed = false;
  private readonly reporter: HardwareReporter;
  private station: StationController | undefined;
  /** The machine's own screen, as the kiosk shell's watchdog reports it. */
  private readonly screen = new ScreenHealth();
  /** The erasure policy of this boot (issue 29): none until read after verify allowed, and then nothing is erased. */
  private policy: PolicyState = NO_POLICY_YET;
  private readonly validation = new ValidationDesk({ env: () => this.env, signal: () => this.shutdown.signal, changed: () => this.changed() });
  private readonly psid = new PsidDesk({ drives: () => this.drives, run: (tool, args, options) => this.env.run(tool, args, options), relist: async () => this.listed(await listDrives(this.env)), changed: () => this.changed() });

  constructor(
    private readonly env: AgentEnv,
    private readonly ports: ControllerPorts,
  ) {
    super();
    this.recordId = recordIdOf(env.now());
    this.reporter = new HardwareReporter(ports, () => this.changed());
    this.preparation = new DrivePreparation(env, { changed: () => this.changed(), writing: () => this.run.running });
    this.power = new PowerControl(env, () => this.changed());
    this.gate = new BootGate(env, this.recordId, this.shutdown.signal, {
      changed: () => this.changed(),
      // A station lists no drives up front: its bays show them as they are seated.
      beforeCheck: async () => this.listed(ports.station ? [] : await this.preparation.drives()),
      recordAcknowledged: () => this.reporter.recordAcknowledged(),
      recordFailed: () => this.reporter.recordFailed(),
      ...(ports.station?.chassis ? { chassis: ports.station.chassis } : {}),
    });
    const delays = (env.limits ?? DEFAULT_LIMITS).certificateLookupDelaysMs;
    this.certificates = new CertificateFollower(ports.lookupCertificates, abortableSleep(env.sleep, this.shutdown.signal), delays, () => this.changed());
    this.run = new EraseRun(env, this.recordId, this.certificates, this.shutdown.signal, {
      changed: () => this.changed(),
      progress: (view) => this.emit('progress', view),
      firmware: (device) => {
        const plan = this.drives.find((d) => d.device === device)?.plan;
        return plan?.ok === true && plan.method !== 'overwrite';
      },
    });
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
    const running = this.run.running;
    // A station erases bay by bay; the engine's select-and-start flow is closed.
    const idle = unlocked && !running && !this.ports.station;
    const machine = this.gate.machine;
    const unfreeze = this.preparation.unfreeze;
    const { run, progress, results, erased_earlier } = this.run.view();
    return {
      record_id: this.recordId,
      locked: !unlocked,
      // Where this machine is on the network and which gateway it tries: what a locked screen needs to be acted on.
      boot: { ...this.gate.view(), ...(this.preparation.suspending ? { phase: 'unfreeze' as const } : {}), addresses: ipAddresses(), gateway_url: this.env.config.ERASURE_GATEWAY_URL },
      ...(machine ? { fingerprint: machine } : {}),
      drives: this.drives.map(driveView),
      selected: this.selected,
      confirmation: { phrase: this.selected.length > 0 ? confirmationPhrase(this.selected.length) : null, confirmed: this.confirmed },
      run,
      progress,
      ...(unlocked ? { erasure: erasureView(this.policy, this.drives.map((d) => d.device), (d) => this.choices.methodOf(d), (d, m) => this.choices.refusal(this.drives, this.policy, d, m, this.machine)) } : {}),
      results,
      ...(erased_earlier ? { erased_earlier } : {}),
      ...this.reporter.view(),
      ...(unfreeze ? { unfreeze } : {}),
      ...this.screen.view(),
      ...(this.ports.station ? { station: this.station?.view() ?? stationBeforeStart(this.ports.station) } : {}),
      ...this.validation.view(),
      ...this.psid.view(),
      can: {
        refresh: idle,
        select: idle,
        confirm: idle && this.selected.length > 0 && !this.confirmed,
        start: idle && this.selected.length > 0 && this.confirmed && this.policy.ok,
        set_test_result: unlocked,
        set_notes: unlocked,
        retry: this.gate.canRetry,
        cancel_all: running && this.run.cancellable().length > 0,
        shutdown: !running,
        restart: !running,
      },
      power: this.power.view(),
    };
  }

  /**
   * The outbox settled a kept result (serve's redelivery, or Send now): the results screen shows
   * it delivered and, when it is certifiable, its certificate number is followed as after a run.
   */
  resultSettled(r: SettledResult): void {
    this.run.settled(r);
    if (r.delivered && r.certificateStatus) void this.certificates.follow([r.jobId], this.shutdown.signal);
    this.changed();
    // It left the outbox: a Shut down or Restart must no longer warn about it (issue 28 item 8).
    void this.power.countPending().then(() => this.changed());
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
    this.drives = withMasterPlans(this.drives, this.policy, this.machine);
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

  /** Applies an intent; a refused intent returns the reason and changes nothing. */
  async apply(intent: AgentIntent): Promise<IntentOutcome> {
    const can = this.snapshot().can;
    const locked = !this.gate.unlocked;
    const running = this.run.running;
    const boot = this.gate.view();
    const why = locked ? `locked: this boot is not unlocked (${boot.phase}${boot.reason ? `: ${boot.reason}` : ''})` : 'a session is running';
    switch (intent.type) {
      case 'validate_drive':
        return this.validation.apply(intent, locked ? why : running ? 'an erase is running: validate a drive once it has finished' : undefined);
      case 'psid_revert':
        return this.psid.apply(intent, locked ? why : running ? 'an erase is running: revert the drive once it has finished' : undefined);
      case 'retry':
        if (!this.gate.retry(() => void this.readPolicy().then(() => this.startStation()))) return { ok: false, reason: locked ? `no check to retry now (${boot.phase})` : 'this boot is already unlocked' };
        break;
      case 'station_wizard':
      case 'station_remap':
      case 'station_policy':
      case 'bay_confirm':
      case 'bay_confirm_waiting':
      case 'bay_cancel':
      case 'bay_locate':
        return locked ? { ok: false, reason: why } : applyStationIntent(this.station, this.ports.station !== undefined, intent);
      case 'refresh':
        if (!can.refresh) return { ok: false, reason: why };
        await this.listed(await listDrives(this.env));
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
        if (!can.confirm) return { ok: false, reason: locked || running ? why : this.selected.length === 0 ? 'nothing selected' : 'already confirmed' };
        const phrase = confirmationPhrase(this.selected.length);
        if (intent.text.trim().toUpperCase() !== phrase) return { ok: false, reason: `type "${phrase}" to confirm` };
        this.confirmed = true;
        break;
      }
      case 'choose_method': {
        if (!can.select) return { ok: false, reason: why };
        // Refused (not allowed by the policy, or unable to reach every sector of this drive): said, nothing kept.
        const chosen = this.choices.choose(this.drives, this.policy, intent.device, intent.method, this.machine);
        if (!chosen.ok) return { ok: false, reason: chosen.reason };
        break;
      }
      case 'start':
        if (this.validation.readingDevice()) return { ok: false, reason: `${this.validation.readingDevice()} is being read for validation: erase once its outcome is shown` };
        if (!can.start && !locked && !running && !this.policy.ok) return { ok: false, reason: `nothing can be erased: ${this.policy.reason}` };
        if (!can.start) return { ok: false, reason: locked || running ? why : 'select drives and type the confirmation first' };
        this.power.forgetLast();
        this.run.begin(this.runRequest());
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
        const allowed = this.run.cancellable();
        if (!allowed.includes(intent.device)) return { ok: false, reason: this.run.whyNotCancel(intent.device) };
        this.run.cancel([intent.device]);
        break;
      }
      case 'cancel_all': {
        const allowed = this.run.cancellable();
        if (allowed.length === 0) return { ok: false, reason: running ? 'no drive can be cancelled now' : 'no erase is running' };
        this.run.cancel(allowed);
        break;
      }
      case 'shutdown':
      case 'restart':
        return this.power.apply(intent.type === 'shutdown' ? 'poweroff' : 'reboot', intent.pending_ok === true, running);
      case 'set_unfreeze': {
        if (locked) return { ok: false, reason: why };
        const set = await this.preparation.setMode(intent.mode);
        if (!set.ok) return set;
        break;
      }
    }
    this.changed();
    return { ok: true };
  }

  /** The selected drives as one run, each planned with its method under the policy read when it starts. */
  private runRequest() {
    return {
      devices: this.selected,
      account: this.gate.account ?? '',
      // The policy is read again now: one changed since the boot (a contract revised, a method
      // withdrawn) decides, and a drive whose method it no longer allows stops the run before
      // any check-in, so no quota is spent and nothing is written.
      refused: async () => this.choices.refused(await this.readPolicy(), this.selected),
      // Each drive is planned with its method under the policy read now (the planner refuses a
      // method that cannot reach every sector of that drive, and nothing starts then).
      select: () => selectDrives(this.env, this.selected, undefined, { ...(this.policy.ok ? { erasure: this.policy.policy, ataMasterPasswords: this.policy.masters !== undefined } : {}), methods: this.choices.methodsFor(this.selected, this.policy) }),
      ataMasterPasswords: () => (this.policy.ok ? this.policy.masters : undefined),
      // Every drive seen gets a result (issue 30 item 7): those refused ride along; one not ticked does not (not-erased.ts).
      refusedDrives: () => refusedToPlan(this.drives.filter((d) => !this.selected.includes(d.device))),
      healthGrading: () => (this.policy.ok ? this.policy.grading : undefined),
      ended: async (erased: ReadonlySet<string>) => {
        await this.power.countPending();
        this.selected = this.selected.filter((d) => !erased.has(d));
        this.confirmed = false;
      },
    };
  }

  /** The drives as listed now, with what the machine adds to their plans. */
  private async listed(drives: DiscoveredDrive[]): Promise<void> {
    this.machine = await machinePolicy(this.env);
    const marked = this.psid.mark(this.env.config.ERASURE_SIMULATE ? drives : await markOwnMedia(this.env.sys, drives));
    this.drives = withMasterPlans(marked, this.policy, this.machine);
  }

  /** Server shutdown: aborts gateway calls and waits of the boot and the lookups, stops timers. */
  close(): Promise<void> {
    this.shutdown.abort();
    this.reporter.close();
    return this.station?.close() ?? Promise.resolve();
  }
}
