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
