import type { WipeResultRecord, WipeStatus } from '@erasure/shared';
import type { EraseOutcome } from '../erase/erase-drive.js';
import type { DriveJob } from './types.js';

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * `wipe_status` (spec 2): `cancelled` for an erase the operator stopped, `failed` for anything
 * else that did not complete (refused, I/O error, not verified, pulled out of its bay).
 */
function wipeStatusOf(outcome: EraseOutcome): WipeStatus {
  if (outcome.ok) return 'completed';
  return outcome.failureCode === 'cancelled' ? 'cancelled' : 'failed';
}

/**
 * The wipe result record for one drive (spec 2). A drive that failed, was refused or cancelled
 * is still reported, as `failed`/`cancelled` and `rejected`, so it is listed but never certified;
 * `verification_result` says why.
 */
export function wipeResultBody(drive: DriveJob, outcome: EraseOutcome, jobId: string, toolComponents: string): WipeResultRecord {
  const ok = outcome.ok;
  return {
    job_id: jobId,
    ...(drive.serial ? { drive_serial: cut(drive.serial, 200) } : {}),
    ...(drive.model ? { drive_model: cut(drive.model, 200) } : {}),
    // Decimal gigabytes, as drive labels count them.
    // After an HPA/DCO removal the drive is bigger than it was listed: the erased capacity counts.
    ...((outcome.restoredSizeBytes ?? drive.sizeBytes) !== undefined ? { drive_capacity_gb: Math.round((outcome.restoredSizeBytes ?? drive.sizeBytes ?? 0) / 1e9) } : {}),
    // A firmware erase its markers disproved is certified as the overwrite that followed (Clear).
    wipe_method: cut(outcome.certifiedAs?.label ?? drive.label, 200),
    passes_completed: outcome.passes,
    started_at: outcome.startedAt,
    completed_at: outcome.completedAt,
    ...(outcome.verificationHash ? { verification_hash: outcome.verificationHash } : {}),
    wipe_status: wipeStatusOf(outcome),
    technique: cut(outcome.certifiedAs?.technique ?? drive.technique, 200),
    validation: ok ? 'approved' : 'rejected',
    disposition: ok ? 'sanitized' : (outcome.disposition ?? 'review'),
    markings_removed: false,
    tool_components: cut([toolComponents, ...outcome.commands].join('; '), 1000),
    verification_result: cut(outcome.verification, 2000),
  };
}
