import type { DriveProgress, DriveResult, KioskAgentState } from '../../contract.js';
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

/** One drive's outcome as the results list shows it. */
export interface ResultRow {
  readonly device: string;
  readonly title: string;
  readonly passed: boolean;
  readonly verdict: string;
  readonly verification: string;
  readonly certificate: string;
  readonly detail: string | undefined;
}

/** Spec 3 "Certificate status"; a null status means the result is not certifiable. */
const CERTIFICATE: Record<string, string> = {
  pending: 'Certificate queued',
  generating: 'Certificate being generated',
  complete: 'Certificate issued',
  failed: 'Certificate generation failed',
};

/** The certificate line: its `CW-…` number once looked up, with the status until it is issued. */
function certificateLine(r: DriveResult): string {
  if (!r.delivered) return 'Result not delivered to the service';
  if (!r.certificate_status) return 'Not certifiable: no certificate';
  const status = CERTIFICATE[r.certificate_status] ?? `Certificate: ${r.certificate_status}`;
  if (!r.certificate_number) return status;
  return r.certificate_status === 'complete' ? `Certificate ${r.certificate_number} issued` : `Certificate ${r.certificate_number} — ${status.replace(/^Certificate /, '').toLowerCase()}`;
}

export function resultRows(snap: KioskAgentState): ResultRow[] {
  return snap.results.map((r: DriveResult) => {
    const drive = snap.drives.find((d) => d.device === r.device);
    const passed = r.erased && r.delivered;
    return {
      device: r.device,
      title: drive?.model ?? r.device,
      passed,
      verdict: r.refused ? 'Refused — nothing written' : r.erased ? 'Erased' : 'Erase failed',
      verification: r.verification,
      certificate: certificateLine(r),
      detail: [r.wipe_result_id ? `Wipe result ${r.wipe_result_id}` : undefined, `job ${r.job_id}`, r.failure_code, r.error].filter(Boolean).join(' · ') || undefined,
    };
  });
}
