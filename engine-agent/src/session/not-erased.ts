import type { EraseOutcome } from '../erase/erase-drive.js';
import type { DriveJob } from './types.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';

/**
 * A drive the agent sees that is not erased (issue 30 item 7): refused by the safety guard or the
 * planner, or a physical disk a RAID controller shows only as part of a virtual disk. It still
 * gets a wipe result, `failed` with the reason and a disposition, so no drive ends without a row.
 * The boot medium is never one of these: it is shown, never a target, and never reported.
 */
export interface NotErasedDrive {
  /** The node it was seen at; a disk hidden behind a controller: `/dev/bus/0 (megaraid,1)`. */
  readonly device: string;
  readonly model?: string;
  readonly serial?: string;
  readonly sizeBytes?: number;
  readonly reason: string;
  readonly disposition: 'review' | 'destroy';
}

/** A drive as a not-erased result names it: its node, model, serial and size as probed. */
export const seenAs = (d: Pick<DiscoveredDrive, 'device' | 'capabilities'>): Pick<NotErasedDrive, 'device' | 'model' | 'serial' | 'sizeBytes'> => ({
  device: d.device,
  ...(d.capabilities.model ? { model: d.capabilities.model } : {}),
  ...(d.capabilities.serial ? { serial: d.capabilities.serial } : {}),
  ...(d.capabilities.sizeBytes !== undefined ? { sizeBytes: d.capabilities.sizeBytes } : {}),
});

/** The failure code of such a result: nothing was written, so nothing is certifiable. */
export const NOT_ERASED = 'not_erased';

/**
 * The session job of a drive not erased. It carries no erase method of its own: the interpreter
 * reports it without opening the drive (`notErasedOutcome`); `overwrite` only fills the type.
 */
export function notErasedJob(d: NotErasedDrive): DriveJob {
  return {
    device: d.device,
    method: 'overwrite',
    preconditions: [],
    label: 'Not erased',
    technique: 'none',
    ...(d.model ? { model: d.model } : {}),
    ...(d.serial ? { serial: d.serial } : {}),
    ...(d.sizeBytes !== undefined ? { sizeBytes: d.sizeBytes } : {}),
    notErased: { reason: d.reason, disposition: d.disposition },
  };
}

/** What such a job ends with: refused, nothing written, the reason as its verification text. */
export function notErasedOutcome(job: DriveJob, at: string): EraseOutcome {
  return {
    device: job.device,
    method: job.method,
    ok: false,
    refused: true,
    failureCode: NOT_ERASED,
    startedAt: at,
    completedAt: at,
    passes: null,
    verification: `Not erased: ${job.notErased?.reason ?? 'refused'}`,
    commands: [],
    ...(job.notErased ? { disposition: job.notErased.disposition } : {}),
  };
}

/**
 * The physical disks a virtual disk hides, once each (two virtual disks of one controller name the
 * same disks): every run that erases a virtual disk (headless, the kiosk) reports each of them.
 */
export function hiddenBehind(d: Pick<DiscoveredDrive, 'connection'>, already: readonly NotErasedDrive[]): NotErasedDrive[] {
  return (d.connection?.hidden ?? [])
    .map((h) => ({ device: `${h.through} (${h.deviceType})`, ...(h.model ? { model: h.model } : {}), ...(h.serial ? { serial: h.serial } : {}), ...(h.capacityBytes !== undefined ? { sizeBytes: h.capacityBytes } : {}), reason: h.reason, disposition: 'review' as const }))
    .filter((h) => !already.some((a) => a.device === h.device));
}

/** `hiddenBehind` over a run's drives. */
export function hiddenBehindAll(drives: readonly Pick<DiscoveredDrive, 'connection'>[]): NotErasedDrive[] {
  return drives.reduce<NotErasedDrive[]>((acc, d) => [...acc, ...hiddenBehind(d, acc)], []);
}

/**
 * The drives the agent refused to plan, each as not erased with the planner's reason and
 * disposition: what the kiosk's run reports beside the drives the operator chose. The boot medium
 * and the data volume are shown, never a target, and never reported. A drive the agent can erase
 * but the operator did not tick is not here: leaving it is the operator's choice, not a refusal.
 */
export function refusedToPlan(drives: readonly Pick<DiscoveredDrive, 'device' | 'capabilities' | 'plan' | 'ownMedium'>[]): NotErasedDrive[] {
  return drives.flatMap((d) => (d.plan.ok || d.ownMedium ? [] : [{ ...seenAs(d), reason: d.plan.reason, disposition: d.plan.disposition ?? 'review' }]));
}

/** Who a not-erased drive is across re-probes of one boot: its serial, else the node it was seen at. */
export const notErasedKey = (d: Pick<NotErasedDrive, 'device' | 'serial'>) => (d.serial ? `serial:${d.serial}` : `device:${d.device}`);
