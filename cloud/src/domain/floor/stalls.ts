import type { FloorDrive } from '@erasure/shared';

/** What a `drive_stalled` event tells: the machine, the drive as last reported, and since when it stands still. */
export interface DriveStalledFacts {
  readonly machineId: string;
  readonly machineName: string | null;
  readonly site: string | null;
  readonly drive: FloorDrive;
  readonly since: string;
}

/** What the cloud remembers of one reported drive between reports, to see it stand still. */
export interface ProgressMark {
  readonly bytes: number;
  readonly stage: string;
  /** Since when the drive shows this stage and these bytes. */
  readonly since: string;
  /** The `since` of the stall already announced (webhook sent), so one stall is one event. */
  readonly announced?: string;
}
export type ProgressMarks = Readonly<Record<string, ProgressMark>>;

/**
 * Whether standing still means something is wrong: an overwrite or read-back moves bytes, and so
 * does a drive command the host times itself. A firmware erase whose time the drive estimated
 * (sanitize, secure erase) moves none on the host until it ends, and is never a stall.
 */
export function canStall(drive: Pick<FloorDrive, 'stage' | 'drive_estimate'>): boolean {
  if (drive.stage === 'firmware') return drive.drive_estimate !== true;
  return drive.stage === 'prepare' || drive.stage === 'write' || drive.stage === 'verify';
}

/**
 * The marks after a report: a drive whose stage or bytes moved starts standing still from now;
 * one that did not keeps its `since`. Drives no longer reported are forgotten. `stalled` lists
 * the drives that stand still for `stallSeconds` or more, can stall, and were not announced for
 * this stall yet (a drive that moves and stops again is a new stall); their marks are announced.
 */
export function trackProgress(
  previous: ProgressMarks,
  drives: readonly FloorDrive[],
  now: Date,
  stallSeconds: number,
): { marks: Record<string, ProgressMark>; stalled: { drive: FloorDrive; since: string }[] } {
  const marks: Record<string, ProgressMark> = {};
  const stalled: { drive: FloorDrive; since: string }[] = [];
  for (const drive of drives) {
    const last = previous[drive.device];
    const still = last !== undefined && last.stage === drive.stage && last.bytes === drive.bytes_done;
    const mark: ProgressMark = still ? last : { bytes: drive.bytes_done, stage: drive.stage, since: now.toISOString() };
    const standing = (now.getTime() - Date.parse(mark.since)) / 1000;
    if (canStall(drive) && standing >= stallSeconds && mark.announced !== mark.since) {
      stalled.push({ drive, since: mark.since });
      marks[drive.device] = { ...mark, announced: mark.since };
    } else {
      marks[drive.device] = mark;
    }
  }
  return { marks, stalled };
}

/** Since when a drive has stalled, as the board shows it; undefined when it has not. */
export function stalledSince(drive: FloorDrive, mark: ProgressMark | undefined, now: Date, stallSeconds: number): string | undefined {
  if (!mark || !canStall(drive) || mark.stage !== drive.stage || mark.bytes !== drive.bytes_done) return undefined;
  return (now.getTime() - Date.parse(mark.since)) / 1000 >= stallSeconds ? mark.since : undefined;
}
