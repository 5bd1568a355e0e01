import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** ISO 8601 date-time with a zone, e.g. `2026-11-22T13:07:12Z`. */
export const ISO_8601_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$';
export const Timestamp = Type.String({ pattern: ISO_8601_PATTERN, maxLength: 40 });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Every error with a body is one JSON object with an `error` field (spec 7). */
export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: false });
export type ErrorBody = Static<typeof ErrorBody>;

export const Ok = Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false });
export type Ok = Static<typeof Ok>;

export const TOKEN_STATUSES = ['active', 'revoked', 'suspended', 'disabled'] as const;
export const TokenStatus = Type.Union(TOKEN_STATUSES.map((s) => Type.Literal(s)));
export type TokenStatus = Static<typeof TokenStatus>;

export const PRODUCTS = ['engine', 'hotswap'] as const;
export const Product = Type.Union(PRODUCTS.map((p) => Type.Literal(p)));
export type Product = Static<typeof Product>;

/** Reasons the cloud's decision ladder gives (spec 3). */
export const LADDER_DENY_REASONS = [
  'disabled',
  'revoked',
  'suspended',
  'account_inactive',
  'quota_exceeded',
  'not_found',
] as const;
/** Reasons the gateway adds of its own (spec 7). */
export const GATEWAY_DENY_REASONS = ['invalid_token', 'validation_unavailable'] as const;
export const DENY_REASONS = [...LADDER_DENY_REASONS, ...GATEWAY_DENY_REASONS] as const;
export const DenyReason = Type.Union(DENY_REASONS.map((r) => Type.Literal(r)));
export type DenyReason = Static<typeof DenyReason>;
export type LadderDenyReason = (typeof LADDER_DENY_REASONS)[number];

export const QuotaRemaining = Nullable(Type.Integer({ minimum: 0 }));

export const CERTIFICATE_STATUSES = ['pending', 'generating', 'complete', 'failed'] as const;
export const CertificateStatus = Type.Union(CERTIFICATE_STATUSES.map((s) => Type.Literal(s)));
export type CertificateStatus = Static<typeof CertificateStatus>;

/**
 * A drive's erase stages, as the kiosk's progress and the floor view both name them: an overwrite
 * pass, the read-back, a drive command (firmware erase), and what comes before the first write.
 */
export const ERASE_STAGES = ['prepare', 'write', 'verify', 'firmware'] as const;
