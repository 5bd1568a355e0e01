import { Type, type Static } from '@sinclair/typebox';

/**
 * Job details (issue 31 item 6), a device route beyond the spec: the customer, lot / job
 * reference and asset tag a technician types or scans (a USB barcode scanner types like a
 * keyboard) at the kiosk's Notes step. The spec closes the notes body to `{record_id, notes}`,
 * so they travel on their own route, for the boot's record; the cloud puts them on the asset and
 * on each wipe result that names the same record. A field left out (or empty) keeps the device
 * token's customer and lot, the default.
 */
export const JOB_DETAIL_MAX_LENGTH = 200;
export const JOB_DETAIL_FIELDS = ['customer', 'lot_reference', 'asset_tag'] as const;
export type JobDetailField = (typeof JOB_DETAIL_FIELDS)[number];

/** What the kiosk and the cloud's answers call each field, in plain words. */
export const JOB_DETAIL_LABELS: Record<JobDetailField, string> = { customer: 'Customer', lot_reference: 'Lot', asset_tag: 'Asset tag' };

// The wire takes more than the rule allows, so the cloud, not a schema, says what is wrong in
// plain words (and the kiosk, with the same function, before sending).
const Detail = Type.Optional(Type.String({ maxLength: 1000 }));
/**
 * A station bay's drive, by its serial: the details are for that drive alone and go before the
 * record's ("for all new drives"); absent, they are the whole record's.
 */
const DriveSerial = Type.Optional(Type.String({ minLength: 1, maxLength: 128 }));

export const JobDetailsBody = Type.Object(
  {
    record_id: Type.String({ minLength: 1, maxLength: 64 }),
    customer: Detail,
    lot_reference: Detail,
    asset_tag: Detail,
    drive_serial: DriveSerial,
  },
  { additionalProperties: false },
);
export type JobDetailsBody = Static<typeof JobDetailsBody>;

/** The details as stored, null where none was given (the token's default applies). */
export const JobDetailsSaved = Type.Object(
  {
    ok: Type.Literal(true),
    asset_id: Type.String(),
    customer: Type.Union([Type.String(), Type.Null()]),
    lot_reference: Type.Union([Type.String(), Type.Null()]),
    asset_tag: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type JobDetailsSaved = Static<typeof JobDetailsSaved>;

/** The account's customers and lots the kiosk offers as a list, and whether others may be typed. */
export const JobChoices = Type.Object(
  {
    free_entry: Type.Boolean(),
    customers: Type.Array(Type.String(), { maxItems: 1000 }),
    lots: Type.Array(Type.String(), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type JobChoices = Static<typeof JobChoices>;

// C0 and C1 controls and DEL: a scanner's stray Tab or a pasted newline is not part of a lot.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a value cannot be stored, in plain words, or undefined when it can. Leading and trailing
 * spaces are not counted (a scanner may add one); the stored value is trimmed.
 */
export function jobDetailProblem(field: JobDetailField, value: string): string | undefined {
  const label = JOB_DETAIL_LABELS[field];
  if (CONTROL.test(value)) return `${label} holds a control character (a tab, line break or similar); scan or type it again.`;
  if (value.trim().length > JOB_DETAIL_MAX_LENGTH) return `${label} is too long: at most ${JOB_DETAIL_MAX_LENGTH} characters.`;
  return undefined;
}

/** What the kiosk sends its agent: the details alone; the agent adds the boot's record. */
export const KioskJobDetails = Type.Object(
  { customer: Detail, lot_reference: Detail, asset_tag: Detail, drive_serial: DriveSerial },
  { additionalProperties: false },
);
export type KioskJobDetails = Static<typeof KioskJobDetails>;

/** The agent's loopback routes for them (beside `agentLocalApi`), relayed to the gateway routes above. */
export const agentJobDetailsApi = {
  save: { method: 'POST', url: '/api/job_details', body: KioskJobDetails },
  choices: { method: 'GET', url: '/api/job_choices' },
} as const;
