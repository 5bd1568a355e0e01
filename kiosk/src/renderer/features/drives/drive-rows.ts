import type { AgentDrive, KioskAgentState } from '../../contract.js';
import { formatBytes, formatClock, formatMinutes } from '../../format.js';

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
  /** "Erased at 10:42 · CW-000012" when this boot already erased the drive: a second erase spends quota again. */
  readonly erasedBefore: string | undefined;
  /** "self-encrypting (Opal 2, locked)": the drive's TCG self-encryption in the agent's words. */
  readonly selfEncryption: string | undefined;
  /** A locked range: only a PSID revert opens it. */
  readonly sedLocked: boolean;
  /** The agent can PSID-revert it here; false: the row's reason says the step on another computer, and no PSID is asked for. */
  readonly psidHere: boolean;
  /** "behind RAID controller (MegaRAID)", "through USB bridge (ASMedia ASM2362)", and the lines behind Details. */
  readonly connection: { readonly summary: string; readonly details: readonly string[] } | undefined;
}

/** The line for a drive this boot already erased (its last run first, then earlier runs), with its certificate number once known. */
function erasedBefore(snap: KioskAgentState, device: string): string | undefined {
  const r = [...snap.results, ...(snap.erased_earlier ?? [])].find((x) => x.device === device && x.erased);
  if (!r) return undefined;
  const at = formatClock(r.completed_at);
  return [at ? `Erased at ${at}` : 'Erased earlier in this session', r.certificate_number ?? (r.delivered ? 'certificate pending' : 'result not sent yet')].join(' · ');
}

/** The drives "Select all" picks: every drive the agent would let the operator select. */
export function selectableDevices(snap: KioskAgentState): string[] {
  return snap.can.select ? snap.drives.filter((d) => d.plan.ok).map((d) => d.device) : [];
}

/**
 * What kind of drive, in plain words: an eMMC or SD card by what the agent read from the card
 * ("SD card", "eMMC (built-in flash storage)", issue 30 item 4) instead of "SSD · MMC".
 */
const kindOf = (d: AgentDrive) => (d.transport === 'mmc' ? [d.connection?.summary ?? 'memory card (SD/MMC)'] : [d.media_type, d.transport.toUpperCase()]);

const facts = (d: AgentDrive) =>
  [formatBytes(d.size_bytes), ...kindOf(d), d.serial ? `S/N ${d.serial}` : undefined, d.internal ? undefined : 'external'].filter(Boolean).join(' · ');

/**
 * Every drive the agent sees has a row (issue 30 item 7): the erasable ones, the refused ones with
 * the reason (the boot medium says so), and each physical disk a RAID virtual disk hides, right
 * after that virtual disk, never selectable.
 */
export function driveRows(snap: KioskAgentState): DriveRow[] {
  return snap.drives.flatMap((d) => [driveRow(snap, d), ...(d.connection?.hidden ?? []).map(hiddenRow)]);
}

type HiddenDisk = NonNullable<NonNullable<AgentDrive['connection']>['hidden']>[number];

function hiddenRow(h: HiddenDisk): DriveRow {
  return {
    device: h.device,
    title: h.model ?? h.device,
    facts: [h.size_bytes !== undefined ? formatBytes(h.size_bytes) : undefined, h.serial ? `S/N ${h.serial}` : undefined, 'physical disk behind the RAID virtual disk above'].filter(Boolean).join(' · '),
    selected: false,
    selectable: false,
    method: undefined,
    duration: undefined,
    warnings: [],
    refusal: h.reason,
    erasedBefore: undefined,
    connection: undefined,
    selfEncryption: undefined,
    sedLocked: false,
    psidHere: false,
  };
}

function driveRow(snap: KioskAgentState, d: AgentDrive): DriveRow {
  {
    const plan = d.plan;
    return {
      device: d.device,
      title: d.model ?? d.device,
      facts: facts(d),
      selected: snap.selected.includes(d.device),
      selectable: snap.can.select && plan.ok,
      method: plan.ok ? `${plan.label} — ${plan.technique}` : undefined,
      duration: plan.ok ? `${formatMinutes(plan.expected_minutes)}${plan.duration_source === 'drive' ? ' (reported by the drive)' : ` (estimate for ${formatBytes(d.size_bytes)}${d.transport === 'mmc' ? ' card' : d.media_type ? ` ${d.media_type}` : ''})`}` : undefined,
      warnings: plan.ok ? [...plan.warnings, ...(plan.fully_sanitized ? [] : ['Hidden areas stay in place: the certificate will not claim a full sanitization.'])] : [],
      refusal: plan.ok ? undefined : plan.reason,
      erasedBefore: erasedBefore(snap, d.device),
      selfEncryption: d.self_encryption?.words,
      sedLocked: d.self_encryption?.locked === true,
      psidHere: d.self_encryption?.revert_here !== false,
      connection: d.connection,
    };
  }
}

/** The confirmation the agent asks for, or why the operator cannot confirm yet. */
export function confirmationOf(snap: KioskAgentState, typed: string): { phrase: string | null; matches: boolean; canSubmit: boolean } {
  const phrase = snap.confirmation.phrase;
  // Same comparison the agent documents (case and surrounding space ignored); the agent re-checks it.
  const matches = phrase !== null && typed.trim().toLowerCase() === phrase.trim().toLowerCase();
  return { phrase, matches, canSubmit: matches && snap.can.confirm };
}
