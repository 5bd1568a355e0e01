import type { AgentState } from '@erasure/shared';
import type { AgentEnv } from '../agent.js';
import { resultOutbox } from '../adapters/result-outbox.js';
import { outboxKeptIn, type KeptIn } from '../adapters/outbox-storage.js';
import { powerCommand, type PowerAction } from './cancel-power.js';
import type { IntentOutcome } from './intent-outcome.js';

/**
 * Shut down and restart, and the results still waiting in the outbox that make them ask twice.
 * The outbox is the one place that knows what waits; this keeps the last count for the snapshot.
 */
export class PowerControl {
  /** Results still waiting in the outbox (a shutdown then needs a second confirmation), and the last power action. */
  private pendingResults = 0;
  private lastPower: string | undefined;
  /** Whether those results survive a power cut (the outbox on a disk) or not (in memory): the warning says which. */
  private keptIn: KeptIn | undefined;

  constructor(
    private readonly env: AgentEnv,
    private readonly changed: () => void,
  ) {}

  view(): NonNullable<AgentState['power']> {
    return { pending_results: this.pendingResults, ...(this.keptIn ? { kept_in: this.keptIn } : {}), ...(this.lastPower ? { last: this.lastPower } : {}) };
  }

  /** A new run: the last run's "it would shut down now" is about that run, not this one. */
  forgetLast(): void {
    this.lastPower = undefined;
  }

  /** Counts the results still waiting in the outbox, the one place that knows, and where it keeps them. */
  async countPending(): Promise<number> {
    const dataDir = this.env.config.DATA_DIR;
    this.pendingResults = (await resultOutbox(dataDir).pending().catch(() => [])).length;
    this.keptIn ??= await outboxKeptIn(this.env.sys, dataDir);
    return this.pendingResults;
  }

  /**
   * Shut down or restart through the one runner, never while an erase runs, and with results
   * still waiting only once the operator confirmed that too. A simulated machine only says what it would do.
   */
  async apply(action: PowerAction, pendingOk: boolean, running: boolean): Promise<IntentOutcome> {
    const word = action === 'poweroff' ? 'shut down' : 'restart';
    if (running) return { ok: false, reason: `an erase is running: the machine cannot ${word} now` };
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
}
