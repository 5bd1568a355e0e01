import { findMethod, METHOD_CATALOGUE, type ErasureMethod, type ErasurePolicy, type MethodId, type MethodPass, type PassPattern, type VerificationLevel } from '@erasure/shared';
import type { DriveCapabilities } from './capabilities.js';
import { METHOD_INFO } from './erase-methods.js';
import type { ErasePlan, ErasePolicy, NoErasePlan } from './plan-types.js';

/** Plans the drive as today (strongest firmware Purge, else Clear), under the engine-level policy. */
type BasePlanner = (caps: DriveCapabilities, policy: ErasePolicy) => ErasePlan | NoErasePlan;

const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(2, '0')}`;

/** One pass in a customer's words: "0x00", "complement", "random". */
export function describePass(pattern: PassPattern): string {
  switch (pattern.kind) {
    case 'zero':
      return '0x00';
    case 'one':
      return '0xFF';
    case 'byte':
      return hex(pattern.value);
    case 'bytes':
      return pattern.values.map(hex).join(' ');
    case 'complement':
      return 'complement';
    case 'prng':
      return 'random';
  }
}

/** "3 passes (0x00, complement, random)". */
export function describePasses(passes: readonly MethodPass[]): string {
  return `${passes.length} pass${passes.length === 1 ? '' : 'es'} (${passes.map((p) => describePass(p.pattern)).join(', ')})`;
}

const refuse = (reason: string): NoErasePlan => ({ ok: false, reason, rejected: [] });

/** The names of the methods a policy allows, for the refusal's message. */
const allowedNames = (erasure: ErasurePolicy) => erasure.allowed_methods.map((id) => findMethod(id)?.name ?? id).join(', ');

/**
 * The plan for the method the operator chose for this drive, else the policy's default (issue 29).
 * A method outside the policy's allowed list is refused before anything is planned (so nothing is
 * written). NIST Purge is today's plan; NIST Clear and the named overwrites are an overwrite of
 * exactly the method's passes; a named method that cannot reach every user-addressable sector is
 * refused for the drive, and one on flash is planned, as Clear only, with the plan saying why.
 */
export function planMethod(caps: DriveCapabilities, policy: ErasePolicy, base: BasePlanner): ErasePlan | NoErasePlan {
  const erasure = policy.erasure;
  const requested = policy.methodId ?? erasure?.default_method ?? 'nist-800-88-purge';
  const method = findMethod(requested);
  if (!method) return refuse(`"${requested}" is not an erasure method this engine knows (known: ${METHOD_CATALOGUE.map((m) => m.id).join(', ')})`);
  if (erasure && !(erasure.allowed_methods as readonly string[]).includes(method.id)) {
    return refuse(`${method.name} is not allowed by this account's erasure policy (allowed: ${allowedNames(erasure)}); nothing was written`);
  }
  const verification = erasure?.verification ?? 'full';
  const rest: ErasePolicy = { ...policy, methodId: undefined, erasure: undefined };
  if (method.id === 'nist-800-88-purge') {
    const plan = base(caps, rest);
    return plan.ok ? { ...plan, methodId: method.id, verification } : plan;
  }
  if (method.technique === 'firmware+overwrite') return planFirmwareThenOverwrite(caps, rest, method, verification, base);
  const plan = base(caps, { ...rest, forceMethod: 'overwrite' });
  if (!plan.ok) return { ...plan, reason: `${method.name} cannot run on this drive: ${plan.reason}` };
  const named = method.id !== 'nist-800-88-clear';
  // A named method promises every sector: a hidden area left in place breaks that promise.
  if (named && !plan.fullySanitized) {
    return refuse(`${method.name} cannot reach every user-addressable sector of this drive: ${plan.warnings.filter((w) => w.startsWith('not fully sanitized')).join('; ')}`);
  }
  const flash = caps.rotational === false;
  const passes = describePasses(method.passes);
  const why = flash
    ? `${method.name} chosen${policy.methodId ? ' by the operator' : " by the account's policy"}: on flash media a ${method.passes.length > 1 ? 'multi-pass ' : ''}overwrite is Clear only (NIST SP 800-88 / IEEE 2883): it reaches the sectors the drive maps, not its spare and remapped blocks, which only a firmware Purge reaches`
    : `${method.name} chosen${policy.methodId ? ' by the operator' : " by the account's policy"}: ${passes} over every user-addressable sector, then verified`;
  return {
    ...plan,
    methodId: method.id,
    label: named ? method.name : plan.label,
    technique: named ? `IEEE 2883 Clear, overwrite through the write path: ${passes}, ${method.standard}` : plan.technique,
    why,
    expectedMinutes: plan.expectedMinutes === undefined ? undefined : overwriteMinutes(plan.expectedMinutes, method.passes.length, verification),
    overwritePasses: method.passes,
    verification,
    rejected: plan.rejected,
  };
}

/** The overwrite's estimate scaled from one pass and one full read to the method's passes and reads. */
function overwriteMinutes(onePassAndRead: number, passes: number, verification: VerificationLevel): number {
  const reads = verification === 'every-pass' ? passes : typeof verification === 'object' ? verification.sample / 100 : 1;
  return (onePassAndRead / 2) * (passes + reads);
}

/** BSI-GS: the method's overwrite, then the strongest firmware erase the drive supports (which must exist). */
function planFirmwareThenOverwrite(caps: DriveCapabilities, rest: ErasePolicy, method: ErasureMethod & { readonly id: MethodId }, verification: VerificationLevel, base: BasePlanner): ErasePlan | NoErasePlan {
  const plan = base(caps, rest);
  if (!plan.ok) return { ...plan, reason: `${method.name} cannot run on this drive: ${plan.reason}` };
  if (!METHOD_INFO[plan.method].firmware) {
    return refuse(`${method.name} needs a firmware erase after its overwrite, and none can run on this drive: ${plan.why}`);
  }
  return {
    ...plan,
    methodId: method.id,
    label: method.name,
    technique: `IEEE 2883 Clear, overwrite through the write path (${describePasses(method.passes)}), then ${plan.technique} (${plan.command})`,
    why: `${method.name}: ${describePasses(method.passes)} over every user-addressable sector, then ${plan.why}`,
    passesBeforeFirmware: method.passes,
    verification,
  };
}
