import { Type, type Static } from '@sinclair/typebox';

/** DMI identity of a machine; identity is `uuid` + `serial` (spec 2). */
export const SystemIdentity = Type.Object(
  {
    uuid: Type.Optional(Type.String({ maxLength: 200 })),
    serial: Type.Optional(Type.String({ maxLength: 200 })),
    manufacturer: Type.Optional(Type.String({ maxLength: 200 })),
    product: Type.Optional(Type.String({ maxLength: 200 })),
    /** The sandbox's own examples say `vendor`/`model`; read as manufacturer/product. */
    vendor: Type.Optional(Type.String({ maxLength: 200 })),
    model: Type.Optional(Type.String({ maxLength: 200 })),
    asset_tag: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);
export type SystemIdentity = Static<typeof SystemIdentity>;

/**
 * The fingerprint document. Sections are optional and open-ended (spec 2, 9): unknown
 * sections pass through untouched, and the named fields are typed where the spec names them.
 */
const Section = <P extends Record<string, import('@sinclair/typebox').TSchema>>(properties: P) =>
  Type.Object(properties, { additionalProperties: true });
const Str = Type.Optional(Type.String());
const Int = Type.Optional(Type.Integer({ minimum: 0 }));

export const FingerprintDrive = Section({
  model: Str,
  serial: Str,
  size_bytes: Int,
  /** `SSD`, `HDD` (or `NVMe SSD`): what the wipes grid shows as media type. */
  media_type: Str,
  transport: Str,
});
export type FingerprintDrive = Static<typeof FingerprintDrive>;

/**
 * The fingerprint document. Sections are optional and open-ended (spec 2, 9): unknown sections
 * and fields pass through untouched. The fields typed here are the ones the cloud promotes to
 * asset columns, so the agent writes them under exactly these names.
 */
export const Fingerprint = Type.Object(
  {
    system: Type.Optional(SystemIdentity),
    baseboard: Type.Optional(Section({ manufacturer: Str, product: Str, serial: Str })),
    bios: Type.Optional(Section({ vendor: Str, version: Str, date: Str })),
    firmware: Type.Optional(Section({ mode: Str, secure_boot: Type.Optional(Type.Boolean()) })),
    tpm: Type.Optional(Section({ version: Str })),
    cpu: Type.Optional(Section({ model: Str, cores: Int, threads: Int })),
    memory: Type.Optional(Section({ total_bytes: Int })),
    gpus: Type.Optional(Type.Array(Section({ model: Str }), { maxItems: 64 })),
    storage: Type.Optional(Type.Array(FingerprintDrive, { maxItems: 256 })),
    batteries: Type.Optional(
      Type.Array(Section({ health_pct: Type.Optional(Type.Number({ minimum: 0 })) }), { maxItems: 16 }),
    ),
  },
  { additionalProperties: true },
);
export type Fingerprint = Static<typeof Fingerprint>;

/** Hardware test wire ids (spec 2, hardware test snapshot). */
export const TEST_WIRE_IDS = [
  'keyboard',
  'display',
  'usb_ports',
  'battery',
  'wifi_adapter',
  'bluetooth',
  'webcam',
  'audio',
  'touchscreen',
] as const;
export type TestWireId = (typeof TEST_WIRE_IDS)[number];

export const TEST_STATUSES = ['not_started', 'passed', 'failed', 'not_applicable', 'detected'] as const;
export const TestStatus = Type.Union(TEST_STATUSES.map((s) => Type.Literal(s)));
export type TestStatus = Static<typeof TestStatus>;

export const TestResult = Type.Object(
  { status: TestStatus, detail: Type.Optional(Type.String({ maxLength: 4000 })) },
  { additionalProperties: false },
);
export type TestResult = Static<typeof TestResult>;

/** A full snapshot keyed by wire id; it replaces the previous one. Unknown ids are invalid. */
export const TestSnapshot = Type.Object(
  {
    keyboard: Type.Optional(TestResult),
    display: Type.Optional(TestResult),
    usb_ports: Type.Optional(TestResult),
    battery: Type.Optional(TestResult),
    wifi_adapter: Type.Optional(TestResult),
    bluetooth: Type.Optional(TestResult),
    webcam: Type.Optional(TestResult),
    audio: Type.Optional(TestResult),
    touchscreen: Type.Optional(TestResult),
  } satisfies Record<TestWireId, unknown>,
  { additionalProperties: false },
);
export type TestSnapshot = Static<typeof TestSnapshot>;

/** A chassis bay as stored: the cloud drops bays without a non-blank lane and label. */
/** A chassis map's site, as typed in the mapping wizard's naming step. */
export const CHASSIS_SITE_MAX = 100;

export const Bay = Type.Object(
  {
    lane: Type.String({ minLength: 1 }),
    label: Type.String({ minLength: 1 }),
    connector: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);
export type Bay = Static<typeof Bay>;

export const ChassisMap = Type.Object(
  {
    name: Type.String(),
    bays: Type.Array(Bay, { minItems: 1 }),
    /** Where the station stands ("Leeds floor 2"): the floor view groups it there, before its token's site. */
    site: Type.Optional(Type.String({ minLength: 1, maxLength: CHASSIS_SITE_MAX })),
  },
  { additionalProperties: false },
);
export type ChassisMap = Static<typeof ChassisMap>;

/** The map as a device submits it: bays are only sorted out by the cloud (spec 2, chassis map). */
export const ChassisMapDraft = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    site: Type.Optional(Type.String({ maxLength: CHASSIS_SITE_MAX })),
    bays: Type.Array(Type.Unknown(), { maxItems: 512 }),
  },
  { additionalProperties: true },
);
export type ChassisMapDraft = Static<typeof ChassisMapDraft>;
