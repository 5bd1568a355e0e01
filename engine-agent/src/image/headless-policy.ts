import { formatVerificationLevel, type ErasurePolicy, type VerificationLevel } from '@erasure/shared';
import type { ErasePolicy } from '../drives/plan-erase.js';
import type { AtaMasterPasswords } from '../erase/ata-master-unlock.js';
import type { HealthGrading } from '../health/grading.js';
import { methodFor, methodName, sourceWords, type PolicyState } from '../session/erasure-policy.js';
import type { BootOptions } from './boot-options.js';

/**
 * What a headless run erases under (issue 29 item 2): the cloud's erasure policy for this device's
 * token (its own contract, else its account's), as the kiosk and the station read it, with the
 * kernel command line choosing inside it. Plain functions over the policy read; no I/O.
 */
export type HeadlessPolicy =
  /** `masters`: the account's ATA master passwords (issue 30 item 1), for the erase only. */
  | { readonly ok: true; readonly plan: ErasePolicy; readonly words: string; readonly masters?: AtaMasterPasswords; readonly grading?: HealthGrading }
  /** Nothing is erased; `reason` is said on the console. */
  | { readonly ok: false; readonly reason: string };

/** How much a level reads back, to compare two: every pass > the last pass in full > N % of it. */
const readsBack = (level: VerificationLevel): number => (level === 'every-pass' ? 300 : level === 'full' ? 200 : level.sample);

/** The policy's level in the command line's spelling. */
const levelWords = (level: VerificationLevel) => formatVerificationLevel(level);

/**
 * The plan policy of a headless run. Fail closed: without a policy read from the cloud nothing is
 * erased. `erasure.method=` picks among the policy's allowed methods (absent: its default); a
 * method outside them is refused, whole run, before any byte is written. `erasure.verify=` may ask
 * for more read-back than the policy sets, never less: the account's level is what its auditors
 * were told.
 */
export function headlessPolicy(state: PolicyState, options: Pick<BootOptions, 'method' | 'methods' | 'verify'>): HeadlessPolicy {
  if (!state.ok) return { ok: false, reason: `nothing is erased: ${state.reason}` };
  const chosen = methodFor(state, options.method);
  if (!chosen.ok) return { ok: false, reason: `erasure.method=${options.method ?? ''} refused, nothing is erased: ${chosen.reason}` };
  // A drive's own method (`erasure.method=<device>:<id>`) is held to the same policy as the run's.
  for (const [device, method] of Object.entries(options.methods ?? {})) {
    const own = methodFor(state, method);
    if (!own.ok) return { ok: false, reason: `erasure.method=${device}:${method} refused, nothing is erased: ${own.reason}` };
  }
  const policy: ErasurePolicy = state.policy;
  if (options.verify && readsBack(options.verify) < readsBack(policy.verification)) {
    return {
      ok: false,
      reason: `erasure.verify=${levelWords(options.verify)} refused, nothing is erased: ${sourceWords(state.source)} sets ${levelWords(policy.verification)}, and a headless run may read back more than its policy, never less`,
    };
  }
  const verification = options.verify ?? policy.verification;
  return {
    ok: true,
    plan: { erasure: { ...policy, verification }, methodId: chosen.method, ...(state.masters ? { ataMasterPasswords: true } : {}) },
    ...(state.masters ? { masters: state.masters } : {}),
    grading: state.grading,
    words: `erasure policy: ${sourceWords(state.source)}; method ${methodName(chosen.method)}${options.method ? ' (erasure.method=)' : ' (its default)'}, verification ${levelWords(verification)}${options.verify ? ' (erasure.verify=)' : ''}`,
  };
}
