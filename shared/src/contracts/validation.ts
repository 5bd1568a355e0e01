import { Type, type Static } from '@sinclair/typebox';

/**
 * Validation report (issue 29, R2v3 Appendix B), a device route beyond the spec: the validate
 * mode of the boot image read a drive the cloud picked for validation, independently of the
 * erase, and says what it found. It names the original wipe by its certificate number and the
 * drive's serial; `validation_id` is the device's id for this report, so a repeat of the same
 * report (a retry after a lost answer) is the same report.
 */
export const VALIDATION_OUTCOMES = ['approved', 'rejected'] as const;
export type ValidationOutcome = (typeof VALIDATION_OUTCOMES)[number];

export const ValidationReportBody = Type.Object(
  {
    validation_id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:-]+$' }),
    certificate_number: Type.String({ minLength: 1, maxLength: 64 }),
    drive_serial: Type.String({ minLength: 1, maxLength: 200 }),
    result: Type.Union(VALIDATION_OUTCOMES.map((o) => Type.Literal(o))),
    /** Why it was rejected, in plain words (required for `rejected`). */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    /** What the read found, in plain words (sectors read, signatures found and where). */
    findings: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  { additionalProperties: false },
);
export type ValidationReportBody = Static<typeof ValidationReportBody>;

export const ValidationRecorded = Type.Object(
  {
    ok: Type.Literal(true),
    validation: Type.Union(VALIDATION_OUTCOMES.map((o) => Type.Literal(o))),
    disposition: Type.Union([Type.Literal('review'), Type.Null()]),
    wipe_result_id: Type.String(),
    certificate_number: Type.String(),
    lot_id: Type.String(),
  },
  { additionalProperties: false },
);
export type ValidationRecorded = Static<typeof ValidationRecorded>;

/**
 * Whether the cloud picked a drive for validation (issue 29, a device route beyond the spec),
 * asked by the boot image's validate mode with only the drive's serial, so nobody types a
 * certificate number or a pattern. Spends no quota.
 */
export const ValidationPickBody = Type.Object(
  { drive_serial: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type ValidationPickBody = Static<typeof ValidationPickBody>;

/**
 * What the erasure method left on the drive, as the cloud derives it from the method catalogue:
 * zeros, a repeating fixed pattern (hex, from the drive's first byte), or high-entropy data
 * (a cryptographic erase or a random last pass).
 */
export const ExpectedContent = Type.Union([
  Type.Object({ kind: Type.Literal('zeros') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('random') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('pattern'), hex: Type.String({ pattern: '^(?:[0-9a-f]{2}){1,64}$' }) }, { additionalProperties: false }),
]);
export type ExpectedContent = Static<typeof ExpectedContent>;

export const ValidationPicked = Type.Object(
  {
    picked: Type.Literal(true),
    certificate_number: Type.String({ minLength: 1, maxLength: 64 }),
    lot_id: Type.String({ minLength: 1 }),
    wipe_method: Type.String({ maxLength: 200 }),
    expect: ExpectedContent,
    /** The outcome already recorded for this drive, or null while it waits for its validation. */
    validation: Type.Union([...VALIDATION_OUTCOMES.map((o) => Type.Literal(o)), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ValidationPicked = Static<typeof ValidationPicked>;

/** Not picked, and why in plain words (not erased with this account, erased but not picked). */
export const ValidationNotPicked = Type.Object(
  { picked: Type.Literal(false), reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
export type ValidationNotPicked = Static<typeof ValidationNotPicked>;

export const ValidationPickAnswer = Type.Union([ValidationPicked, ValidationNotPicked]);
export type ValidationPickAnswer = Static<typeof ValidationPickAnswer>;
