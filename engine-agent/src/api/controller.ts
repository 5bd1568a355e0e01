import { EventEmitter } from 'node:events';
import { exitCodeOf, listDrives, runErase, selectDrives, type AgentEnv } from '../agent.js';
import type { DiscoveredDrive } from '../drives/discover.js';
import type { EraseProgress } from '../erase/progress.js';
import type { Session } from '../session/types.js';

/** What the kiosk renders: the whole truth, including which intents are allowed now. */
export interface KioskSnapshot {
  readonly drives: readonly DiscoveredDrive[];
  readonly selected: readonly string[];
  readonly confirmed: boolean;
  readonly running: boolean;
  readonly session?: Session;
  readonly exitCode?: number;
  readonly progress: Readonly<Record<string, EraseProgress>>;
  readonly error?: string;
  /** The rules live here, not in the kiosk: it only enables what `can` allows. */
  readonly can: { readonly select: boolean; readonly confirm: boolean; readonly start: boolean };
}

/** Operator intents the kiosk may send. */
export type Intent =
  | { readonly type: 'refresh' }
  | { readonly type: 'select'; readonly devices: readonly string[] }
  | { readonly type: 'confirm' }
  | { readonly type: 'start' };

/** Holds the agent's state for the kiosk and applies intents; emits `change` with every new snapshot. */
export class KioskController extends EventEmitter {
  private drives: DiscoveredDrive[] = [];
  private selected: string[] = [];
  private confirmed = false;
  private running = false;
  private session: Session | undefined;
  private exitCode: number | undefined;
  private progress: Record<string, EraseProgress> = {};
  private error: string | undefined;

  constructor(private readonly env: AgentEnv) {
    super();
  }

  /** The current snapshot. */
  snapshot(): KioskSnapshot {
    const idle = !this.running;
    return {
      drives: this.drives,
      selected: this.selected,
      confirmed: this.confirmed,
      running: this.running,
      ...(this.session ? { session: this.session } : {}),
      ...(this.exitCode !== undefined ? { exitCode: this.exitCode } : {}),
      progress: this.progress,
      ...(this.error ? { error: this.error } : {}),
      can: { select: idle, confirm: idle && this.selected.length > 0 && !this.confirmed, start: idle && this.selected.length > 0 && this.confirmed },
    };
  }

  private changed(): void {
    this.emit('change', this.snapshot());
  }

  /** Applies an intent; refused intents return the reason and change nothing. */
  async apply(intent: Intent): Promise<{ ok: true } | { ok: false; reason: string }> {
    const can = this.snapshot().can;
    switch (intent.type) {
      case 'refresh':
        if (this.running) return { ok: false, reason: 'a session is running' };
        this.drives = await listDrives(this.env);
        break;
      case 'select': {
        if (!can.select) return { ok: false, reason: 'a session is running' };
        const known = new Set(this.drives.map((d) => d.device));
        const unknown = intent.devices.filter((d) => !known.has(d));
        if (unknown.length > 0) return { ok: false, reason: `not drives of this machine: ${unknown.join(', ')}` };
        this.selected = [...new Set(intent.devices)];
        this.confirmed = false; // a new selection needs a new confirmation
        break;
      }
      case 'confirm':
        if (!can.confirm) return { ok: false, reason: 'nothing selected, already confirmed, or running' };
        this.confirmed = true;
        break;
      case 'start':
        if (!can.start) return { ok: false, reason: 'select and confirm drives first' };
        void this.start();
        return { ok: true };
    }
    this.changed();
    return { ok: true };
  }

  private async start(): Promise<void> {
    this.running = true;
    this.progress = {};
    this.error = undefined;
    this.exitCode = undefined;
    this.changed();
    try {
      const selection = await selectDrives(this.env, this.selected);
      if (!selection.ok) throw new Error(selection.reason);
      this.session = await runErase(this.env, selection.drives, {
        onState: (s) => {
          this.session = s;
          this.changed();
        },
        onProgress: (p) => {
          this.progress = { ...this.progress, [p.device]: p };
          this.emit('progress', p);
        },
      });
      this.exitCode = exitCodeOf(this.session);
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.running = false;
      this.confirmed = false;
      this.changed();
    }
  }
}
