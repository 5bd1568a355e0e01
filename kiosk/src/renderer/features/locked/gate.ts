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

/**
 * Plain words for the reasons the service and the agent give (spec 3 ladder, spec 7): one sentence
 * for the cause and what to do about it. The raw reason is never part of it (the locked screen
 * keeps it under Details), and nothing suggests Wi-Fi: the image brings up wired networks only.
 */
export function plainReason(reason: string | undefined): string {
  if (!reason) return 'The erasure service did not allow this device and gave no reason. Press Check again; if it stays locked, ask your administrator.';
  const known: Record<string, string> = {
    revoked: 'This device’s licence has been revoked. Ask your administrator to issue a new one.',
    disabled: 'This device’s licence has been disabled. Ask your administrator to enable it.',
    suspended: 'This device’s licence is suspended. Ask your administrator to resume it.',
    account_inactive: 'Your organisation’s account is not active. Check the subscription in the web application.',
    quota_exceeded: 'This licence has no erasures left. Ask your administrator to add more.',
    not_found: 'The erasure service does not know this device’s licence. Ask your administrator for a licence for this device.',
    invalid_token: 'This device’s licence is not valid: it may have expired or been damaged. If the clock below is wrong, fix it; otherwise ask your administrator for a new licence.',
    validation_unavailable: 'The erasure service cannot check licences right now. Wait a minute, then press Check again.',
  };
  const exact = known[reason];
  if (exact) return exact;
  if (/unreachable|fetch failed|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|timed? ?out/i.test(reason))
    return 'The erasure service cannot be reached from this machine. Check that the network cable is plugged in and that this network can reach the gateway shown below, then press Check again.';
  if (/\b401\b|unauthori[sz]ed/i.test(reason))
    return 'The erasure service did not accept this device’s licence: the licence file on this stick is missing, wrong or damaged. Write a current licence to the stick (or ask your administrator for one), then restart.';
  if (/\b403\b|forbidden/i.test(reason)) return 'The erasure service does not allow this licence to be used here. Ask your administrator to check it.';
  if (/certificate|self.signed|CERT_|TLS|SSL/i.test(reason)) return 'The secure connection to the erasure service failed. If the clock below is wrong, fix it; otherwise ask your administrator to check the gateway.';
  if (/\b5\d\d\b|unparsable/i.test(reason)) return 'The erasure service answered with an error. Wait a minute, then press Check again; if it persists, tell your administrator.';
  if (/^boot failed/i.test(reason)) return 'This machine could not finish starting up. Press Check again; if it stays locked, restart the machine.';
  return 'The erasure service did not allow this device. Press Check again; if it stays locked, ask your administrator (the exact answer is under Details).';
}

/** The clock as the locked screen states it: what it reads and whether it was synchronized. */
export function clockText(synchronized: boolean | undefined, now: Date): string {
  const time = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  if (synchronized === true) return `${time}, synchronized with a time server`;
  if (synchronized === false) return `${time}, NOT synchronized: no time server answered`;
  return `${time} (synchronization not checked)`;
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
