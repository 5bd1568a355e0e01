import { Type, type Static } from '@sinclair/typebox';
import { CertificateStatus, Nullable, Timestamp } from './common.js';
import { WireDriveHealth } from './wipe-health.js';

export const WIPE_STATUSES = ['completed', 'failed', 'cancelled'] as const;
export const WipeStatus = Type.Union(WIPE_STATUSES.map((s) => Type.Literal(s)));
export type WipeStatus = Static<typeof WipeStatus>;

export const VALIDATIONS = ['approved', 'rejected'] as const;
export const Validation = Type.Union(VALIDATIONS.map((s) => Type.Literal(s)));

export const DISPOSITIONS = ['sanitized', 'review', 'destroy'] as const;
export const Disposition = Type.Union(DISPOSITIONS.map((s) => Type.Literal(s)));

const Text = (maxLength = 500) => Type.String({ maxLength });

/** The drive and wipe fields of a wipe result record (spec 2), everything but the idempotency key. */
export const wipeResultFields = {
  drive_serial: Type.Optional(Text(200)),
  drive_model: Type.Optional(Text(200)),
  drive_capacity_gb: Type.Optional(Type.Integer({ minimum: 0 })),
  wipe_method: Type.Optional(Text(200)),
  passes_completed: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  started_at: Type.Optional(Timestamp),
  completed_at: Type.Optional(Timestamp),
  verification_hash: Type.Optional(Text(200)),
  wipe_status: Type.Optional(WipeStatus),
  technique: Type.Optional(Text(200)),
  validation: Type.Optional(Validation),
  disposition: Type.Optional(Disposition),
  markings_removed: Type.Optional(Type.Boolean()),
  tool_components: Type.Optional(Text(1000)),
  verification_result: Type.Optional(Text(2000)),
  // Issue 30 item 6: the health grade for resale, an addition beside the spec fields.
  health: Type.Optional(WireDriveHealth),
  // Issue 31 item 6: the boot's record (as in /api/notes), whose job details typed at the kiosk
  // (customer, lot, asset tag) the cloud puts on this wipe result. Absent: the token's defaults.
  record_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
};

/** `job_id`: the check-in's UUID, suffixed `-0`, `-1`, … per drive by the engine. */
export const JobId = Type.String({ minLength: 1, maxLength: 80 });

/** Wipe result as a device sends it to the gateway. */
export const WipeResultRecord = Type.Object(
  { job_id: JobId, ...wipeResultFields },
  { additionalProperties: false },
);
export type WipeResultRecord = Static<typeof WipeResultRecord>;

export const WipeResultAccepted = Type.Object(
  { ok: Type.Literal(true), wipe_result_id: Type.String(), certificate_status: Nullable(CertificateStatus) },
  { additionalProperties: false },
);
export type WipeResultAccepted = Static<typeof WipeResultAccepted>;

/** Certifiable: status absent or `completed`, and validation absent or `approved` (spec 2). */
export function isCertifiable(result: { wipe_status?: string | null; validation?: string | null }): boolean {
  const status = result.wipe_status ?? 'completed';
  const validation = result.validation ?? 'approved';
  return status === 'completed' && validation === 'approved';
}
