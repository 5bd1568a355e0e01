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
export const Fingerprint = Type.Object(
  {
    system: Type.Optional(SystemIdentity),
    cpu: Type.Optional(Type.Object({ model: Type.Optional(Type.String()) }, { additionalProperties: true })),
    memory: Type.Optional(
      Type.Object({ total_bytes: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: true }),
    ),
    storage: Type.Optional(
      Type.Array(
        Type.Object(
          { model: Type.Optional(Type.String()), serial: Type.Optional(Type.String()) },
          { additionalProperties: true },
        ),
        { maxItems: 256 },
      ),
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
  { name: Type.String(), bays: Type.Array(Bay, { minItems: 1 }) },
  { additionalProperties: false },
);
export type ChassisMap = Static<typeof ChassisMap>;

/** The map as a device submits it: bays are only sorted out by the cloud (spec 2, chassis map). */
export const ChassisMapDraft = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    bays: Type.Array(Type.Unknown(), { maxItems: 512 }),
  },
  { additionalProperties: true },
);
export type ChassisMapDraft = Static<typeof ChassisMapDraft>;
