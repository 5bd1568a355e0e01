import type { DriveIdentity } from '../probes/drive-identity.js';

/** What the station knows of a drive once it is seated. */
export interface DriveFacts {
  readonly device: string;
  /** The disk behind `device` when it was probed (dev_t, diskseq, serial): the bay's work is bound to it. */
  readonly identity?: DriveIdentity;
  readonly model?: string;
  readonly serial?: string;
  readonly sizeBytes?: number;
  /** From the kernel's rotational flag; unknown when sysfs does not say. */
  readonly mediaType?: 'HDD' | 'SSD';
  /** SMART overall health: passed, failed, or unknown (no SMART, a USB bridge that hides it). */
  readonly health: 'passed' | 'failed' | 'unknown';
}

export interface EraseProgressFacts {
  readonly method: string;
  readonly pass: number;
  readonly percent: number;
  readonly bytesPerSecond?: number;
  readonly etaSeconds?: number;
}

/**
 * A check-in that got no answer from the erasure service (gateway or cloud down): the drive waits,
 * untouched, and the bay asks again at `retryAt` (issue 32: a station that runs lights-out).
 */
export interface CloudWait {
  readonly reason: string;
  /** Check-ins (or policy reads) that went unanswered so far. */
  readonly attempts: number;
  /** Unanswered since (ISO 8601). */
  readonly since: string;
  /** The next try (ISO 8601). */
  readonly retryAt: string;
}

/** Where the work on a bay stood when its drive was pulled. */
export type ActivePhase = 'checking_in' | 'erasing' | 'verifying';

/** One bay of the station (STYLE C: each state carries only its own data). */
export type BayState =
  | { readonly state: 'empty' }
  | { readonly state: 'detected'; readonly drive: DriveFacts }
  | { readonly state: 'awaiting_confirmation'; readonly drive: DriveFacts }
  /** `waiting`: the erasure service did not answer yet; the drive is untouched until it allows the erase. */
  | { readonly state: 'checking_in'; readonly drive: DriveFacts; readonly waiting?: CloudWait }
  /** `firmware`: the erase runs inside the drive (sanitize, secure erase, format) and cannot be stopped. */
  | { readonly state: 'erasing'; readonly drive: DriveFacts; readonly jobId: string; readonly firmware?: boolean; readonly progress?: EraseProgressFacts }
  | { readonly state: 'verifying'; readonly drive: DriveFacts; readonly jobId: string; readonly percent?: number }
  | { readonly state: 'passed'; readonly drive: DriveFacts; readonly jobId: string; readonly certificateNumber?: string }
  | { readonly state: 'failed'; readonly drive: DriveFacts; readonly reason: string; readonly jobId?: string; readonly untouched: boolean }
  /** The operator stopped its work (reported `cancelled`, never certified): not a failure of the drive. */
  | { readonly state: 'cancelled'; readonly drive: DriveFacts; readonly jobId?: string; readonly untouched: boolean }
  | { readonly state: 'pulled'; readonly drive: DriveFacts; readonly during: ActivePhase; readonly reason: string; readonly jobId?: string };

export type BayEvent =
  | { readonly type: 'inserted'; readonly drive: DriveFacts }
  /** SMART health, read after the drive was seated (it never holds up the check-in). */
  | { readonly type: 'health'; readonly device: string; readonly health: DriveFacts['health'] }
  | { readonly type: 'removed' }
  /** Policy: confirm per drive; the station sends it right after `inserted`. */
  | { readonly type: 'await_confirmation' }
  /** The operator confirmed this drive (waiting for confirmation, or left alone earlier). */
  | { readonly type: 'confirm' }
  /** Policy: auto-start on insert; the station sends it right after `inserted`. */
  | { readonly type: 'auto_start' }
  /** `firmware`: the planned erase is a firmware one (see the `erasing` state). */
  | { readonly type: 'checkin_allowed'; readonly jobId: string; readonly firmware?: boolean }
  | { readonly type: 'checkin_denied'; readonly reason: string }
  /** No answer from the erasure service: the bay keeps its drive, untouched, and tries again. */
  | { readonly type: 'cloud_unreachable'; readonly wait: CloudWait }
  | { readonly type: 'progress'; readonly progress: EraseProgressFacts }
  | { readonly type: 'verify_started' }
  | { readonly type: 'verify_progress'; readonly percent: number }
  | { readonly type: 'erase_passed' }
  | { readonly type: 'erase_failed'; readonly reason: string }
  | { readonly type: 'certificate'; readonly number: string }
  /** The operator cancelled this bay's erase. */
  | { readonly type: 'cancelled' }
  /** The safety guard refused the drive (the boot medium, mounted, held): it is never touched. */
  | { readonly type: 'refused'; readonly reason: string };

export const EMPTY_BAY: BayState = { state: 'empty' };

/**
 * The reasons a bay's work is stopped with: a drive pulled out (its wipe result is `failed`,
 * saying so) and the operator's cancel (its wipe result is `cancelled`).
 */
export { CANCELLED_BY_OPERATOR, REMOVED_DURING_ERASE } from '../erase/erase-drive.js';
import { REMOVED_DURING_ERASE } from '../erase/erase-drive.js';

/**
 * States whose work the operator can cancel: waiting for them, checking in, erasing, verifying.
 * Not a firmware erase: the drive carries it out whatever the station does, and it completes.
 */
export function canCancel(s: BayState): boolean {
  if (s.state === 'erasing') return s.firmware !== true;
  return s.state === 'awaiting_confirmation' || s.state === 'checking_in' || s.state === 'verifying';
}

/**
 * States the operator can start an erase from: a drive waiting for confirmation, or one they
 * left alone earlier ("Leave it"), which stays in its bay until they change their mind or pull it.
 */
export function canConfirm(s: BayState | undefined): boolean {
  return s?.state === 'awaiting_confirmation' || s?.state === 'detected';
}

/**
 * One bay's next state. Pure: the station runs the effects (check-in, erase, reporting) and
 * feeds their outcomes back as events. An event that makes no sense in the current state is
 * ignored (the same state comes back), so a late progress report after a pull-out, or a second
 * confirmation, cannot move a bay anywhere it should not be.
 */
export function stepBay(s: BayState, e: BayEvent): BayState {
  // A drive seated into a bay that is not empty: the old drive is gone (its remove was missed
  // or debounced away), so whatever ran there is over and the new drive starts from the top.
  if (e.type === 'inserted') {
    if (s.state === 'checking_in' || s.state === 'erasing' || s.state === 'verifying') return s;
    return { state: 'detected', drive: e.drive };
  }
  if (e.type === 'removed') {
    // The erase saw the drive go before udev's remove settled: the bay already says so.
    if (s.state === 'pulled') return s;
    if (s.state === 'checking_in' || s.state === 'erasing' || s.state === 'verifying') {
      return { state: 'pulled', drive: s.drive, during: s.state, reason: REMOVED_DURING_ERASE, ...('jobId' in s ? { jobId: s.jobId } : {}) };
    }
    return EMPTY_BAY;
  }
  if (e.type === 'health') return 'drive' in s && s.drive.device === e.device ? ({ ...s, drive: { ...s.drive, health: e.health } } as BayState) : s;
  if (e.type === 'refused' && (s.state === 'detected' || s.state === 'awaiting_confirmation' || s.state === 'checking_in')) {
    return { state: 'failed', drive: s.drive, reason: e.reason, untouched: true };
  }
  switch (s.state) {
    case 'detected':
      // A drive the operator left alone stays detected until they choose to erase it after all.
      if (e.type === 'auto_start' || e.type === 'confirm') return { state: 'checking_in', drive: s.drive };
      if (e.type === 'await_confirmation') return { state: 'awaiting_confirmation', drive: s.drive };
      return s;
    case 'awaiting_confirmation':
      if (e.type === 'confirm') return { state: 'checking_in', drive: s.drive };
      if (e.type === 'cancelled') return { state: 'detected', drive: s.drive };
      return s;
    case 'checking_in':
      if (e.type === 'checkin_allowed') return { state: 'erasing', drive: s.drive, jobId: e.jobId, ...(e.firmware ? { firmware: true } : {}) };
      // A denial (quota, revoked, inactive account, unreachable) leaves the drive untouched.
      if (e.type === 'checkin_denied') return { state: 'failed', drive: s.drive, reason: e.reason, untouched: true };
      if (e.type === 'cloud_unreachable') return { state: 'checking_in', drive: s.drive, waiting: e.wait };
      // The erase checks its abort before it touches the drive: a cancel here writes nothing. A
      // check-in already sent still gets its (cancelled) wipe result.
      if (e.type === 'cancelled') return { state: 'cancelled', drive: s.drive, untouched: true };
      return s;
    case 'erasing':
      if (e.type === 'progress') return { ...s, progress: e.progress };
      if (e.type === 'verify_started') return { state: 'verifying', drive: s.drive, jobId: s.jobId };
      if (e.type === 'erase_passed') return { state: 'passed', drive: s.drive, jobId: s.jobId };
      if (e.type === 'erase_failed') return { state: 'failed', drive: s.drive, jobId: s.jobId, reason: e.reason, untouched: false };
      if (e.type === 'cancelled' && canCancel(s)) return { state: 'cancelled', drive: s.drive, jobId: s.jobId, untouched: false };
      return s;
    case 'verifying':
      if (e.type === 'verify_progress') return { ...s, percent: e.percent };
      if (e.type === 'erase_passed') return { state: 'passed', drive: s.drive, jobId: s.jobId };
      if (e.type === 'erase_failed') return { state: 'failed', drive: s.drive, jobId: s.jobId, reason: e.reason, untouched: false };
      if (e.type === 'cancelled') return { state: 'cancelled', drive: s.drive, jobId: s.jobId, untouched: false };
      return s;
    case 'passed':
      if (e.type === 'certificate') return { ...s, certificateNumber: e.number };
      return s;
    // Pulled or cancelled once its read-back had finished, while its result went out: the wipe
    // result says completed, so the bay says passed too (and shows its certificate).
    case 'pulled':
      if (e.type === 'erase_passed' && s.jobId) return { state: 'passed', drive: s.drive, jobId: s.jobId };
      return s;
    case 'cancelled':
      if (e.type === 'erase_passed' && s.jobId) return { state: 'passed', drive: s.drive, jobId: s.jobId };
      return s;
    default:
      return s;
  }
}
