import { healthForWire, type WipeResultRecord, type WipeStatus } from '@erasure/shared';
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
    // A drive seen but not erased carries its own disposition; a locked drive no password opens may say `destroy`.
    disposition: ok ? 'sanitized' : (drive.notErased?.disposition ?? outcome.disposition ?? 'review'),
    markings_removed: false,
    tool_components: cut([toolComponents, ...(drive.psidRevert ? ['PSID revert (TCG Revert with the PSID)'] : []), ...outcome.commands, ...(drive.selfEncryption ? [`drive: ${drive.selfEncryption}`] : [])].join('; '), 1000),
    verification_result: cut([drive.connection ? `${drive.connection}.` : '', drive.psidRevert ? `Before the erase: ${drive.psidRevert}.` : '', outcome.verification, drive.selfEncryption ? `The drive is ${drive.selfEncryption}.` : ''].filter(Boolean).join(' '), 2000),
    // Issue 30 item 6: the resale grade travels beside the spec fields (absent when not graded).
    ...(outcome.health ? { health: healthForWire(outcome.health) } : {}),
  };
}
