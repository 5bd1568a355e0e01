import type { DriveResult, KioskAgentState } from '../../contract.js';

/**
 * One drive's outcome as the results list shows it: plain words first (`verdict`, `certificate`,
 * `advice`), the internals (method id, verification wording, ids) only in `details`, behind a
 * disclosure. A drive that was erased is never shown as failed, whatever the network did.
 */
export interface ResultSummary {
  readonly device: string;
  readonly title: string;
  /** `cancelled`: the operator stopped it; neither a success nor a failure of the erase. */
  readonly tone: 'ok' | 'bad' | 'cancelled';
  readonly verdict: string;
  readonly certificate: string;
  /** What to do next, when something is left to do. */
  readonly advice: string | undefined;
  readonly details: ReadonlyArray<readonly [label: string, value: string]>;
  /** The erased drive's health grade for resale: beside the verdict, never instead of it (an F drive is still erased). */
  readonly health: { readonly grade: string; readonly headline: string; readonly reasons: readonly string[] } | undefined;
}

/** Spec 3 "Certificate status"; a null status means the result is not certifiable. */
const CERTIFICATE: Record<string, string> = {
  pending: 'Certificate queued',
  generating: 'Certificate being generated',
  complete: 'Certificate issued',
  failed: 'Certificate generation failed',
};

/** The certificate line: its `CW-…` number once looked up, with the status until it is issued. */
/** The operator stopped this drive's erase (the agent reports it `cancelled`, never certified). */
const cancelled = (r: DriveResult) => r.failure_code === 'cancelled';

function certificateLine(r: DriveResult): string {
  if (cancelled(r)) return 'No certificate: cancelled';
  if (!r.erased) return 'No certificate: the drive was not erased';
  if (r.delivery_refused) return 'No certificate: the erasure service refused this result';
  if (!r.delivered) return 'The certificate number follows once the result reaches the service.';
  if (!r.certificate_status) return 'Not certifiable: no certificate';
  const status = CERTIFICATE[r.certificate_status] ?? `Certificate: ${r.certificate_status}`;
  if (!r.certificate_number) return status;
  return r.certificate_status === 'complete' ? `Certificate ${r.certificate_number} issued` : `Certificate ${r.certificate_number} — ${status.replace(/^Certificate /, '').toLowerCase()}`;
}

function verdictOf(r: DriveResult): string {
  if (r.refused) return 'Not erased — the drive was refused before anything was written';
  if (cancelled(r)) return 'Cancelled — not erased, not certified';
  if (!r.erased) return 'Erase failed — the drive is not certified';
  // The erase succeeded whatever the network does: sending is said beside it, never instead of it.
  if (r.delivery_refused) return 'Erased and verified · the service refused the result';
  if (!r.delivered) return 'Erased and verified · result saved, sending…';
  return 'Erased and verified';
}

function adviceOf(r: DriveResult): string | undefined {
  // `destroy`: nothing this machine can run will erase it (a drive locked at level maximum).
  if (r.disposition === 'destroy') return 'The drive still holds its data and cannot be erased here: set it aside for destruction. See Details for why.';
  if (r.refused) return 'The drive still holds its data. See Details for why, then erase it again or set it aside.';
  if (cancelled(r)) return 'Part of the drive may still hold data: erase it again before it leaves.';
  if (!r.erased) return 'The drive may still hold data. Erase it again, or set it aside for destruction.';
  if (r.delivery_refused) return 'The drive is erased but has no certificate. See Details for why; ask your administrator.';
  return undefined;
}

/**
 * The line above the results while any is still on this machine only: how many, and that the
 * machine must stay on (on a stick without a data volume the results live in memory).
 */
export function deliveryNotice(snap: KioskAgentState): string | undefined {
  const waiting = snap.results.filter((r) => !r.delivered && !r.delivery_refused).length;
  if (waiting === 0) return undefined;
  const what = waiting === 1 ? 'One result is' : `${waiting} results are`;
  return `${what} saved on this machine and not yet received by the erasure service. Keep the machine on until they are sent: this happens on its own every minute, or now with Send now.`;
}

/**
 * The title of a result, as the drive's row reads: model and serial. A physical disk a RAID
 * virtual disk hides is no drive of the list: it is found among that virtual disk's hidden disks
 * and says which controller it sits behind, never only its `/dev/bus/N (megaraid,M)` node.
 */
function titleOf(snap: KioskAgentState, device: string): string {
  const drive = snap.drives.find((d) => d.device === device);
  if (drive) return [drive.model ?? device, drive.serial ? `S/N ${drive.serial}` : undefined].filter(Boolean).join(' · ');
  for (const d of snap.drives) {
    const hidden = d.connection?.hidden?.find((h) => h.device === device);
    if (hidden) return [hidden.model ?? 'Physical disk', hidden.serial ? `S/N ${hidden.serial}` : undefined, d.connection!.summary.replace(/, virtual disk$/, '')].filter(Boolean).join(' · ');
  }
  return device;
}

export function resultSummaries(snap: KioskAgentState): ResultSummary[] {
  return snap.results.map((r) => {
    const details: Array<[string, string | undefined]> = [
      ['Device', r.device],
      ['Method', r.method],
      ['Passes', r.passes === null ? undefined : String(r.passes)],
      ['Verification', r.verification],
      ['Verification hash', r.verification_hash],
      ['Wipe result', r.wipe_result_id],
      ['Job', r.job_id],
      ['Failure code', r.failure_code],
      ['Error', r.error],
      ...(r.health?.facts.map((f): [string, string] => [f.label, f.value]) ?? []),
    ];
    return {
      device: r.device,
      title: titleOf(snap, r.device),
      tone: r.erased ? 'ok' : cancelled(r) ? 'cancelled' : 'bad',
      verdict: verdictOf(r),
      certificate: certificateLine(r),
      advice: adviceOf(r),
      details: details.filter((d): d is [string, string] => d[1] !== undefined && d[1] !== ''),
      health: r.erased && r.health ? { grade: r.health.grade, headline: `Health grade ${r.health.grade}: ${r.health.label}`, reasons: r.health.reasons.map((x) => x.text) } : undefined,
    };
  });
}
