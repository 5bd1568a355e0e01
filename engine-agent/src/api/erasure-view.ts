import { findMethod, type ErasureChoice } from '@erasure/shared';
import { sourceWords, verificationWords, type PolicyState } from '../session/erasure-policy.js';

/**
 * The kiosk's view of the erasure policy (issue 29): the methods it may offer, by their contract
 * names, and the method each listed drive gets (the operator's choice, else the default); or why
 * nothing can be erased.
 */
export function erasureView(
  state: PolicyState,
  devices: readonly string[],
  chosen: (device: string) => string | undefined,
  planRefusal: (device: string, methodId: string) => string | undefined,
): ErasureChoice {
  if (!state.ok) return { status: 'blocked', reason: state.reason };
  const { policy } = state;
  const allowed = policy.allowed_methods.flatMap((id) => {
    const m = findMethod(id);
    return m ? [{ id: m.id, name: m.name, standard: m.standard }] : [];
  });
  const allowedIds = new Set<string>(policy.allowed_methods);
  const methods: Record<string, string> = {};
  const refusals: Record<string, string> = {};
  for (const device of devices) {
    const pick = chosen(device);
    const method = pick !== undefined && allowedIds.has(pick) ? pick : policy.default_method;
    methods[device] = method;
    const refused = planRefusal(device, method);
    if (refused) refusals[device] = refused;
  }
  return { status: 'ready', source: sourceWords(state.source), default_method: policy.default_method, verification: verificationWords(policy), allowed, methods, refusals };
}
