import type { LadderDenyReason } from '@erasure/shared';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import type { ValidationRejectedFacts } from '../validation/report.js';
import type { DriveStalledFacts } from '../floor/stalls.js';

/** The six webhook event types of spec 6, in the order the table lists them. */
export const DEVICE_EVENT_TYPES = [
  'wipe_session_ready',
  'wipe_session_blocked',
  'asset_reported',
  'hardware_tests_completed',
  'wipe_session_completed',
  'certificate_generated',
] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/**
 * What happened on a device call, as plain facts (row ids, never payloads): building the
 * payload and delivering it is the subscriber's business. `certificate_generated` is not
 * emitted here; the certificate pipeline announces it when the documents exist.
 */
export type DeviceEvent =
  | { type: 'wipe_session_ready'; token: TokenRow; jobId: string; quotaRemaining: number | null }
  | {
      type: 'wipe_session_blocked';
      token: TokenRow;
      phase: 'verify' | 'checkin';
      reason: Exclude<LadderDenyReason, 'not_found'>;
      quotaRemaining: number | null;
    }
  | { type: 'asset_reported'; token: TokenRow; assetId: number }
  | { type: 'hardware_tests_completed'; token: TokenRow; assetId: number }
  | { type: 'wipe_session_completed'; token: TokenRow; wipeResultId: number }
  // Beyond the spec's six (issue 29): a picked drive failed its validation.
  | { type: 'validation_rejected'; token: TokenRow; facts: ValidationRejectedFacts }
  // Beyond the spec (issue 32): a drive on the floor stands still.
  | { type: 'drive_stalled'; token: TokenRow; facts: DriveStalledFacts };

/**
 * Port the device domain reports events to. `emit` is called inside the transaction of the
 * write it describes and given that transaction (`db`), so an outbox row it inserts there
 * commits or rolls back with that write. It must not do network I/O.
 */
export interface DeviceEvents {
  emit(db: SqlRunner, event: DeviceEvent): Promise<void>;
}
