import type { AgentState, BootPhase, KioskAgentState } from '../../contract.js';

/**
 * Where the boot gate stands, read off the agent's state. The kiosk never unlocks itself: only
 * the agent's `locked: false` (verify answered allow for this boot) opens the workspace.
 */
export type Gate =
  | { readonly state: 'checking'; readonly phase: BootPhase; readonly text: string }
  | { readonly state: 'denied'; readonly reason: string; readonly text: string }
  | { readonly state: 'unlocked'; readonly account: string | undefined };

const CHECKING_TEXT: Readonly<Record<BootPhase, string>> = {
  starting: 'Starting up…',
  unfreeze: 'Unfreezing the drives…',
  health: 'Checking the connection to the erasure service…',
  verify: 'Checking this device’s licence…',
  record: 'Reporting this machine’s hardware…',
  unlocked: 'Unlocked',
  denied: 'Locked',
};

/** Plain words for the reasons the service and the agent give (spec 3 ladder, spec 7). */
export function plainReason(reason: string | undefined): string {
  if (!reason) return 'The erasure service did not allow this device. No reason was given.';
  const known: Record<string, string> = {
    revoked: 'This device’s licence has been revoked. Ask your administrator to issue a new one.',
    disabled: 'This device’s licence has been disabled. Ask your administrator to enable it.',
    suspended: 'This device’s licence is suspended. Ask your administrator to resume it.',
    account_inactive: 'Your organisation’s account is not active. Check the subscription in the web application.',
    quota_exceeded: 'This licence has no erasures left. Ask your administrator to add more.',
    not_found: 'The erasure service does not know this device’s licence.',
    invalid_token: 'This device’s licence is not valid (it may have expired or been damaged).',
    validation_unavailable: 'The erasure service cannot be reached right now. Check the network and try again.',
  };
  const exact = known[reason];
  if (exact) return exact;
  if (/unreachable|fetch failed|ECONNREFUSED|timed? ?out/i.test(reason)) return `The erasure service cannot be reached. Check the network cable or Wi-Fi and try again. (${reason})`;
  return `The erasure service refused: ${reason}`;
}

/**
 * The health check's progress in words (spec 8: up to 3 attempts 4 s apart), from the agent's
 * boot state; undefined outside the health phase. `nowMs` is the kiosk's clock, the same machine's.
 */
export function healthAttemptText(boot: AgentState['boot'] | undefined, nowMs: number): string | undefined {
  if (boot?.phase !== 'health' || boot.attempt === undefined) return undefined;
  const parts = [`Attempt ${boot.attempt}${boot.max_attempts ? ` of ${boot.max_attempts}` : ''}`];
  if (boot.last_error) parts.push(`the last one failed: ${boot.last_error}`);
  const waitMs = boot.next_attempt_at ? Date.parse(boot.next_attempt_at) - nowMs : NaN;
  parts.push(waitMs > 0 ? `next try in ${Math.ceil(waitMs / 1000)} s` : 'trying now');
  return `${parts.join(' — ')}.`;
}

export function gateOf(snap: KioskAgentState | undefined): Gate {
  if (!snap) return { state: 'checking', phase: 'starting', text: CHECKING_TEXT.starting };
  if (!snap.locked) return { state: 'unlocked', account: snap.boot.account };
  if (snap.boot.phase === 'denied') return { state: 'denied', reason: snap.boot.reason ?? '', text: plainReason(snap.boot.reason) };
  return { state: 'checking', phase: snap.boot.phase, text: CHECKING_TEXT[snap.boot.phase] };
}
