import { findMethod, formatVerificationLevel, type AtaMasterPasswordsGranted, type HealthGradingGranted, type ErasurePolicy, type ErasurePolicySource, type MethodId } from '@erasure/shared';
import type { AtaMasterPasswords } from '../erase/ata-master-unlock.js';
import { gradingOf, type HealthGrading } from '../health/grading.js';

/**
 * The erasure policy a device erases under (issue 29 item 2), as the agent holds it: read from the
 * gateway once verify allowed the boot (the token's own policy, a customer's contract, else its
 * account's), and checked again here. Plain functions, no I/O.
 *
 * Fail closed: until a policy was read and checked, the agent has none, and a machine without a
 * policy erases nothing. The gateway already refuses an answer outside the contract (unknown
 * method ids included); the rule the schema cannot state, a default among the allowed methods, is
 * checked here, so no garbled policy ever picks a method.
 */
export type PolicyState =
  | {
      readonly ok: true;
      readonly policy: ErasurePolicy;
      readonly source: ErasurePolicySource;
      /**
       * The account's ATA master passwords (issue 30 item 1), held in memory only: they go to the
       * erase of a drive locked with an unknown user password, never into a view, log or result.
       */
      readonly masters?: AtaMasterPasswords;
      /** The account's health grade table and self-test switch (issue 30 item 6), or the default. */
      readonly grading: HealthGrading;
    }
  /**
   * `denial`: the gateway's own refusal (a ladder reason such as `revoked`, or `gateway unreachable: …`)
   * when there was no policy to read because the token or the gateway said no, as a check-in would.
   * `unreachable`: there was no answer from the erasure service (the gateway or the cloud behind it
   * down): nothing may be erased now, and asking again later may get a policy.
   */
  | { readonly ok: false; readonly reason: string; readonly denial?: string; readonly unreachable?: true };

/** The state before any answer: nothing may be erased. */
export const NO_POLICY_YET: PolicyState = { ok: false, reason: 'the erasure policy has not been read yet' };

/** A policy answer the gateway client already checked against the contract, checked for what the schema cannot say. */
export function acceptPolicy(granted: { erasure_policy: ErasurePolicy; source: ErasurePolicySource; ata_master_passwords?: AtaMasterPasswordsGranted; health_grading?: HealthGradingGranted }): PolicyState {
  const policy = granted.erasure_policy;
  if (!policy.allowed_methods.includes(policy.default_method)) {
    return { ok: false, reason: `the erasure policy is not usable: its default method ${policy.default_method} is not among its allowed methods` };
  }
  const unknown = [policy.default_method, ...policy.allowed_methods].filter((id) => !findMethod(id));
  if (unknown.length > 0) return { ok: false, reason: `the erasure policy names methods this agent does not know: ${unknown.join(', ')}` };
  const masters = mastersOf(granted.ata_master_passwords);
  // A garbled grade table never stops an erase: gradingOf refuses it and grades by the default, saying so.
  return { ok: true, policy, source: granted.source, ...(masters ? { masters } : {}), grading: gradingOf(granted.health_grading) };
}

/** The granted master passwords as the unlock takes them; none when there is nothing to try. */
function mastersOf(granted: AtaMasterPasswordsGranted | undefined): AtaMasterPasswords | undefined {
  if (!granted || (granted.passwords.length === 0 && !granted.factory_defaults)) return undefined;
  return { account: granted.passwords, vendorDefaults: granted.factory_defaults };
}

/** Whose policy it is, in the operator's words. */
export const sourceWords = (source: ErasurePolicySource): string =>
  source === 'token' ? "this device token's contract" : source === 'account' ? "the account's policy" : 'the standard policy';

/** A method's contract name, e.g. "DoD 5220.22-M (3 passes)". */
export const methodName = (id: string): string => findMethod(id)?.name ?? id;

/**
 * The method for one drive: the operator's choice when the policy allows it, else the policy's
 * default. A choice outside the policy is refused in words, and nothing is erased with it.
 */
export function methodFor(state: PolicyState, chosen: string | undefined): { ok: true; method: MethodId } | { ok: false; reason: string } {
  if (!state.ok) return { ok: false, reason: `nothing can be erased: ${state.reason}` };
  const id = chosen ?? state.policy.default_method;
  if (!(state.policy.allowed_methods as readonly string[]).includes(id)) {
    return { ok: false, reason: `${methodName(id)} is not allowed by ${sourceWords(state.source)}; allowed: ${state.policy.allowed_methods.map(methodName).join(', ')}` };
  }
  return { ok: true, method: id as MethodId };
}

/** The verification level in the operator's words. */
export function verificationWords(policy: ErasurePolicy): string {
  const level = policy.verification;
  if (level === 'full') return 'every sector of the last pass is read back';
  if (level === 'every-pass') return 'every pass is read back';
  return `${level.sample}% of each drive is read back (${formatVerificationLevel(level)})`;
}

