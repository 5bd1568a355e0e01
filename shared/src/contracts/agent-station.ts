import { Type, type Static } from '@sinclair/typebox';

/**
 * The hotswap station as the kiosk shows it (AgentState.station): the mapping wizard while the
 * chassis has no map, then the bay view laid out like the chassis. The agent holds every rule;
 * `can` says what each bay allows now.
 */

/** How a slot is wired (controller, port, phy, expander, SES slot); kept in the map's `connector`. */
export const StationConnector = Type.Object(
  {
    transport: Type.String(),
    controller: Type.String(),
    /** A dual-port NVMe drive's other controllers (PCI addresses); `controller` is the lowest. */
    other_controllers: Type.Optional(Type.Array(Type.String())),
    port: Type.Optional(Type.String()),
    phy: Type.Optional(Type.Integer()),
    expander: Type.Optional(Type.String()),
    target: Type.Optional(Type.String()),
    usb_path: Type.Optional(Type.String()),
    pcie_slot: Type.Optional(Type.String()),
    enclosure: Type.Optional(Type.Object({ id: Type.String(), slot: Type.String() }, { additionalProperties: false })),
    /** Where the bay sits in the chassis grid (0-based), and the grid's shape. */
    grid: Type.Optional(
      Type.Object({ row: Type.Integer({ minimum: 0 }), column: Type.Integer({ minimum: 0 }), rows: Type.Integer({ minimum: 1 }), columns: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type StationConnector = Static<typeof StationConnector>;

export const GridShape = Type.Object({ rows: Type.Integer({ minimum: 1 }), columns: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
export type GridShape = Static<typeof GridShape>;

/** A controller the wizard found, with how many slots it has seen drives in. */
export const StationController = Type.Object(
  { controller: Type.String(), transport: Type.String(), description: Type.Optional(Type.String()), bays: Type.Optional(Type.Integer({ minimum: 1 })) },
  { additionalProperties: false },
);

const WizardLane = Type.Object(
  { lane: Type.String(), connector: StationConnector, device: Type.Optional(Type.String()), model: Type.Optional(Type.String()), serial: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const WizardView = Type.Object(
  {
    step: Type.Union([Type.Literal('mapping'), Type.Literal('naming'), Type.Literal('saving'), Type.Literal('saved')]),
    controllers: Type.Array(StationController),
    /** Bays labelled so far, in order, with the number each was asked for as. */
    bays: Type.Array(Type.Object({ number: Type.Integer({ minimum: 1 }), lane: Type.String(), label: Type.String(), connector: StationConnector }, { additionalProperties: false })),
    skipped: Type.Array(Type.Integer({ minimum: 1 })),
    /** The bay number asked for next ("insert a drive into Bay N"). */
    next_bay: Type.Integer({ minimum: 1 }),
    /** How many bays the controllers report, when they all say: past it no bay is asked for. */
    bay_count: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Drives already seated when the wizard started: asked about, never assigned silently. */
    preexisting: Type.Array(WizardLane),
    /** A lane just seen, with the label proposed for it. */
    proposal: Type.Optional(Type.Object({ lane: Type.String(), connector: StationConnector, label: Type.String(), device: Type.Optional(Type.String()) }, { additionalProperties: false })),
    grid: GridShape,
    name: Type.String(),
    /** The site typed beside the name ('' for none). */
    site: Type.String(),
    /** Why the last save failed (the wizard stays on naming). */
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type WizardView = Static<typeof WizardView>;

export const BAY_STATES = ['empty', 'detected', 'awaiting_confirmation', 'checking_in', 'erasing', 'verifying', 'passed', 'failed', 'cancelled', 'pulled'] as const;
export type BayStateName = (typeof BAY_STATES)[number];

export const StationBayView = Type.Object(
  {
    lane: Type.String(),
    label: Type.String(),
    connector: Type.Optional(StationConnector),
    state: Type.Union(BAY_STATES.map((s) => Type.Literal(s))),
    drive: Type.Optional(
      Type.Object(
        {
          device: Type.String(),
          model: Type.Optional(Type.String()),
          serial: Type.Optional(Type.String()),
          size_bytes: Type.Optional(Type.Number({ minimum: 0 })),
          media_type: Type.Optional(Type.Union([Type.Literal('SSD'), Type.Literal('HDD')])),
          health: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('unknown')]),
        },
        { additionalProperties: false },
      ),
    ),
    progress: Type.Optional(
      Type.Object(
        {
          method: Type.String(),
          pass: Type.Integer({ minimum: 0 }),
          percent: Type.Number({ minimum: 0, maximum: 100 }),
          bytes_per_second: Type.Optional(Type.Number({ minimum: 0 })),
          eta_seconds: Type.Optional(Type.Number({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
    verify_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    job_id: Type.Optional(Type.String()),
    certificate_number: Type.Optional(Type.String()),
    /** failed / pulled: why. */
    reason: Type.Optional(Type.String()),
    /** failed, cancelled: true when the drive was never written (a denial, the guard refused it, a cancel before the first write). */
    untouched: Type.Optional(Type.Boolean()),
    /** pulled: the phase the drive was pulled in. */
    during: Type.Optional(Type.String()),
    /**
     * checking_in: the erasure service did not answer (gateway or cloud down). The drive waits,
     * untouched, and the bay asks again at `retry_at`; nothing is erased without an allow.
     */
    waiting_for_cloud: Type.Optional(
      Type.Object(
        { reason: Type.String(), attempts: Type.Integer({ minimum: 1 }), since: Type.String(), retry_at: Type.String() },
        { additionalProperties: false },
      ),
    ),
    /** The enclosure can blink this bay's locate LED. */
    can_locate: Type.Boolean(),
    can: Type.Object({ confirm: Type.Boolean(), cancel: Type.Boolean() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type StationBayView = Static<typeof StationBayView>;

export const STATION_PHASES = ['waiting_for_unlock', 'looking_up', 'wizard', 'bays', 'failed'] as const;

export const StationView = Type.Object(
  {
    phase: Type.Union(STATION_PHASES.map((p) => Type.Literal(p))),
    reason: Type.Optional(Type.String()),
    policy: Type.Union([Type.Literal('auto'), Type.Literal('confirm')]),
    /** The map in use (bays phase). */
    map: Type.Optional(Type.Object({ name: Type.String(), site: Type.Optional(Type.String()), grid: GridShape }, { additionalProperties: false })),
    wizard: Type.Optional(WizardView),
    bays: Type.Array(StationBayView),
    /** Drives seated in slots the map does not name: shown, never erased. */
    unmapped: Type.Array(Type.Object({ device: Type.String(), lane: Type.Optional(Type.String()) }, { additionalProperties: false })),
    /** False when udev events cannot be watched: the station then says it cannot see drives come and go. */
    watching: Type.Boolean(),
    watch_error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type StationView = Static<typeof StationView>;

/** The wizard's operator steps (intent `station_wizard`). */
export const WizardAction = Type.Union([
  Type.Object({ action: Type.Literal('accept'), label: Type.Optional(Type.String({ maxLength: 60 })) }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('assign_preexisting'), lane: Type.String({ maxLength: 300 }), label: Type.Optional(Type.String({ maxLength: 60 })) }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('skip') }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('undo') }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('grid'), rows: Type.Integer({ minimum: 1, maximum: 64 }), columns: Type.Integer({ minimum: 1, maximum: 64 }) }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('finish') }, { additionalProperties: false }),
  /** The naming step: the map's name and, optionally, the site the station stands at. */
  Type.Object({ action: Type.Literal('name'), name: Type.String({ maxLength: 200 }), site: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
  Type.Object({ action: Type.Literal('save') }, { additionalProperties: false }),
]);
export type WizardAction = Static<typeof WizardAction>;

/** Station intents, beside the kiosk's own. */
export const StationIntents = [
  Type.Object({ type: Type.Literal('station_wizard'), step: WizardAction }, { additionalProperties: false }),
  /** Settings: map the chassis again (saved as an upsert). */
  Type.Object({ type: Type.Literal('station_remap') }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('station_policy'), policy: Type.Union([Type.Literal('auto'), Type.Literal('confirm')]) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('bay_confirm'), lane: Type.String({ maxLength: 300 }) }, { additionalProperties: false }),
  /** "Erase every waiting bay" (issue 32): the Erase of every bay whose drive waits for the operator. */
  Type.Object({ type: Type.Literal('bay_confirm_waiting') }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('bay_cancel'), lane: Type.String({ maxLength: 300 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('bay_locate'), lane: Type.String({ maxLength: 300 }) }, { additionalProperties: false }),
] as const;
