import type { DriveProgress, KioskAgentState } from '../../contract.js';
import { formatBytes, formatDuration, formatRate } from '../../format.js';
import { plainReason } from '../locked/gate.js';

/**
 * A run the erasure policy stopped (issue 29): the agent's words are already the operator's (the
 * method by its contract name, what is allowed instead, or that no policy could be read).
 */
const POLICY_REFUSAL = /is not allowed by|erasure policy/;

/** The run's headline, from the agent's `run`. */
export function runHeadline(snap: KioskAgentState): { tone: 'info' | 'ok' | 'bad'; text: string } {
  const { run } = snap;
  if (run.status === 'idle') return { tone: 'info', text: snap.selected.length > 0 ? 'Nothing is erased until you confirm below.' : 'No drives selected yet. Tick the drives to erase on the Drives step.' };
  if (run.status === 'running') {
    const text: Record<string, string> = {
      checkin: 'Checking in with the erasure service…',
      erase: 'Erasing — keep the machine powered on.',
      results: 'Erase finished. Sending the results to the erasure service…',
    };
    return { tone: 'info', text: text[run.phase ?? ''] ?? 'Working…' };
  }
  if (run.phase === 'denied' && run.reason && POLICY_REFUSAL.test(run.reason)) return { tone: 'bad', text: `Erasure blocked: nothing was erased. ${run.reason}` };
  if (run.phase === 'denied') return { tone: 'bad', text: `Erasure blocked: nothing was erased. ${plainReason(run.reason)}` };
  if (run.exit_code === 0) return { tone: 'ok', text: 'All drives erased, verified and reported. The machine can be switched off.' };
  // Erased and verified but not yet delivered is a success still being sent, never a failure.
  const erased = snap.results.length > 0 && snap.results.every((r) => r.erased);
  if (erased) return { tone: 'info', text: 'All drives erased and verified. The results are saved and being sent — keep the machine on until they are.' };
  // A cancel is the operator's choice, not a problem: said plainly, without the red of a failure.
  const cancelled = snap.results.filter((r) => r.failure_code === 'cancelled').length;
  if (cancelled > 0 && snap.results.every((r) => r.erased || r.failure_code === 'cancelled')) {
    const rest = snap.results.length - cancelled;
    const drives = (n: number) => `${n} drive${n === 1 ? '' : 's'}`;
    return { tone: 'info', text: `${drives(cancelled)} cancelled: not erased and not certified.${rest > 0 ? ` ${drives(rest)} erased and verified.` : ''}` };
  }
  return { tone: 'bad', text: `The run ended with problems${run.reason ? `: ${run.reason}` : ''}. See each drive below.` };
}

/** One drive's live progress line. */
export interface ProgressRow {
  readonly device: string;
  readonly title: string;
  /** `running` while it erases, `waiting` before it starts, `ok`/`bad`/`cancelled` once it finished (a cancel is no failure). */
  readonly tone: 'waiting' | 'running' | 'ok' | 'bad' | 'cancelled';
  readonly stage: string;
  readonly percent: number | undefined;
  readonly bytes: string;
  readonly rate: string;
  readonly elapsed: string;
  readonly eta: string;
  /** The agent allows a Cancel of this drive now. */
  readonly canCancel: boolean;
  /** Said instead of a Cancel button: a firmware erase that cannot be stopped, or a drive stopping. */
  readonly cancelNote: string | undefined;
}

const STAGE: Record<DriveProgress['stage'], (p: DriveProgress) => string> = {
  prepare: () => 'Preparing',
  write: (p) => (p.passes !== undefined ? `Writing — pass ${p.pass} of ${p.passes}` : `Writing — pass ${p.pass}`),
  verify: () => 'Verifying (reading back)',
  firmware: () => 'Drive erase command running',
};

/** A finished drive says how it ended, never "Verifying 100 %, 0 s left". */
const OUTCOME: Record<NonNullable<DriveProgress['outcome']>, string> = {
  // Said when the erase ends, before its result reached the service: "sent" would not be true yet.
  erased: 'Erased and verified',
  failed: 'Erase failed',
  cancelled: 'Cancelled',
};

export function progressRows(snap: KioskAgentState, progress: Readonly<Record<string, DriveProgress>>): ProgressRow[] {
  return snap.selected.map((device) => {
    const drive = snap.drives.find((d) => d.device === device);
    const p = progress[device];
    const result = snap.results.find((r) => r.device === device);
    const outcome = p?.outcome ?? (result ? (result.erased ? 'erased' : result.failure_code === 'cancelled' ? 'cancelled' : 'failed') : undefined);
    const finished = outcome !== undefined;
    const cancel = finished ? undefined : snap.run.cancel?.[device];
    return {
      device,
      // Twelve drives of one model are told apart by their device name.
      title: drive?.model ? `${drive.model} · ${device.split('/').at(-1) ?? device}` : device,
      tone: finished ? (outcome === 'erased' ? 'ok' : outcome === 'cancelled' ? 'cancelled' : 'bad') : p ? 'running' : 'waiting',
      stage: outcome ? OUTCOME[outcome] : p ? STAGE[p.stage](p) : 'Waiting to start',
      percent: outcome === 'erased' ? 100 : p?.percent,
      bytes: p && p.bytes_total > 0 && p.stage !== 'firmware' && !finished ? `${formatBytes(p.bytes_done)} of ${formatBytes(p.bytes_total)}` : '',
      rate: p && !finished ? formatRate(p.bytes_per_second) : '–',
      elapsed: p?.elapsed_seconds !== undefined ? formatDuration(p.elapsed_seconds) : '–',
      eta: p && !finished ? formatDuration(p.eta_seconds) : '–',
      canCancel: cancel?.can_cancel === true,
      cancelNote: cancel?.stopping ? 'Stopping…' : cancel?.note,
    };
  });
}

/**
 * The job line above the drives: how many finished, time elapsed, and the time left until the
 * slowest drive is done (the agent's per-drive times left, which include every stage to come).
 */
export function jobLine(snap: KioskAgentState, progress: Readonly<Record<string, DriveProgress>>): string | undefined {
  if (snap.run.status !== 'running' || snap.selected.length === 0) return undefined;
  const entries = snap.selected.map((d) => progress[d]);
  const finished = entries.filter((p) => p?.outcome !== undefined).length;
  const open = entries.filter((p) => p?.outcome === undefined);
  const etas = open.map((p) => p?.eta_seconds);
  const elapsed = Math.max(0, ...entries.map((p) => p?.elapsed_seconds ?? 0), snap.run.job?.elapsed_seconds ?? 0);
  const left = open.length === 0 ? 0 : etas.every((e) => e !== undefined) ? Math.max(...(etas as number[])) : undefined;
  const parts = [`${finished} of ${snap.selected.length} drive${snap.selected.length === 1 ? '' : 's'} finished`, `${formatDuration(elapsed)} elapsed`, left === undefined ? 'time left not known yet' : `about ${formatDuration(left)} left${snap.selected.length > 1 ? ' (slowest drive)' : ''}`];
  return parts.join(' · ');
}

/**
 * What the Shut down / Restart confirmation says: a second, plain warning while results still
 * wait to be sent, saying whether they survive it (the agent knows where its outbox is).
 */
export function powerWarning(snap: KioskAgentState, action: 'shutdown' | 'restart' = 'shutdown'): string | undefined {
  const n = snap.power?.pending_results ?? 0;
  if (n === 0) return undefined;
  const them = n === 1 ? 'it' : 'them';
  // An agent that has not said where they are kept is taken at its worst: in memory.
  const where =
    snap.power?.kept_in === 'disk'
      ? `${n === 1 ? 'It is' : 'They are'} saved on this machine's disk and sent when it next starts with the erasure service reachable.`
      : `This machine keeps ${them} only in memory: ${action === 'shutdown' ? 'shutting it down' : 'restarting it'} loses ${them}.`;
  return `${n} result${n === 1 ? ' is' : 's are'} not sent to the erasure service yet. ${where} ${action === 'shutdown' ? 'Shut down' : 'Restart'} anyway?`;
}
