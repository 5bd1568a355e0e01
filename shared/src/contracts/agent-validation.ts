import { Type, type Static } from '@sinclair/typebox';

/**
 * The kiosk's "Validate a drive" action (issue 29, R2v3 Appendix B): the drives attached to this
 * machine that may be read (never the boot medium or anything mounted), whether the cloud picked
 * each one for validation, and the one read the operator started, its progress and its outcome.
 */
export const ValidationDriveStatus = Type.Union([
  /** Asking the cloud whether it picked this drive. */
  Type.Literal('asking'),
  /** Picked and waiting for its validation: the operator may start the read. */
  Type.Literal('picked'),
  /** Picked, and its validation is recorded already. */
  Type.Literal('validated'),
  /** Not picked (not erased with this account, or erased but not picked). */
  Type.Literal('not_picked'),
  /** The cloud could not be asked. */
  Type.Literal('unavailable'),
  /** This drive may not be read here (the boot medium, mounted, no serial). */
  Type.Literal('refused'),
]);
export type ValidationDriveStatus = Static<typeof ValidationDriveStatus>;

export const ValidationDriveView = Type.Object(
  {
    device: Type.String(),
    model: Type.Optional(Type.String()),
    serial: Type.Optional(Type.String()),
    size_bytes: Type.Optional(Type.Number({ minimum: 0 })),
    status: ValidationDriveStatus,
    certificate_number: Type.Optional(Type.String()),
    /** The outcome already recorded (status `validated`). */
    validation: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('rejected')])),
    /** In plain words: why it is not picked, what the read will check, or why it cannot be read. */
    note: Type.String(),
  },
  { additionalProperties: false },
);
export type ValidationDriveView = Static<typeof ValidationDriveView>;

export const ValidationOutcomeView = Type.Object(
  {
    device: Type.String(),
    certificate_number: Type.String(),
    result: Type.Union([Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('failed')]),
    /** The outcome in plain words ("Approved: every sector reads as zeros"). */
    headline: Type.String(),
    /** What the read found, in full (the Details disclosure). */
    findings: Type.String(),
    /** Whether the cloud recorded the result, and if not why. */
    reported: Type.Boolean(),
    report_error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ValidationOutcomeView = Static<typeof ValidationOutcomeView>;

export const ValidationDeskView = Type.Object(
  {
    drives: Type.Array(ValidationDriveView),
    /** The drive being read now, with its progress. */
    reading: Type.Optional(
      Type.Object(
        { device: Type.String(), bytes_done: Type.Number({ minimum: 0 }), bytes_total: Type.Number({ minimum: 0 }), percent: Type.Number({ minimum: 0, maximum: 100 }) },
        { additionalProperties: false },
      ),
    ),
    /** The last read's outcome. */
    outcome: Type.Optional(ValidationOutcomeView),
  },
  { additionalProperties: false },
);
export type ValidationDeskView = Static<typeof ValidationDeskView>;

/**
 * `look`: list the attached drives and ask the cloud which were picked; `read`: read and report
 * one picked drive the operator chose (refused for any other drive).
 */
export const ValidationIntents = [
  Type.Object({ type: Type.Literal('validate_drive'), step: Type.Literal('look') }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('validate_drive'), step: Type.Literal('read'), device: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
] as const;
