import { Type, type Static } from '@sinclair/typebox';

/**
 * A drive's health for resale on the wire (issue 30 item 6): an addition beside the spec's wipe
 * result fields, sent by agents that grade health and absent from older ones. Every size is
 * bounded so a wipe result stays small: the grade, its reasons in plain words, the SMART counters
 * the grade reads (before and after the erase), and the overwrite's rate over at most 128 regions.
 */
const Count = Type.Integer({ minimum: 0, maximum: 2 ** 48 });

export const HEALTH_GRADES = ['A', 'B', 'C', 'F'] as const;
export const WireHealthGrade = Type.Union(HEALTH_GRADES.map((g) => Type.Literal(g)));

/** At most this many reasons and profile regions (the agent profiles about 100). */
export const MAX_HEALTH_REASONS = 20;
export const MAX_PROFILE_REGIONS = 128;

/** The SMART counters the grade reads, from one smartctl read (snake_case of SmartHealth). */
export const WireSmartSummary = Type.Object(
  {
    protocol: Type.Optional(Type.Union([Type.Literal('ATA'), Type.Literal('NVMe'), Type.Literal('SCSI')])),
    passed: Type.Optional(Type.Boolean()),
    power_on_hours: Type.Optional(Count),
    percentage_used: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
    reallocated_sectors: Type.Optional(Count),
    pending_sectors: Type.Optional(Count),
    offline_uncorrectable: Type.Optional(Count),
    crc_errors: Type.Optional(Count),
    media_errors: Type.Optional(Count),
    critical_warning: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
    grown_defects: Type.Optional(Count),
    uncorrected_errors: Type.Optional(Count),
  },
  { additionalProperties: false },
);
export type WireSmartSummary = Static<typeof WireSmartSummary>;

/** The SMART short self-test's outcome (health-evidence.ts SelfTestOutcome), where the account enables it. */
export const WireSelfTest = Type.Object(
  {
    outcome: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('timed_out'), Type.Literal('not_supported'), Type.Literal('aborted')]),
    failing_lba: Type.Optional(Count),
    detail: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type WireSelfTest = Static<typeof WireSelfTest>;

export const WireDriveHealth = Type.Object(
  {
    grade: WireHealthGrade,
    /** Each matching rule's reason, in a buyer's words. */
    reasons: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: MAX_HEALTH_REASONS }),
    smart_before: Type.Optional(WireSmartSummary),
    smart_after: Type.Optional(WireSmartSummary),
    /** Why SMART could not be read, when it could not. */
    smart_unavailable: Type.Optional(Type.String({ maxLength: 200 })),
    /** Bytes per profile region (the last may be shorter). */
    region_bytes: Type.Optional(Count),
    /** MB/s of each region in LBA order; null where the region was not reached. */
    profile_mbps: Type.Optional(Type.Array(Type.Union([Type.Number({ minimum: 0, maximum: 1e6 }), Type.Null()]), { maxItems: MAX_PROFILE_REGIONS })),
    io_errors: Type.Optional(Count),
    retries: Type.Optional(Count),
    self_test: Type.Optional(WireSelfTest),
  },
  { additionalProperties: false },
);
export type WireDriveHealth = Static<typeof WireDriveHealth>;
