import type { MethodPass, Product, VerificationLevel, WipeResultRecord } from '@erasure/shared';
import type { EraseMethod } from '../drives/erase-methods.js';
import type { ErasePrecondition } from '../drives/plan-erase.js';
import type { EraseOutcome } from '../erase/erase-drive.js';

/** One drive the operator selected, with the plan the erase will follow. */
export interface DriveJob {
  readonly device: string;
  readonly method: EraseMethod;
  readonly preconditions: readonly ErasePrecondition[];
  /** Wire `wipe_method`, e.g. `NIST 800-88 R2 Purge`. */
  readonly label: string;
  readonly technique: string;
  readonly model?: string;
  readonly serial?: string;
  readonly sizeBytes?: number;
  /**
   * Drives with the same key never run their erase at the same time: an NVMe sanitize (and a
   * format that may act on every namespace) works on the whole subsystem, so two namespaces of
   * one subsystem take turns. Absent for an erase that touches only its own drive.
   */
  readonly exclusive?: string;
  /** A named overwrite's passes (issue 29); absent: the engine's single zero pass. */
  readonly overwritePasses?: readonly MethodPass[];
  /** BSI-GS: passes written before the firmware erase. */
  readonly passesBeforeFirmware?: readonly MethodPass[];
  /** The read-back level the policy set; absent: today's. */
  readonly verification?: VerificationLevel;
  /** Issue 30 item 2: "self-encrypting (Opal 2, unlocked)", carried into the result's words. */
  readonly selfEncryption?: string;
  /** The PSID revert the drive had before this erase, in words (never the PSID). */
  readonly psidRevert?: string;
  /** How the drive is attached (USB bridge, RAID controller), said on its wipe result (issue 30 items 3, 5). */
  readonly connection?: string;
  /** A drive seen but not erased (refused, behind a RAID virtual disk): reported `failed`, never written (issue 30 item 7). */
  readonly notErased?: { readonly reason: string; readonly disposition: 'review' | 'destroy' };
}

/** Fixed inputs of one session (they never change while it runs). */
export interface SessionContext {
  readonly product: Product;
  readonly drives: readonly DriveJob[];
  readonly recordId: string;
  readonly engineVersion: string;
  readonly toolComponents: string;
  readonly limits: SessionLimits;
  /** Drives erased at once (`--parallel N`, `erasure.parallel=N`); absent: every selected drive. */
  readonly parallel?: number;
}

/** Attempt budgets (spec 4.1 rule 8, 8 "Limits"). */
export interface SessionLimits {
  readonly healthAttempts: number;
  readonly healthDelayMs: number;
  readonly recordAttempts: number;
  readonly resultAttempts: number;
  /** Backoff base and cap for record and wipe-result retries: min(cap, base * 2^n) + jitter. */
  readonly retryBaseMs: number;
  readonly retryCapMs: number;
  /** Waits before each certificate-number lookup after the results were delivered (serve). */
  readonly certificateLookupDelaysMs: readonly number[];
  /** A station bay whose check-in got no answer asks again after base * 2^n, at most cap (default 5 s, 1 min). */
  readonly cloudWaitBaseMs?: number;
  readonly cloudWaitCapMs?: number;
}

/**
 * The spec's numbers: health 3 x 4 s, asset report 3 attempts. Certificate numbers: 5 lookups
 * over about 30 s, the first at once (the number exists from the first receipt; the wait is for
 * the PDF worker to mark it complete).
 */
export const DEFAULT_LIMITS: SessionLimits = { healthAttempts: 3, healthDelayMs: 4000, recordAttempts: 3, resultAttempts: 3, retryBaseMs: 1000, retryCapMs: 8000, certificateLookupDelaysMs: [0, 2000, 4000, 8000, 16_000] };

/** A drive's erase, and what became of its wipe result. */
export interface DriveReport {
  readonly outcome: EraseOutcome;
  readonly jobId: string;
  readonly delivered: boolean;
  readonly wipeResultId?: string;
  readonly certificateStatus?: string | null;
  readonly error?: string;
  /** The cloud refused the result for good (4xx): it left the outbox and is not sent again. */
  readonly deliveryRefused?: boolean;
}

/**
 * Where one drive of the erase phase is: waiting for a free slot, being erased, its wipe result
 * being sent (with the attempt), settled (delivered or not), or withheld (a hotswap drive whose
 * own check-in was never allowed: no job, nothing to report).
 */
export type DriveRun =
  | { readonly stage: 'queued' }
  | { readonly stage: 'erasing'; readonly stopping?: string }
  | { readonly stage: 'reporting'; readonly outcome: EraseOutcome; readonly attempt: number }
  | { readonly stage: 'reported'; readonly report: DriveReport }
  | { readonly stage: 'withheld'; readonly reason: string };

/** The device flow (STYLE C): each phase carries only its own data; the erase phase one sub-state per drive. */
export type Session =
  | { readonly phase: 'health'; readonly attempt: number }
  | { readonly phase: 'verify' }
  | { readonly phase: 'record'; readonly account: string; readonly attempt: number }
  | { readonly phase: 'checkin'; readonly account: string; readonly index: number; readonly jobIds: readonly string[]; readonly assetId?: string }
  | { readonly phase: 'erase'; readonly account: string; readonly jobIds: readonly string[]; readonly drives: readonly DriveRun[] }
  | { readonly phase: 'done'; readonly reports: readonly DriveReport[] }
  | { readonly phase: 'denied'; readonly at: 'health' | 'verify' | 'checkin'; readonly reason: string; readonly unreachable?: true }
  | { readonly phase: 'failed'; readonly reason: string; readonly reports: readonly DriveReport[] };

/** Phase names. */
export type Phase = Session['phase'];

/** What an executed effect reports back. */
export type SessionEvent =
  | { readonly type: 'start' }
  | { readonly type: 'health'; readonly ok: boolean; readonly detail?: string }
  | { readonly type: 'verify'; readonly allow: true; readonly account: string }
  | { readonly type: 'verify'; readonly allow: false; readonly reason: string }
  | { readonly type: 'record'; readonly ok: true; readonly assetId: string }
  | { readonly type: 'record'; readonly ok: false; readonly detail: string }
  | { readonly type: 'checkin'; readonly allow: true; readonly jobId: string }
  /** `unreachable`: no answer from the erasure service (see isUnreachable); a denial all the same. */
  | { readonly type: 'checkin'; readonly allow: false; readonly reason: string; readonly unreachable?: true }
  /** The drive's work was stopped (pulled out, cancelled) before its check-in was sent: none is. */
  | { readonly type: 'withdrawn'; readonly reason: string }
  | { readonly type: 'erased'; readonly index: number; readonly outcome: EraseOutcome }
  | { readonly type: 'reported'; readonly index: number; readonly ok: true; readonly wipeResultId: string; readonly certificateStatus: string | null }
  | { readonly type: 'reported'; readonly index: number; readonly ok: false; readonly detail: string; readonly retryable: boolean }
  /** The operator stops one drive (`at`: when, for a drive stopped before its erase began). */
  | { readonly type: 'cancel'; readonly index: number; readonly reason: string; readonly at: string }
  /** A drive's erase was told to stop; its `erased` event follows when it has. */
  | { readonly type: 'stopping'; readonly index: number };

/** Arguments of every effect, one typed map (STYLE C). */
export interface EffectArgs {
  checkHealth: { readonly attempt: number; readonly delayMs: number };
  callVerify: { readonly reason?: never };
  sendRecord: { readonly attempt: number; readonly delayMs: number };
  callCheckin: { readonly index: number };
  erase: { readonly index: number; readonly drive: DriveJob };
  stopErase: { readonly index: number; readonly reason: string };
  sendWipeResult: { readonly index: number; readonly attempt: number; readonly delayMs: number; readonly body: WipeResultRecord };
}

/** One effect: its kind plus its arguments. */
export type Effect<K extends keyof EffectArgs = keyof EffectArgs> = K extends keyof EffectArgs ? { readonly kind: K } & EffectArgs[K] : never;

/** Executors of the interpreter, one per effect kind. */
export type Executors = { readonly [K in keyof EffectArgs]: (e: Effect<K>) => Promise<SessionEvent> };

/** Terminal phases. */
export const isTerminal = (s: Session): s is Extract<Session, { phase: 'done' | 'denied' | 'failed' }> =>
  s.phase === 'done' || s.phase === 'denied' || s.phase === 'failed';
