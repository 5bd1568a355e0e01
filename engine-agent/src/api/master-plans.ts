import { planErase, type ErasePolicy } from '../drives/plan-erase.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import type { PolicyState } from '../session/erasure-policy.js';

/**
 * The kiosk's drive list once the account's ATA master passwords are known (issue 30 item 1):
 * the drives were listed before the policy was read, so one locked with an unknown user password
 * was listed with no plan, as if no master password could open it. It is planned
 * again knowing the erase will try the masters; every other drive keeps its plan. Without masters
 * (or without a policy) the list is unchanged.
 */
export function withMasterPlans(drives: DiscoveredDrive[], policy: PolicyState, machine: ErasePolicy): DiscoveredDrive[] {
  if (!policy.ok || !policy.masters) return drives;
  return drives.map((d) => (d.capabilities.ataSecurity?.locked ? { ...d, plan: planErase(d.capabilities, { ...machine, ataMasterPasswords: true }) } : d));
}
