import type { ExpectedContent, ValidationOutcome } from '@erasure/shared';
import { denialReason, type ApiError, type CloudClient } from '../adapters/cloud-client.js';
import { describeExpected, type Expected } from './expected.js';
import type { ReadOptions, ValidationRead } from './read-drive.js';
import { validateAndReport } from './report-validation.js';

/** A drive the operator (or the GRUB entry) chose to validate: its device and its serial. */
export interface DriveToValidate {
  readonly device: string;
  readonly serial: string;
}

/** What validating a chosen drive came to, for the kiosk and the validate mode. */
export type PickedValidationOutcome =
  /** The cloud could not be asked (gateway unreachable, refused token, garbled answer). */
  | { readonly kind: 'unavailable'; readonly reason: string }
  /** The cloud did not pick this drive; nothing was read. */
  | { readonly kind: 'not_picked'; readonly reason: string }
  /** Picked, and its validation was already recorded; nothing was read. */
  | { readonly kind: 'already_validated'; readonly certificateNumber: string; readonly validation: ValidationOutcome; readonly reason: string }
  /** Read in full and checked; `reported` says whether the cloud took the result. */
  | {
      readonly kind: 'validated';
      readonly result: ValidationOutcome;
      readonly certificateNumber: string;
      readonly lotId: string;
      readonly wipeMethod: string;
      /** What every sector should hold, in words ("zeros", "the pattern 0xAA"). */
      readonly expected: string;
      readonly read: ValidationRead;
      readonly findings: string;
      readonly reason: string | null;
      readonly reported: boolean;
      readonly reportError?: string;
    };

export interface ValidatePickedDeps {
  readonly cloud: CloudClient;
  readonly newId?: () => string;
  /** Progress of the read (bytes done, total). */
  readonly onProgress?: ReadOptions['onProgress'];
}

/** The wire's expected content as the reader's. */
export function expectedOf(content: ExpectedContent): Expected {
  return content.kind === 'pattern' ? { kind: 'pattern', pattern: Buffer.from(content.hex, 'hex') } : { kind: content.kind };
}

const callError = (what: string, error: ApiError): string => `${what}: ${denialReason(error)}`;

/**
 * Validates a drive the cloud picked (issue 29, R2v3 Appendix B), knowing only its serial: asks
 * the cloud whether it was picked and what its method left, refuses plainly when it was not (or
 * was validated already) without reading a byte, else reads every sector independently of the
 * erase and reports the result, linked to the original wipe by certificate number and serial.
 */
export async function validatePickedDrive(deps: ValidatePickedDeps, drive: DriveToValidate): Promise<PickedValidationOutcome> {
  const asked = await deps.cloud.call('validationPick', { drive_serial: drive.serial });
  if (!asked.ok) return { kind: 'unavailable', reason: callError('Could not ask the cloud whether this drive was picked', asked.error) };
  const pick = asked.value;
  if (!pick.picked) return { kind: 'not_picked', reason: pick.reason };
  if (pick.validation !== null) {
    return {
      kind: 'already_validated',
      certificateNumber: pick.certificate_number,
      validation: pick.validation,
      reason: `This drive (certificate ${pick.certificate_number}) was already validated: ${pick.validation}.`,
    };
  }
  const expected = expectedOf(pick.expect);
  const done = await validateAndReport(
    { cloud: deps.cloud, ...(deps.newId ? { newId: deps.newId } : {}), ...(deps.onProgress ? { onProgress: deps.onProgress } : {}) },
    { device: drive.device, certificateNumber: pick.certificate_number, driveSerial: drive.serial, expected },
  );
  return {
    kind: 'validated',
    result: done.read.approved ? 'approved' : 'rejected',
    certificateNumber: pick.certificate_number,
    lotId: pick.lot_id,
    wipeMethod: pick.wipe_method,
    expected: describeExpected(expected),
    read: done.read,
    findings: done.findings,
    reason: done.reason,
    reported: done.report.ok,
    ...(done.report.ok ? {} : { reportError: callError('The validation was not recorded', done.report.error) }),
  };
}
