import { findMethod } from '@erasure/shared';
import { planForMethod } from '../agent.js';
import type { ErasePlan, ErasePolicy } from '../drives/plan-erase.js';
import { methodFor, type PolicyState } from '../session/erasure-policy.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';

/** A method checked for one drive: its plan, or why it cannot be erased with, in words. */
export type MethodCheck = { ok: true; method: string; plan: ErasePlan } | { ok: false; reason: string };

/**
 * The one check of a method for a drive (issue 29): allowed by the erasure policy, and able to
 * reach every sector of this drive, planned with what the machine adds to every plan (`machine`,
 * see agent.ts `machinePolicy`), as the run will plan it. No method (undefined) is the policy's default.
 */
export function checkMethod(drive: DiscoveredDrive, policy: PolicyState, methodId: string | undefined, machine: ErasePolicy): MethodCheck {
  if (drive.ownMedium) return { ok: false, reason: drive.ownMedium };
  if (methodId !== undefined && !findMethod(methodId)) return { ok: false, reason: `"${methodId}" is not an erasure method this engine knows` };
  const method = methodFor(policy, methodId);
  if (!method.ok) return method;
  if (!policy.ok) return { ok: false, reason: policy.reason };
  const plan = planForMethod(drive.capabilities, machine, { erasure: policy.policy, methodId: method.method });
  return plan.ok ? { ok: true, method: method.method, plan } : { ok: false, reason: plan.reason };
}

/**
 * The operator's erase method per drive (issue 29), chosen with the `choose_method` intent: a
 * drive with none gets the policy's default. A choice is kept only once `checkMethod` took it.
 */
export class MethodChoices {
  private readonly chosen = new Map<string, string>();

  /** The operator's method for a drive; undefined: the policy's default. */
  methodOf(device: string): string | undefined {
    return this.chosen.get(device);
  }

  /** The method each device is erased with under the policy: its own, else the default. */
  methodsFor(devices: readonly string[], policy: PolicyState): Record<string, string> {
    return Object.fromEntries(devices.map((d) => [d, this.methodOf(d) ?? (policy.ok ? policy.policy.default_method : '')]));
  }

  /** The method of one drive: refused (in words, nothing kept) unless the policy allows it and it can run on the drive. */
  choose(drives: readonly DiscoveredDrive[], policy: PolicyState, device: string, methodId: string, machine: ErasePolicy): MethodCheck {
    const drive = drives.find((d) => d.device === device);
    if (!drive) return { ok: false, reason: `not a drive of this machine: ${device}` };
    const checked = checkMethod(drive, policy, methodId, machine);
    if (checked.ok) this.chosen.set(device, checked.method);
    return checked;
  }

  /** Why a drive's method cannot be erased with (the check's words), or undefined; a drive no method can erase says so on its own row. */
  refusal(drives: readonly DiscoveredDrive[], policy: PolicyState, device: string, methodId: string, machine: ErasePolicy): string | undefined {
    const drive = drives.find((d) => d.device === device);
    if (!drive || !drive.plan.ok || !policy.ok) return undefined;
    const checked = checkMethod(drive, policy, methodId, machine);
    return checked.ok ? undefined : checked.reason;
  }

  /** Why the selected drives cannot be erased under the policy, or undefined when each one's method is allowed. */
  refused(policy: PolicyState, selected: readonly string[]): string | undefined {
    for (const device of selected) {
      const method = methodFor(policy, this.methodOf(device));
      if (!method.ok) return policy.ok ? `${method.reason} (drive ${device}). Choose an allowed method on the Drives step.` : method.reason;
    }
    return undefined;
  }
}
