import { InternalValidationRequest, parseUnknown, type ValidationRecorded } from '@erasure/shared';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import type * as ValidationDb from '../../adapters/db/validation.js';
import type { ValidationStore } from './sampling.js';

/** What a rejected validation tells webhook subscribers (event `validation_rejected`). */
export interface ValidationRejectedFacts {
  wipeResultId: string;
  certificateId: string;
  certificateNumber: string;
  driveSerial: string | null;
  lotId: string;
  reason: string;
  findings: string | null;
  validatedAt: string;
}

export interface ValidationReportDeps {
  /** The call's transaction: the outcome, the record's fields, the lot flag and the event commit together. */
  db: SqlRunner;
  store: ValidationStore;
  now: string;
  /** Writes the `validation_rejected` outbox row in the same transaction. */
  onRejected(db: SqlRunner, token: TokenRow, facts: ValidationRejectedFacts): Promise<void>;
}

export type ValidationReportOutcome =
  | { ok: true; created: boolean; response: ValidationRecorded }
  | { ok: false; status: 404 | 409 | 422; error: string };

const answerOf = (sample: ValidationDb.SampleRow, certificateNumber: string): ValidationRecorded => ({
  ok: true,
  validation: sample.outcome!,
  disposition: sample.outcome === 'rejected' ? 'review' : null,
  wipe_result_id: sample.wipe_public_id,
  certificate_number: certificateNumber,
  lot_id: sample.lot_public_id,
});

/**
 * Records the result of validating a picked drive. It names the original wipe by certificate
 * number and drive serial, both of which must match one certified wipe of the token's account.
 * Approved sets `validation: approved` on the wipe result. Rejected sets `validation: rejected`
 * and `disposition: review`, marks the lot as needing attention and fires `validation_rejected`;
 * the verify page then calls the certificate not valid. A drive is validated once: the same
 * report again (same `validation_id`) answers what was recorded and changes nothing, another
 * report for a drive already validated is a 409.
 */
export async function reportValidation(deps: ValidationReportDeps, token: TokenRow, body: Record<string, unknown>): Promise<ValidationReportOutcome> {
  const parsed = parseUnknown(InternalValidationRequest, body);
  if (!parsed.ok) return { ok: false, status: 422, error: `invalid validation report at ${parsed.path}: ${parsed.message}` };
  const report = parsed.value;
  const reason = report.reason?.trim() || null;
  if (report.result === 'rejected' && !reason) return { ok: false, status: 422, error: 'a rejected validation must say why (reason)' };

  const wipe = await deps.store.findCertifiedWipe(deps.db, token.account_id, report.certificate_number.trim());
  // A serial that does not match reads like an unknown number: the pair names the drive.
  if (!wipe || (wipe.drive_serial ?? '').trim() !== report.drive_serial.trim()) {
    return { ok: false, status: 404, error: 'no certificate of this account has this number and drive serial' };
  }
  const sample = await deps.store.findSampleOfWipe(deps.db, wipe.wipe_result_id);
  if (!sample) return { ok: false, status: 409, error: 'this drive was not picked for validation' };
  if (sample.outcome !== null) {
    if (sample.report_id === report.validation_id) return { ok: true, created: false, response: answerOf(sample, report.certificate_number.trim()) };
    return { ok: false, status: 409, error: `this drive's validation was already reported (${sample.outcome})` };
  }

  const recorded = await deps.store.recordValidation(deps.db, {
    sampleId: sample.id,
    wipeResultId: wipe.wipe_result_id,
    lotId: sample.lot_id,
    outcome: report.result,
    reason,
    findings: report.findings?.trim() || null,
    reportId: report.validation_id,
    dispositionBefore: wipe.disposition,
    tokenId: token.id,
    now: deps.now,
  });
  // Another report of this drive committed first (only possible across PostgreSQL sessions).
  if (!recorded) return { ok: false, status: 409, error: "this drive's validation was already reported" };
  const stored = (await deps.store.findSampleOfWipe(deps.db, wipe.wipe_result_id))!;
  if (report.result === 'rejected') {
    await deps.onRejected(deps.db, token, {
      wipeResultId: stored.wipe_public_id,
      certificateId: wipe.certificate_public_id,
      certificateNumber: report.certificate_number.trim(),
      driveSerial: stored.drive_serial,
      lotId: stored.lot_public_id,
      reason: reason!,
      findings: stored.findings,
      validatedAt: deps.now,
    });
  }
  return { ok: true, created: true, response: answerOf(stored, report.certificate_number.trim()) };
}
