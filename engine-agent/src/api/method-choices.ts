import { planErase } from '../drives/plan-erase.js';
import { methodFor, type PolicyState } from '../session/erasure-policy.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import type { IntentOutcome } from './intent-outcome.js';

/**
 * The operator's erase method per drive (issue 29): a drive with none gets the policy's default.
 * Choices are checked against the erasure policy of this boot and the drive itself.
 */
export class MethodChoices {
  /** The operator's method per selected device, sent with the selection. */
  private methods: Readonly<Record<string, string>> = {};
  /** The operator's method per drive, where it is not the policy's default. */
  private readonly chosen = new Map<string, string>();

  /** The operator's method for a drive: chosen on its row, else with the selection; undefined: the policy's default. */
  methodOf(device: string): string | undefined {
    return this.chosen.get(device) ?? this.methods[device];
  }

  /** The method each device is erased with under the policy: its own, else the default. */
  methodsFor(devices: readonly string[], policy: PolicyState): Record<string, string> {
    return Object.fromEntries(devices.map((d) => [d, this.methodOf(d) ?? (policy.ok ? policy.policy.default_method : '')]));
  }

  /** The methods sent with a selection: refused for a drive, nothing is selected (and nothing kept). */
  select(drives: readonly DiscoveredDrive[], devices: readonly string[], methods: Readonly<Record<string, string>>): IntentOutcome {
    const byDevice = new Map(drives.map((d) => [d.device, d]));
    for (const [device, methodId] of Object.entries(methods)) {
      const drive = byDevice.get(device);
      if (!drive || !devices.includes(device)) return { ok: false, reason: `a method was chosen for ${device}, which is not selected` };
      const plan = planErase(drive.capabilities, { methodId });
      if (!plan.ok) return { ok: false, reason: `${device}: ${plan.reason}` };
    }
    this.methods = methods;
    return { ok: true };
  }

  /** The method of one drive, among those the policy allows. */
  choose(drives: readonly DiscoveredDrive[], policy: PolicyState, device: string, methodId: string): IntentOutcome {
    if (!drives.some((d) => d.device === device)) return { ok: false, reason: `not a drive of this machine: ${device}` };
    const method = methodFor(policy, methodId);
    if (!method.ok) return { ok: false, reason: method.reason };
    this.chosen.set(device, method.method);
    return { ok: true };
  }

  /** Why the chosen method cannot be erased with on a drive under the policy (the planner's word), or undefined. */
  planRefusal(drives: readonly DiscoveredDrive[], policy: PolicyState, device: string, methodId: string): string | undefined {
    const drive = drives.find((d) => d.device === device);
    if (!drive || !drive.plan.ok || !policy.ok) return undefined;
    const plan = planErase(drive.capabilities, { erasure: policy.policy, methodId });
    return plan.ok ? undefined : plan.reason;
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
