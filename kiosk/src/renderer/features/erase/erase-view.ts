import type { DriveProgress, KioskAgentState } from '../../contract.js';
import { formatBytes, formatDuration, formatRate } from '../../format.js';
import { plainReason } from '../locked/gate.js';

/** The run's headline, from the agent's `run`. */
export function runHeadline(snap: KioskAgentState): { tone: 'info' | 'ok' | 'bad'; text: string } {
  const { run } = snap;
  if (run.status === 'idle') return { tone: 'info', text: 'No erase has run yet. Select drives on the Drives step.' };
  if (run.status === 'running') {
    const text: Record<string, string> = {
      checkin: 'Checking in with the erasure service…',
      erase: 'Erasing — keep the machine powered on.',
      results: 'Erase finished. Sending the results to the erasure service…',
    };
    return { tone: 'info', text: text[run.phase ?? ''] ?? 'Working…' };
  }
  if (run.phase === 'denied') return { tone: 'bad', text: `Erasure blocked: nothing was erased. ${plainReason(run.reason)}` };
  if (run.exit_code === 0) return { tone: 'ok', text: 'All drives erased, verified and reported. The machine can be switched off.' };
  // Erased and verified but not yet delivered is a success still being sent, never a failure.
  const erased = snap.results.length > 0 && snap.results.every((r) => r.erased);
  if (erased) return { tone: 'info', text: 'All drives erased and verified. The results are saved and being sent — keep the machine on until they are.' };
  return { tone: 'bad', text: `The run ended with problems${run.reason ? `: ${run.reason}` : ''}. See each drive below.` };
}

/** One drive's live progress line. */
export interface ProgressRow {
  readonly device: string;
  readonly title: string;
  readonly stage: string;
  readonly percent: number | undefined;
  readonly bytes: string;
  readonly rate: string;
  readonly eta: string;
}

const STAGE: Record<DriveProgress['stage'], (p: DriveProgress) => string> = {
  prepare: () => 'Preparing',
  write: (p) => `Writing — pass ${p.pass}`,
  verify: () => 'Verifying (reading back)',
  firmware: () => 'Drive erase command running',
};

export function progressRows(snap: KioskAgentState, progress: Readonly<Record<string, DriveProgress>>): ProgressRow[] {
  return snap.selected.map((device) => {
    const drive = snap.drives.find((d) => d.device === device);
    const p = progress[device];
    const done = snap.results.some((r) => r.device === device);
    return {
      device,
      title: drive?.model ?? device,
      stage: done ? 'Finished' : p ? STAGE[p.stage](p) : 'Waiting',
      percent: done ? 100 : p?.percent,
      bytes: p ? `${formatBytes(p.bytes_done)} of ${formatBytes(p.bytes_total)}` : '',
      rate: p && !done ? formatRate(p.bytes_per_second) : '–',
      eta: p && !done ? formatDuration(p.eta_seconds) : '–',
    };
  });
}
