import type { AgentDrive, KioskAgentState } from '../../contract.js';
import { formatBytes, formatMinutes } from '../../format.js';

/** One drive as the drives screen shows it. */
export interface DriveRow {
  readonly device: string;
  readonly title: string;
  readonly facts: string;
  readonly selected: boolean;
  /** The agent's `can.select` and a usable plan; a drive without a plan can never be picked. */
  readonly selectable: boolean;
  readonly method: string | undefined;
  readonly duration: string | undefined;
  readonly warnings: readonly string[];
  /** Why no erase can run on this drive, in the agent's words. */
  readonly refusal: string | undefined;
}

const facts = (d: AgentDrive) =>
  [formatBytes(d.size_bytes), d.media_type, d.transport.toUpperCase(), d.serial ? `S/N ${d.serial}` : undefined, d.internal ? undefined : 'external'].filter(Boolean).join(' · ');

export function driveRows(snap: KioskAgentState): DriveRow[] {
  return snap.drives.map((d) => {
    const plan = d.plan;
    return {
      device: d.device,
      title: d.model ?? d.device,
      facts: facts(d),
      selected: snap.selected.includes(d.device),
      selectable: snap.can.select && plan.ok,
      method: plan.ok ? `${plan.label} — ${plan.technique}` : undefined,
      duration: plan.ok ? `${formatMinutes(plan.expected_minutes)}${plan.duration_source === 'drive' ? ' (reported by the drive)' : ' (estimate)'}` : undefined,
      warnings: plan.ok ? [...plan.warnings, ...(plan.fully_sanitized ? [] : ['Hidden areas stay in place: the certificate will not claim a full sanitization.'])] : [],
      refusal: plan.ok ? undefined : plan.reason,
    };
  });
}

/** The confirmation the agent asks for, or why the operator cannot confirm yet. */
export function confirmationOf(snap: KioskAgentState, typed: string): { phrase: string | null; matches: boolean; canSubmit: boolean } {
  const phrase = snap.confirmation.phrase;
  // Same comparison the agent documents (case and surrounding space ignored); the agent re-checks it.
  const matches = phrase !== null && typed.trim().toLowerCase() === phrase.trim().toLowerCase();
  return { phrase, matches, canSubmit: matches && snap.can.confirm };
}
