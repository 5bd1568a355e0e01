import { Type, type Static } from '@sinclair/typebox';
import { ERASE_STAGES, Timestamp } from './common.js';
import { BAY_STATES } from './agent-station.js';

/**
 * The floor view (issue 32), a device route beyond the spec: what a machine's kiosk or a
 * station's bay view shows right now, sent by the agent through the gateway
 * (`POST /api/floor_report`, forwarded as `POST /internal/floor_report`) on the device token.
 *
 * A report is the machine's whole live state, not a delta: the cloud keeps the latest per
 * machine and overwrites it, so a lost report is simply replaced by the next. Results still
 * travel through the agent's durable outbox as wipe results; a report never stands in for one.
 */

export const FLOOR_REPORT_MAX_DRIVES = 256;
export const FLOOR_REPORT_MAX_BAYS = 256;
const Text = (maxLength: number) => Type.String({ maxLength });

/**
 * A drive's place in the run: `waiting` (selected or inserted, not started), an erase stage of
 * the kiosk's progress (`prepare`, `write`, `verify`, `firmware`), or its outcome.
 */
export const FLOOR_DRIVE_STAGES = ['waiting', ...ERASE_STAGES, 'erased', 'failed', 'cancelled'] as const;
export type FloorDriveStage = (typeof FLOOR_DRIVE_STAGES)[number];

export const FloorDrive = Type.Object(
  {
    /** The device path on the machine (`/dev/sdb`): unique within one report. */
    device: Text(128),
    model: Type.Optional(Text(128)),
    serial: Type.Optional(Text(128)),
    size_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Spinning disk or solid state, when the machine knows: the lot forecast gives a waiting drive the rate measured on its kind. */
    media_type: Type.Optional(Type.Union([Type.Literal('SSD'), Type.Literal('HDD')])),
    /** A station's bay label, as the chassis map names it. */
    bay: Type.Optional(Text(64)),
    stage: Type.Union(FLOOR_DRIVE_STAGES.map((s) => Type.Literal(s))),
    /** The catalogue id of the method in use, once planned. */
    method: Type.Optional(Text(64)),
    /** 1-based overwrite pass; 0 outside an overwrite. */
    pass: Type.Integer({ minimum: 0 }),
    passes: Type.Optional(Type.Integer({ minimum: 1 })),
    bytes_done: Type.Integer({ minimum: 0 }),
    bytes_total: Type.Integer({ minimum: 0 }),
    bytes_per_second: Type.Optional(Type.Number({ minimum: 0 })),
    /** Seconds left for this drive, every stage still to come included. */
    eta_seconds: Type.Optional(Type.Number({ minimum: 0 })),
    /**
     * True while a drive command runs whose time the drive itself estimated (sanitize, secure
     * erase): no byte moves on the host then, so no byte progress is not a stall.
     */
    drive_estimate: Type.Optional(Type.Boolean()),
    /** failed: why, in the kiosk's plain words. */
    error: Type.Optional(Text(500)),
    /** The job details the drive will be reported under, when the technician gave any. */
    customer: Type.Optional(Text(200)),
    lot_reference: Type.Optional(Text(200)),
    asset_tag: Type.Optional(Text(200)),
  },
  { additionalProperties: false },
);
export type FloorDrive = Static<typeof FloorDrive>;

export const FloorBay = Type.Object(
  {
    label: Text(64),
    state: Type.Union(BAY_STATES.map((s) => Type.Literal(s))),
    /** The device in the bay, matching a drive of the report. */
    device: Type.Optional(Text(128)),
    /** When the bay is expected free (its drive's time left), ISO 8601. */
    free_at: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type FloorBay = Static<typeof FloorBay>;

export const FloorReportBody = Type.Object(
  {
    /**
     * This machine, stable across reports of one boot: the DMI system UUID where the firmware
     * gives a real one, else an id the agent draws once per boot.
     */
    machine_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$' }),
    /** Drawn once per boot: a new boot's reports replace the last boot's whatever their sequence. */
    boot_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$' }),
    /** The boot's asset record, once checked in. */
    record_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** What people call the machine: the DMI product and serial, or the station's name. */
    name: Type.Optional(Text(200)),
    kind: Type.Union([Type.Literal('machine'), Type.Literal('station')]),
    /** A station's site, as its chassis map names it: the board groups it there rather than under its token's site. */
    site: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** Rises with every report of one boot; the cloud ignores a report of the same boot not newer than the one it has. */
    sequence: Type.Integer({ minimum: 0 }),
    sent_at: Timestamp,
    /** The machine's erase job, while one runs or has just finished. */
    job: Type.Optional(
      Type.Object(
        {
          drives: Type.Integer({ minimum: 0 }),
          finished: Type.Integer({ minimum: 0 }),
          elapsed_seconds: Type.Number({ minimum: 0 }),
          eta_seconds: Type.Optional(Type.Number({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
    drives: Type.Array(FloorDrive, { maxItems: FLOOR_REPORT_MAX_DRIVES }),
    /** A station's bays, in the chassis map's order. */
    bays: Type.Optional(Type.Array(FloorBay, { maxItems: FLOOR_REPORT_MAX_BAYS })),
  },
  { additionalProperties: false },
);
export type FloorReportBody = Static<typeof FloorReportBody>;

/** The cloud's answer: stored (or ignored as older than the one it holds). */
export const FloorReportAck = Type.Object(
  { ok: Type.Literal(true), stored: Type.Boolean() },
  { additionalProperties: false },
);
export type FloorReportAck = Static<typeof FloorReportAck>;

/** At most one report per machine this often, and at once on a change of stage or result. */
export const FLOOR_REPORT_INTERVAL_MS = 5_000;
/** A machine silent this long shows "lost contact". */
export const FLOOR_LOST_CONTACT_MS = 60_000;

/**
 * The floor board (`/floor` in the web app): what the cloud streams to a signed-in browser over
 * Server-Sent Events (`GET /app/api/floor/events`, event `board`, each one the whole board of the
 * account), built from the latest report of each machine.
 */
export const FloorBoardDrive = Type.Intersect([
  FloorDrive,
  Type.Object({
    /** No byte progress since this instant, longer than the account's stall time. */
    stalled_since: Type.Optional(Timestamp),
    /** The wipe result arrived: the drive is done whatever the last report said. */
    result: Type.Optional(
      Type.Object(
        {
          status: Type.Union([Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')]),
          certificate_number: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  }),
]);
export type FloorBoardDrive = Static<typeof FloorBoardDrive>;

export const FloorBoardMachine = Type.Object(
  {
    machine_id: Type.String(),
    name: Type.Optional(Type.String()),
    kind: Type.Union([Type.Literal('machine'), Type.Literal('station')]),
    /** The device token's site, or the station chassis map's; absent when none was set. */
    site: Type.Optional(Type.String()),
    last_report_at: Timestamp,
    /** Nothing heard for FLOOR_LOST_CONTACT_MS. */
    lost_contact: Type.Boolean(),
    job: FloorReportBody.properties.job,
    drives: Type.Array(FloorBoardDrive),
    bays: FloorReportBody.properties.bays,
  },
  { additionalProperties: false },
);
export type FloorBoardMachine = Static<typeof FloorBoardMachine>;

export const FloorBoard = Type.Object(
  {
    /** The cloud's clock when the board was built: times left count from here. */
    now: Timestamp,
    /** The account's stall time in seconds (default 600). */
    stall_seconds: Type.Integer({ minimum: 60 }),
    machines: Type.Array(FloorBoardMachine),
  },
  { additionalProperties: false },
);
export type FloorBoard = Static<typeof FloorBoard>;
