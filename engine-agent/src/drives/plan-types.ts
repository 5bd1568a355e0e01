import type { ErasurePolicy, MethodId, MethodPass, VerificationLevel } from '@erasure/shared';
import type { UnfreezeOutcome } from './freeze-lock.js';
import type { EraseMethod, NistCategory } from './erase-methods.js';

// The planner's inputs and outputs, apart from planErase itself so the method planner
// (plan-method.ts) can use them without an import circle; plan-erase.ts re-exports them.

/** Operator or account policy for one drive's erase. */
export interface ErasePolicy {
  /** Use exactly this method; if it cannot run, there is no plan (fail closed). */
  readonly forceMethod?: EraseMethod;
  /** Accept that sanitize/format erases every namespace of a multi-namespace NVMe device. */
  readonly allowAllNamespaces?: boolean;
  /** The account has ATA master passwords (or allows vendor defaults) for drives locked with an unknown user password. */
  readonly ataMasterPasswords?: boolean;
  /** Remove HPA/DCO before erasing (default true); false leaves the drive "not fully sanitized". */
  readonly restoreHiddenAreas?: boolean;
  /** Measured overwrite throughput for duration estimates, bytes/s (default: typical for the drive's medium and bus). */
  readonly overwriteBytesPerSecond?: number;
  /** This boot's freeze lock removal: a drive still frozen says in its plan why it falls back. */
  readonly unfreeze?: UnfreezeOutcome;
  /**
   * The account's (or the device token's) erasure policy: its default method, verification level
   * and the methods allowed (issue 29). Absent, and no `methodId`: today's plan, unchanged.
   */
  readonly erasure?: ErasurePolicy | undefined;
  /** The catalogue method the operator chose for this drive (a plain string: it comes from outside). */
  readonly methodId?: string | undefined;
}

/** A step the driver must complete before the erase itself. */
export type ErasePrecondition = 'restore-hpa' | 'restore-dco';

/** A method that was not chosen, and why. */
export interface RejectedMethod {
  readonly method: EraseMethod;
  readonly reason: string;
}

/** The chosen erase, with everything the certificate needs to explain it. */
export interface ErasePlan {
  readonly ok: true;
  readonly method: EraseMethod;
  /** Wire `wipe_method`, e.g. "NIST 800-88 R2 Purge". */
  readonly label: string;
  readonly category: NistCategory;
  readonly technique: string;
  readonly command: string;
  readonly expectedMinutes?: number;
  /** `drive` when the drive reported the time itself, `estimate` otherwise. */
  readonly durationSource?: 'drive' | 'estimate';
  readonly why: string;
  readonly preconditions: readonly ErasePrecondition[];
  /** False when hidden areas stay in place: the certificate must not claim a full sanitization. */
  readonly fullySanitized: boolean;
  readonly warnings: readonly string[];
  readonly rejected: readonly RejectedMethod[];
  /** The catalogue method planned; absent when no policy or method was given (today's plan). */
  readonly methodId?: MethodId;
  /** A named overwrite's passes, in order (absent: the engine's single zero pass). */
  readonly overwritePasses?: readonly MethodPass[];
  /** BSI-GS: passes written before the firmware erase. */
  readonly passesBeforeFirmware?: readonly MethodPass[];
  /** The read-back level; absent: today's (full read-back of an overwrite, markers after a firmware erase). */
  readonly verification?: VerificationLevel;
}

/** No method can run under this policy. */
export interface NoErasePlan {
  readonly ok: false;
  readonly reason: string;
  readonly rejected: readonly RejectedMethod[];
  /** `destroy` when no erase can ever reach the drive's data (locked at ATA level maximum); else review. */
  readonly disposition?: 'destroy';
}
