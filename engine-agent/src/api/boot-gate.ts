import type { AgentState, Fingerprint } from '@erasure/shared';
import { fingerprint, runErase, type AgentEnv } from '../agent.js';
import { clockSynchronized } from '../probes/clock-sync.js';
import { DEFAULT_LIMITS } from '../session/types.js';
import { machineSummary } from './state-view.js';

/** What the gate tells its controller about. */
export interface BootGateHooks {
  /** The state changed: emit a snapshot. */
  changed(): void;
  /** Runs before each check (drives are listed first so the locked screen can show them). */
  beforeCheck(): Promise<void>;
  /** The boot's asset report was acknowledged / given up on (the hardware reporter waits for it). */
  recordAcknowledged(): void;
  recordFailed(): void;
  /**
   * On a station: the boot's fingerprint as its chassis's, without the drives in its hot-swap
   * slots (spec 4.1: storage lists internal drives only). Applied at every use, not once, since
   * what is known of the bays grows once the chassis map is looked up.
   */
  chassis?(collected: Fingerprint): Promise<Fingerprint>;
}

export type BootView = AgentState['boot'];

/**
 * The boot gate of `serve` (spec 3 "Device gating"): health, verify and the asset report for
 * this boot, with only `allow: true` unlocking (fail closed). A denied boot (a denial, an
 * unreachable gateway, a failed boot) can be checked again by the operator: the same session
 * runs from health, under the same record id, and the asset report goes out once verify allows
 * (a denied boot never sent it). The fingerprint is collected once per boot, in parallel with
 * the checks, and feeds both the asset report and the kiosk's machine summary.
 */
export class BootGate {
  private view_: BootView = { phase: 'starting' };
  private checking = false;
  private collected: Promise<Fingerprint> | undefined;
  private summary: Fingerprint | undefined;

  constructor(
    private readonly env: AgentEnv,
    private readonly recordId: string,
    private readonly signal: AbortSignal,
    private readonly hooks: BootGateHooks,
  ) {}

  view(): BootView {
    return this.view_;
  }

  get unlocked(): boolean {
    return this.view_.phase === 'unlocked';
  }

  get account(): string | undefined {
    return this.view_.account;
  }

  /** The machine summary for the kiosk, once the fingerprint is collected. */
  get machine(): Fingerprint | undefined {
    return this.summary;
  }

  /** A check may be started again: the boot is denied and no check is running. */
  get canRetry(): boolean {
    return this.view_.phase === 'denied' && !this.checking;
  }

  /** This boot's fingerprint, collected on first use; a failed collection is tried again next time. */
  fingerprint(): Promise<Fingerprint> {
    const chassis = this.hooks.chassis;
    return chassis ? this.collect().then((fp) => chassis(fp)) : this.collect();
  }

  private collect(): Promise<Fingerprint> {
    if (!this.collected) {
      const collecting = fingerprint(this.env);
      this.collected = collecting;
      collecting.then(
        (fp) => {
          this.summary = machineSummary(fp);
          this.hooks.changed();
        },
        () => {
          if (this.collected === collecting) this.collected = undefined;
        },
      );
    }
    return this.collected;
  }

  /** Starts a check again (the `retry` intent); false when one may not start now. */
  retry(then?: () => void): boolean {
    if (!this.canRetry) return false;
    this.checking = true; // set before returning, so a second retry is refused at once
    this.view_ = { phase: 'starting' };
    void this.check().then(then);
    return true;
  }

  /** Runs the checks of this boot once; the state says how it ended. */
  async check(): Promise<void> {
    this.checking = true;
    try {
      await this.unlock();
    } catch (error) {
      // Stays locked (fail closed), and says why.
      this.view_ = { phase: 'denied', reason: `boot failed: ${(error as Error).message}` };
    } finally {
      this.checking = false;
      this.hooks.changed();
    }
  }

  private async unlock(): Promise<void> {
    // Started now, awaited only by the asset report: the checks do not wait for dmidecode and co.
    void this.fingerprint().catch(() => undefined);
    await this.hooks.beforeCheck();
    const limits = this.env.limits ?? DEFAULT_LIMITS;
    let lastError: string | undefined;
    let account: string | undefined;
    this.view_ = { phase: 'health', attempt: 1, max_attempts: limits.healthAttempts };
    this.hooks.changed();
    const end = await runErase(
      this.env,
      [],
      {
        onHealth: (ev) => (lastError = ev.ok ? undefined : ev.detail),
        onState: (s) => {
          if (s.phase === 'health') {
            // Attempts after the first wait healthDelayMs (plus jitter) first: say when the next one starts.
            const next = s.attempt > 1 ? { next_attempt_at: new Date(this.env.now().getTime() + limits.healthDelayMs).toISOString() } : {};
            this.view_ = { phase: 'health', attempt: s.attempt, max_attempts: limits.healthAttempts, ...next, ...(lastError ? { last_error: lastError } : {}) };
          } else if (s.phase === 'verify') {
            this.view_ = { phase: 'verify' };
          } else if (s.phase === 'record' && !account) {
            account = s.account;
            // Verify allowed: the kiosk unlocks now; the asset report runs on behind it.
            this.view_ = { phase: 'unlocked', account };
          } else return;
          this.hooks.changed();
        },
        onRecord: (ev) => {
          if (!ev.ok) return;
          this.view_ = { ...this.view_, asset_id: ev.assetId };
          this.hooks.recordAcknowledged();
          this.hooks.changed();
        },
      },
      { recordId: this.recordId, fingerprint: () => this.fingerprint(), signal: this.signal },
    );
    if (end.phase === 'denied') {
      // A locked machine whose clock never synced says so: the clock may be why it is locked.
      const synced = this.env.config.ERASURE_SIMULATE ? undefined : await clockSynchronized(this.env.run, this.env.sys);
      this.view_ = { phase: 'denied', reason: end.reason, ...(synced === undefined ? {} : { clock_synchronized: synced }) };
    }
    else if (!this.view_.asset_id) this.hooks.recordFailed();
  }
}
