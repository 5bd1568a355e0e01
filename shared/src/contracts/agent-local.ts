import { Type, type Static } from '@sinclair/typebox';
import { ERASE_STAGES, ErrorBody, Nullable } from './common.js';
import type { RouteDescriptor } from './gateway.js';
import { ScreenReport, ScreenView } from './agent-screen.js';
import { StationIntents, StationView } from './agent-station.js';
import { ValidationDeskView, ValidationIntents } from './agent-validation.js';
import { Fingerprint, TEST_WIRE_IDS, TestSnapshot, TestStatus } from './hardware.js';

/**
 * The engine agent's loopback API (`erasure-agent serve`), which the kiosk renders and drives.
 * The agent holds every rule: the kiosk mirrors `AgentState` and enables only what `can` allows
 * (STYLE C "the kiosk only mirrors"). Field names are snake_case like every other wire body.
 */

/**
 * Boot of this session: health -> verify -> asset report. Only `unlocked` lets the kiosk act (spec 3 "Device gating").
 * `unfreeze`: before the checks, the machine is about to sleep a few seconds to unfreeze drives (freeze lock removal).
 */
export const BOOT_PHASES = ['starting', 'unfreeze', 'health', 'verify', 'record', 'unlocked', 'denied'] as const;
export const BootPhase = Type.Union(BOOT_PHASES.map((p) => Type.Literal(p)));
export type BootPhase = Static<typeof BootPhase>;

/** A drive's planned erase, or why none can run. */
export const DrivePlan = Type.Union([
  Type.Object(
    {
      ok: Type.Literal(true),
      method: Type.String(),
      /** Wire `wipe_method`, e.g. `NIST 800-88 R2 Purge`. */
      label: Type.String(),
      category: Type.Union([Type.Literal('Clear'), Type.Literal('Purge')]),
      technique: Type.String(),
      expected_minutes: Type.Optional(Type.Number({ minimum: 0 })),
      duration_source: Type.Optional(Type.Union([Type.Literal('drive'), Type.Literal('estimate')])),
      fully_sanitized: Type.Boolean(),
      warnings: Type.Array(Type.String()),
    },
    { additionalProperties: false },
  ),
  Type.Object({ ok: Type.Literal(false), reason: Type.String() }, { additionalProperties: false }),
]);
export type DrivePlan = Static<typeof DrivePlan>;

export const AgentDrive = Type.Object(
  {
    device: Type.String(),
    model: Type.Optional(Type.String()),
    serial: Type.Optional(Type.String()),
    size_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    media_type: Type.Optional(Type.Union([Type.Literal('SSD'), Type.Literal('HDD')])),
    transport: Type.String(),
    /** False for USB, removable and virtual devices: they are not part of the machine's asset. */
    internal: Type.Boolean(),
    plan: DrivePlan,
    /**
     * Issue 30 item 2: the drive's TCG self-encryption in plain words ("self-encrypting (Opal 2,
     * locked)", "self-encryption unknown: no tool"); `locked`: a locked range only a PSID revert opens.
     */
    self_encryption: Type.Optional(
      Type.Object(
        {
          words: Type.String(),
          locked: Type.Boolean(),
          /** Issue 30 item 2: false when this image has no tool that can PSID-revert the locked drive (a SATA or SAS drive, no sedutil-cli): no PSID dialog, the plan's reason says the step elsewhere. */
          revert_here: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    /** Through a USB bridge or behind a RAID controller (issue 30 items 3, 5): plain words, then the details. */
    connection: Type.Optional(
      Type.Object(
        {
          summary: Type.String(),
          details: Type.Array(Type.String()),
          /** The physical disks a RAID virtual disk hides: each its own row, not erased, with the reason (issue 30 item 7). */
          hidden: Type.Optional(
            Type.Array(Type.Object({ device: Type.String(), model: Type.Optional(Type.String()), serial: Type.Optional(Type.String()), size_bytes: Type.Optional(Type.Number()), reason: Type.String() }, { additionalProperties: false })),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AgentDrive = Static<typeof AgentDrive>;


/** Live progress of one drive; also the payload of the SSE `progress` event. */
export const DriveProgress = Type.Object(
  {
    device: Type.String(),
    /** `write` while an overwrite pass runs, `verify` during the read-back, `firmware` while a drive command runs. */
    stage: Type.Union(ERASE_STAGES.map((s) => Type.Literal(s))),
    /** 1-based overwrite pass; 0 for verification and firmware stages. */
    pass: Type.Integer({ minimum: 0 }),
    /** Overwrite passes in all: the N of "pass n of N". Absent for a drive command (firmware erase). */
    passes: Type.Optional(Type.Integer({ minimum: 1 })),
    bytes_done: Type.Integer({ minimum: 0 }),
    bytes_total: Type.Integer({ minimum: 0 }),
    percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    bytes_per_second: Type.Optional(Type.Number({ minimum: 0 })),
    /** Seconds since this drive's erase started (frozen once it finished). */
    elapsed_seconds: Type.Optional(Type.Number({ minimum: 0 })),
    /**
     * Seconds left for this drive, every stage still to come included: the passes left and the
     * read-back at the measured rate, or for a drive command the plan's estimate less the time run.
     */
    eta_seconds: Type.Optional(Type.Number({ minimum: 0 })),
    /** Set once the drive finished, while others may still run: erased, failed or cancelled. */
    outcome: Type.Optional(Type.Union([Type.Literal('erased'), Type.Literal('failed'), Type.Literal('cancelled')])),
  },
  { additionalProperties: false },
);
export type DriveProgress = Static<typeof DriveProgress>;

/** An erased drive's health grade for resale (issue 30): beside the result, never instead of it. */
export const DriveHealthView = Type.Object(
  {
    grade: Type.Union([Type.Literal('A'), Type.Literal('B'), Type.Literal('C'), Type.Literal('F')]),
    label: Type.String(),
    reasons: Type.Array(Type.Object({ grade: Type.String(), text: Type.String() }, { additionalProperties: false })),
    /** SMART before/after and the write speed, for the Details disclosure. */
    facts: Type.Array(Type.Object({ label: Type.String(), value: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type DriveHealthView = Static<typeof DriveHealthView>;

/** One drive's outcome once the run ended, with the cloud's certificate status. */
export const DriveResult = Type.Object(
  {
    device: Type.String(),
    method: Type.String(),
    erased: Type.Boolean(),
    refused: Type.Boolean(),
    failure_code: Type.Optional(Type.String()),
    passes: Nullable(Type.Integer({ minimum: 0 })),
    verification: Type.String(),
    verification_hash: Type.Optional(Type.String()),
    job_id: Type.String(),
    /** When this drive's erase ended (ISO 8601), so the drive list can say a drive was erased earlier in this boot. */
    completed_at: Type.Optional(Type.String()),
    delivered: Type.Boolean(),
    wipe_result_id: Type.Optional(Type.String()),
    certificate_status: Type.Optional(Nullable(Type.String())),
    /** `CW-…`, looked up after delivery (the wipe-result answer carries no number); null until the cloud has one. */
    certificate_number: Type.Optional(Nullable(Type.String())),
    error: Type.Optional(Type.String()),
    /** Not delivered and never will be: the service refused the result for good (a 4xx), so it is not being sent any more. */
    delivery_refused: Type.Optional(Type.Boolean()),
    /** The erased drive's health grade for resale (absent when not graded). */
    health: Type.Optional(DriveHealthView),
    /** A drive not erased: what the report says to do with it (`destroy`: no erase can reach it here). */
    disposition: Type.Optional(Type.Union([Type.Literal('review'), Type.Literal('destroy')])),
  },
  { additionalProperties: false },
);
export type DriveResult = Static<typeof DriveResult>;

/** Delivery of a hardware report to the gateway: `waiting` until the asset report is acknowledged (spec 4.1 rule 4). */
export const REPORT_SYNC_STATES = ['idle', 'waiting', 'sending', 'sent', 'failed'] as const;
export const ReportSync = Type.Union(REPORT_SYNC_STATES.map((s) => Type.Literal(s)));
export type ReportSync = Static<typeof ReportSync>;

/**
 * The erasure policy this boot erases under (issue 29 item 2) and the method each drive gets:
 * `ready` with the methods the operator may choose (contract names) and the choice per drive
 * (the policy's default until the operator picks another), or `blocked` with why nothing can be
 * erased (no policy could be read: fail closed).
 */
export const ErasureChoice = Type.Union([
  Type.Object(
    {
      status: Type.Literal('ready'),
      /** Whose policy: "this device token's contract", "the account's policy", "the standard policy". */
      source: Type.String(),
      default_method: Type.String(),
      /** How much is read back, in words. */
      verification: Type.String(),
      allowed: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), standard: Type.String() }, { additionalProperties: false })),
      /** The method id each drive will be erased with, by device. */
      methods: Type.Record(Type.String(), Type.String()),
      /** Drives whose chosen method this agent cannot carry out, and why, in words: they are not erased. */
      refusals: Type.Record(Type.String(), Type.String()),
    },
    { additionalProperties: false },
  ),
  Type.Object({ status: Type.Literal('blocked'), reason: Type.String() }, { additionalProperties: false }),
]);
export type ErasureChoice = Static<typeof ErasureChoice>;

/** What the kiosk renders: the whole truth, including which intents are allowed now. */
export const AgentState = Type.Object(
  {
    record_id: Type.String(),
    /** True until verify answered allow for this boot; every operator intent is refused meanwhile. */
    locked: Type.Boolean(),
    boot: Type.Object(
      {
        phase: BootPhase,
        account: Type.Optional(Type.String()),
        reason: Type.Optional(Type.String()),
        asset_id: Type.Optional(Type.String()),
        /** While `health` runs: this attempt (1-based) of `max_attempts` (spec 8: 3 attempts 4 s apart). */
        attempt: Type.Optional(Type.Integer({ minimum: 1 })),
        max_attempts: Type.Optional(Type.Integer({ minimum: 1 })),
        /** When the next health attempt starts (ISO 8601), set while waiting between attempts. */
        next_attempt_at: Type.Optional(Type.String()),
        /** Why the previous health attempt failed. */
        last_error: Type.Optional(Type.String()),
        /** Set on a denied boot where it can be told: false when the clock was never synchronized (NTP). */
        clock_synchronized: Type.Optional(Type.Boolean()),
        /** This machine's IP addresses (loopback left out), so a locked screen can say which network it is on. */
        addresses: Type.Optional(Type.Array(Type.String())),
        /** The gateway this boot checks in with (ERASURE_GATEWAY_URL). */
        gateway_url: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    /**
     * The machine summary the kiosk shows, from the fingerprint collected at boot: identity,
     * cpu, memory, storage, batteries, displays, gpus, adapters, firmware (bulky diagnostic
     * sections left out). Absent until collected.
     */
    fingerprint: Type.Optional(Fingerprint),
    drives: Type.Array(AgentDrive),
    selected: Type.Array(Type.String()),
    confirmation: Type.Object(
      {
        /** What the operator must type to confirm the selection; null while nothing is selected. */
        phrase: Nullable(Type.String()),
        confirmed: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    run: Type.Object(
      {
        status: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('finished')]),
        /** Session phase while running or at its end: checkin, erase, results, done, denied, failed. */
        phase: Type.Optional(Type.String()),
        /** CONTRACT exit code of the finished run: 0 all certified, 2 denied, 3 a drive failed. */
        exit_code: Type.Optional(Type.Integer()),
        reason: Type.Optional(Type.String()),
        /** The erase as a whole: drives finished of all, elapsed, and the time left until the slowest drive is done. */
        /**
         * Per drive of the running erase: whether the agent allows `cancel_drive` now, why not
         * (a firmware erase runs inside the drive and cannot be stopped), or that it is stopping.
         */
        cancel: Type.Optional(
          Type.Record(
            Type.String(),
            Type.Object(
              { can_cancel: Type.Boolean(), stopping: Type.Optional(Type.Boolean()), note: Type.Optional(Type.String()) },
              { additionalProperties: false },
            ),
          ),
        ),
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
      },
      { additionalProperties: false },
    ),
    progress: Type.Record(Type.String(), DriveProgress),
    /** The erasure policy and each drive's method; absent until the boot is unlocked. */
    erasure: Type.Optional(ErasureChoice),
    results: Type.Array(DriveResult),
    /**
     * Drives this boot erased in runs before the last, newest first: the Drives step marks them
     * too, since erasing one again spends quota again. Absent until a second run starts.
     */
    erased_earlier: Type.Optional(Type.Array(DriveResult)),
    tests: TestSnapshot,
    notes: Type.String(),
    reports: Type.Object({ tests: ReportSync, notes: ReportSync }, { additionalProperties: false }),
    /** Present on a hotswap station (a `hotswap` token, or `serve --station`): the wizard or the bay view. */
    station: Type.Optional(StationView),
    /** The "Validate a drive" action (issue 29): absent until the operator opened it this boot. */
    validation: Type.Optional(ValidationDeskView),
    /** The machine's own screen as the kiosk shell's watchdog reported it: shown, blank, reloads and why. */
    screen: Type.Optional(ScreenView),
    /**
     * Freeze lock removal: whether the agent suspends the machine once at boot (`rtcwake -m mem`)
     * to unfreeze drives, where that choice comes from (`kiosk setting`, `erasure.unfreeze=off`,
     * `default`), and what it did this boot, in words. Absent in simulate mode.
     */
    unfreeze: Type.Optional(
      Type.Object(
        {
          mode: Type.Union([Type.Literal('auto'), Type.Literal('off')]),
          source: Type.String(),
          this_boot: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    can: Type.Object(
      {
        refresh: Type.Boolean(),
        select: Type.Boolean(),
        confirm: Type.Boolean(),
        start: Type.Boolean(),
        set_test_result: Type.Boolean(),
        set_notes: Type.Boolean(),
        /** Re-run health and verify for this boot: only while it is denied and no check is running. */
        retry: Type.Boolean(),
        /** Cancel every drive of the running erase that can still be stopped. */
        cancel_all: Type.Optional(Type.Boolean()),
        /** Shut down or restart the machine: refused while an erase runs. */
        shutdown: Type.Optional(Type.Boolean()),
        restart: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    /**
     * Finishing the session: results still waiting in the outbox (a shutdown then needs
     * `pending_ok`), and what the last shutdown or restart did (on a simulated machine: what it would have done).
     */
    power: Type.Optional(
      Type.Object(
        {
          pending_results: Type.Integer({ minimum: 0 }),
          /**
           * Where those results are kept: `disk` (the ERASURE-DATA volume, or any disk: they are sent
           * after the next start) or `memory` (a live system without that volume: switching off loses
           * them). Absent until the agent first counted them.
           */
          kept_in: Type.Optional(Type.Union([Type.Literal('disk'), Type.Literal('memory')])),
          last: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    /** Issue 30 item 2: the last PSID revert's outcome in plain words (never the PSID). */
    psid_revert: Type.Optional(
      Type.Object({ device: Type.String(), ok: Type.Boolean(), words: Type.String(), running: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type AgentState = Static<typeof AgentState>;

export const TestWireIdSchema = Type.Union(TEST_WIRE_IDS.map((id) => Type.Literal(id)));

/** Operator intents (POST /api/intents). The agent refuses what its state does not allow with 409. */
export const AgentIntent = Type.Union([
  Type.Object({ type: Type.Literal('refresh') }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('select'), devices: Type.Array(Type.String(), { maxItems: 64 }) }, { additionalProperties: false }),
  /** `text` must equal `confirmation.phrase` (case and surrounding space ignored). */
  Type.Object({ type: Type.Literal('confirm'), text: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('start') }, { additionalProperties: false }),
  /**
   * The erase method of one drive (issue 29), by catalogue id: the one intent that chooses a
   * method, before or after the drive is selected; a drive never chosen for gets the policy's
   * default. A method the policy does not allow, or one that cannot reach every sector of that
   * drive, is refused with the reason in words and nothing changes.
   */
  Type.Object({ type: Type.Literal('choose_method'), device: Type.String({ maxLength: 200 }), method: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('set_test_result'), id: TestWireIdSchema, status: TestStatus, detail: Type.Optional(Type.String({ maxLength: 4000 })) },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('set_notes'), notes: Type.String({ maxLength: 20_000 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('retry') }, { additionalProperties: false }),
  /** The kiosk's freeze lock removal setting; saved for the next boots (this boot's removal ran, or not, at start). */
  Type.Object({ type: Type.Literal('set_unfreeze'), mode: Type.Union([Type.Literal('auto'), Type.Literal('off')]) }, { additionalProperties: false }),
  /** "Send now": one delivery round of the results kept on this machine at once; 409 when some could still not be sent. */
  Type.Object({ type: Type.Literal('send_results') }, { additionalProperties: false }),
  /** Stop one drive of the running erase; its result is reported `cancelled`, never certified. */
  Type.Object({ type: Type.Literal('cancel_drive'), device: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('cancel_all') }, { additionalProperties: false }),
  /**
   * Power off or restart the machine (`systemctl poweroff|reboot`). While results are still
   * waiting to be delivered, `pending_ok` says the operator confirmed a second time.
   */
  Type.Object({ type: Type.Literal('shutdown'), pending_ok: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('restart'), pending_ok: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  ...StationIntents,
  ...ValidationIntents,
  /**
   * Issue 30 item 2: PSID revert of a drive whose locking range is locked. `psid` is the 32
   * characters on the drive's label; the agent passes it to the revert tool only (never logged,
   * stored or sent on). Refused in words when the drive is not a locked self-encrypting drive.
   */
  Type.Object({ type: Type.Literal('psid_revert'), device: Type.String({ maxLength: 200 }), psid: Type.String({ pattern: '^[A-Z0-9]{32}$' }) }, { additionalProperties: false }),
]);
export type AgentIntent = Static<typeof AgentIntent>;
export type AgentIntentType = AgentIntent['type'];

export const IntentAccepted = Type.Object({ ok: Type.Literal(true), state: AgentState }, { additionalProperties: false });
export type IntentAccepted = Static<typeof IntentAccepted>;

/** SSE event names of GET /api/events: `state` carries AgentState, `progress` a DriveProgress. */
export const AGENT_EVENT_NAMES = ['state', 'progress'] as const;
export type AgentEventName = (typeof AGENT_EVENT_NAMES)[number];

/** Payload schema of each SSE event, so the kiosk validates what arrives. */
export const agentEvents = { state: AgentState, progress: DriveProgress } as const satisfies Record<AgentEventName, unknown>;

/** The agent's loopback routes. `events` answers `text/event-stream` (see agentEvents). */
export const agentLocalApi = {
  state: { method: 'GET', url: '/api/state', response: { 200: AgentState } },
  intents: { method: 'POST', url: '/api/intents', body: AgentIntent, response: { 200: IntentAccepted, 400: ErrorBody, 409: ErrorBody } },
  events: { method: 'GET', url: '/api/events', response: { 200: Type.String() } },
  /** The kiosk shell's watchdog: what the machine's own screen shows, and each reload with its reason. */
  screen: { method: 'POST', url: '/api/screen', body: ScreenReport, response: { 204: Type.Null(), 400: ErrorBody } },
} as const satisfies Record<string, RouteDescriptor>;
export type AgentLocalApi = typeof agentLocalApi;
