import type { AgentIntent, AgentState } from '@erasure/shared';
import type { Runner } from '../adapters/runner.js';
import { psidRevert } from '../erase/psid-revert.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { sedLocked } from '../probes/tcg-discovery.js';
import type { IntentOutcome } from './intent-outcome.js';

type PsidIntent = Extract<AgentIntent, { type: 'psid_revert' }>;
type PsidView = NonNullable<AgentState['psid_revert']>;

/** What a PSID revert needs from the agent: its drives, its tools, and a fresh look at the drives afterwards. */
export interface PsidPorts {
  readonly drives: () => readonly DiscoveredDrive[];
  readonly run: Runner;
  /** Lists and probes the drives again: an unlocked drive then gets its plan. */
  readonly relist: () => Promise<void>;
  readonly changed: () => void;
}

/**
 * The kiosk's PSID revert (issue 30 item 2). The PSID lives only in this call: the view keeps the
 * outcome's words, which never contain it, and the intent is not logged by the agent.
 */
export class PsidDesk {
  private last: PsidView | undefined;
  /** Drives this boot reverted, by device, with the revert in words: their erase reports it. */
  private readonly reverted = new Map<string, string>();
  constructor(private readonly ports: PsidPorts) {}

  /** The listed drives, each one this boot reverted carrying the revert's words to its wipe result. */
  mark(drives: DiscoveredDrive[]): DiscoveredDrive[] {
    return drives.map((d) => (this.reverted.has(d.device) ? { ...d, psidRevert: this.reverted.get(d.device)! } : d));
  }

  view(): { psid_revert?: PsidView } {
    return this.last ? { psid_revert: this.last } : {};
  }

  /** `busy`: why nothing may be reverted now (locked boot, an erase running). */
  async apply(intent: PsidIntent, busy: string | undefined): Promise<IntentOutcome> {
    if (busy) return { ok: false, reason: busy };
    if (this.last?.running) return { ok: false, reason: `a PSID revert of ${this.last.device} is running` };
    const drive = this.ports.drives().find((d) => d.device === intent.device);
    if (!drive) return { ok: false, reason: `not a drive of this machine: ${intent.device}` };
    if (!sedLocked(drive.capabilities.selfEncryption)) return { ok: false, reason: `${intent.device} is not a locked self-encrypting drive: it needs no PSID revert` };
    this.last = { device: intent.device, ok: false, words: 'PSID revert running…', running: true };
    this.ports.changed();
    try {
      const out = await psidRevert(this.ports.run, intent.device, drive.capabilities.transport === 'nvme' ? 'nvme' : 'ata-scsi', intent.psid);
      this.last = { device: intent.device, ok: out.ok, words: out.ok ? out.words : out.reason };
      if (out.ok) {
        this.reverted.set(intent.device, out.words);
        await this.ports.relist();
      }
      return out.ok ? { ok: true } : { ok: false, reason: out.reason };
    } finally {
      if (this.last?.running) this.last = { device: intent.device, ok: false, words: 'the PSID revert stopped unexpectedly' };
      this.ports.changed();
    }
  }
}
