import { randomUUID } from 'node:crypto';
import type { CallResult, CloudClient } from '../adapters/cloud-client.js';
import type { Expected } from './expected.js';
import { readAndCheckDrive, type ReadOptions, type ValidationRead } from './read-drive.js';
import { describeValidation } from './words.js';

/** A drive the cloud picked for validation, as the Validation list names it. */
export interface PickedDrive {
  readonly device: string;
  readonly certificateNumber: string;
  readonly driveSerial: string;
  /** What the erasure method left on it. */
  readonly expected: Expected;
}

/**
 * Validates a picked drive and reports the result (issue 29): a full independent read, then
 * `POST /api/validation` linking it to the original wipe by certificate number and drive serial.
 * One `validation_id` per run, so a retry of the report after a lost answer is the same report.
 */
export async function validateAndReport(
  deps: { cloud: CloudClient; newId?: () => string; onProgress?: ReadOptions['onProgress'] },
  drive: PickedDrive,
): Promise<{ read: ValidationRead; findings: string; reason: string | null; report: CallResult<'validationReport'> }> {
  const read = await readAndCheckDrive({ device: drive.device, expected: drive.expected, ...(deps.onProgress ? { onProgress: deps.onProgress } : {}) });
  const words = describeValidation(read, drive.expected);
  const report = await deps.cloud.call('validationReport', {
    validation_id: `val-${(deps.newId ?? randomUUID)()}`,
    certificate_number: drive.certificateNumber,
    drive_serial: drive.driveSerial,
    result: read.approved ? 'approved' : 'rejected',
    ...(words.reason ? { reason: words.reason.slice(0, 500) } : {}),
    findings: words.findings.slice(0, 4000),
  });
  return { read, ...words, report };
}
