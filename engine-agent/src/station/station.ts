import type { StationBay } from '@erasure/shared';
import { CANCELLED_BY_OPERATOR, canCancel, canConfirm, EMPTY_BAY, REMOVED_DURING_ERASE, stepBay, type BayEvent, type BayState, type DriveFacts } from './bay-machine.js';
import type { Presence } from './debounce.js';
import type { DriveIdentity } from '../probes/drive-identity.js';
import type { Lane } from './lanes.js';
import { createPresenceQueue } from './presence-queue.js';

/** Erase policy of a station: start every mapped drive on insert, or wait for the operator per drive. */
export type ErasePolicy = 'auto' | 'confirm';

/** The chassis map the station runs with (lookup found it, or the wizard just saved it). */
export interface StationMap {
  readonly name: string;
  readonly bays: readonly { readonly lane: string; readonly label: string }[];
}

/** What the station needs from the machine and the cloud; tests pass fakes. */
export interface StationPorts {
  laneOf(p: Extract<Presence, { present: true }>): Promise<Lane | undefined>;
  /** What udev and sysfs say of the drive at once (model, serial, size). */
  probe(device: string): Promise<DriveFacts>;
  /** SMART overall health, which can take seconds: read beside the check-in, never before it. */
  health?(device: string): Promise<DriveFacts['health']>;
  /**
   * The safety guard: the boot medium, the ERASURE-DATA volume, anything mounted or held is
   * refused; `own` marks the station's own media (boot medium, data volume), which it never lists.
   */
  guard(device: string): Promise<{ ok: true } | { ok: false; reason: string; own?: boolean }>;
  /**
   * One bay's check-in, erase and result, reporting back as bay events; ends when the bay's work
   * is over. `identity` is the disk the probe found behind `device` (undefined: it was gone by
   * then): the work stops, writing nothing, once the node no longer names that disk.
   */
  runBay(job: { device: string; identity: DriveIdentity | undefined; bay: StationBay; signal: AbortSignal; emit: (e: BayEvent) => void }): Promise<void>;
  changed(): void;
}

/** A bay as the bay view shows it. */
export interface BayView {
  readonly lane: string;
  readonly label: string;
  readonly bay: BayState;
}

/**
 * The station: drives come and go (settled presences), each mapped bay runs on its own, and
 * several erase at once. A drive in a slot the map does not name is listed and never erased.
 * Pulling a drive aborts its bay's work; the others carry on.
 */
/** The job a bay's state belongs to, when its work got that far. */
function jobOf(bay: BayState | undefined): string | undefined {
  return bay && 'jobId' in bay ? bay.jobId : undefined;
}

export function createStation(map: StationMap, ports: StationPorts, policy: () => ErasePolicy) {
  const labels = new Map(map.bays.map((b) => [b.lane, b.label]));
  const bays = new Map<string, BayState>(map.bays.map((b) => [b.lane, EMPTY_BAY]));
  const laneOfPath = new Map<string, string>();
  const running = new Map<string, AbortController>();
  const unmapped = new Map<string, string>();
  const queue = createPresenceQueue();

  const apply = (lane: string, e: BayEvent) => {
    const before = bays.get(lane) ?? EMPTY_BAY;
    const after = stepBay(before, e);
    if (after !== before) {
      bays.set(lane, after);
      ports.changed();
    }
    return after;
  };

  const start = async (lane: string) => {
    const bay = bays.get(lane);
    if (bay?.state !== 'checking_in') return;
    // Armed before the guard: a pull-out or a cancel from here on stops the bay's work, and the
    // check-in is never sent when it comes before it.
    const abort = new AbortController();
    running.set(lane, abort);
    let job: string | undefined;
    try {
      const verdict = await ports.guard(bay.drive.device);
      if (abort.signal.aborted) return;
      if (!verdict.ok) {
        apply(lane, { type: 'refused', reason: verdict.reason });
        return;
      }
      await ports.runBay({
        device: bay.drive.device,
        identity: bay.drive.identity,
        bay: { bay: labels.get(lane) ?? lane, chassis: map.name },
        signal: abort.signal,
        // Events from a bay whose drive was pulled are late: the bay has moved on without them.
        // All but its outcome: a run stopped after its read-back finished still reported the
        // drive erased, and the bay, while it still shows that run, says so.
        emit: (e) => {
          if (e.type === 'checkin_allowed') job = e.jobId;
          if (!abort.signal.aborted) apply(lane, e);
          else if (e.type === 'erase_passed' && job !== undefined && jobOf(bays.get(lane)) === job) apply(lane, e);
        },
      });
    } finally {
      if (running.get(lane) === abort) running.delete(lane);
    }
  };

  /** The operator's Erase on one bay: from a drive waiting for them, or one they left alone. */
  const confirm = (lane: string): boolean => {
    if (!canConfirm(bays.get(lane))) return false;
    apply(lane, { type: 'confirm' });
    void start(lane);
    return true;
  };

  return {
    /** True while any bay checks in, erases or verifies. */
    busy(): boolean {
      return [...bays.values()].some((b) => b.state === 'checking_in' || b.state === 'erasing' || b.state === 'verifying');
    },
    views(): BayView[] {
      return map.bays.map((b) => ({ lane: b.lane, label: b.label, bay: bays.get(b.lane) ?? EMPTY_BAY }));
    },
    /** Drives seated in slots the map does not name: shown, never erased. */
    unmapped(): string[] {
      return [...unmapped.values()];
    },
    /**
     * A settled presence. A path's presences are handled one at a time, in order; an insertion
     * still resolving its lane or probing when its removal arrives is dropped (`current`: also
     * the caller's own view, when it awaited things of its own before passing the presence on).
     */
    presence(p: Presence, stillCurrent: () => boolean = () => true): Promise<void> {
      return queue.run(p.devpath, !p.present, async (queued) => {
        const current = () => queued() && stillCurrent();
        if (!p.present) {
          unmapped.delete(p.devpath);
          const lane = laneOfPath.get(p.devpath);
          if (!lane) return;
          laneOfPath.delete(p.devpath);
          running.get(lane)?.abort(REMOVED_DURING_ERASE);
          apply(lane, { type: 'removed' });
          return;
        }
        if (!current()) return;
        const lane = await ports.laneOf(p);
        if (!current()) return;
        const device = p.event.devname ?? p.devpath;
        if (!lane || !labels.has(lane.lane)) {
          unmapped.set(p.devpath, device);
          ports.changed();
          return;
        }
        const drive = await ports.probe(device);
        // Pulled while probed: its removal is queued behind this and finds nothing to undo.
        if (!current()) return;
        laneOfPath.set(p.devpath, lane.lane);
        apply(lane.lane, { type: 'inserted', drive });
        void ports.health?.(device).then(
          (health) => apply(lane.lane, { type: 'health', device, health }),
          () => undefined,
        );
        // A drive first seen through a change event was already seated when the station started
        // (its start-up trigger): nobody inserted it for this station, so it waits for the operator.
        const inserted = p.event.action === 'add';
        apply(lane.lane, inserted && policy() === 'auto' ? { type: 'auto_start' } : { type: 'await_confirmation' });
        void start(lane.lane);
      });
    },
    confirm,
    /**
     * "Erase every waiting bay" (issue 32, lights-out): confirms each bay whose drive waits for the
     * operator, as one Erase per bay would, and says how many it started. A drive the operator
     * left alone ("Leave it") is not waiting: it stays untouched until its own Erase.
     */
    confirmWaiting(): number {
      const waiting = [...bays].filter(([, bay]) => bay.state === 'awaiting_confirmation').map(([lane]) => lane);
      return waiting.filter(confirm).length;
    },
    cancel(lane: string): boolean {
      const bay = bays.get(lane);
      if (!bay || !canCancel(bay)) return false;
      if (bay.state === 'awaiting_confirmation') {
        apply(lane, { type: 'cancelled' });
        return true;
      }
      // Checking in, erasing or verifying: as a pull-out in that phase, with the operator's reason.
      running.get(lane)?.abort(CANCELLED_BY_OPERATOR);
      apply(lane, { type: 'cancelled' });
      return true;
    },
  };
}
