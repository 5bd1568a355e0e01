import { openCloud, type AgentEnv } from '../agent.js';
import { acceptPolicy, type PolicyState } from '../session/erasure-policy.js';
import { denialReason, isUnreachable } from './cloud-client.js';

/**
 * Asks the gateway for the erasure policy this device's token erases under (the route beyond the
 * spec, docs/integrator.md) and checks it. Never throws: no answer, a refusal or a garbled policy
 * is a state without a policy, under which nothing is erased (fail closed).
 */
export async function readErasurePolicy(env: AgentEnv, signal?: AbortSignal): Promise<PolicyState> {
  const client = await openCloud(env, signal);
  const answer = await client.call('erasurePolicy', {});
  if (answer.ok) return acceptPolicy(answer.value);
  const reason = `the erasure policy could not be read (${denialReason(answer.error)})`;
  // No gateway, or a gateway without its cloud: the denial a check-in would get, in its words.
  if (isUnreachable(answer.error)) return { ok: false, reason, denial: denialReason(answer.error), unreachable: true };
  // The token itself was refused (403 not active, 404 unknown): verify, which spends nothing, says
  // why in the ladder's words (`revoked`, `suspended`…), as a check-in would have.
  if (answer.error.kind === 'status' && (answer.error.status === 403 || answer.error.status === 404)) {
    const verify = await client.call('verify', {});
    if (!verify.ok) return { ok: false, reason, denial: denialReason(verify.error) };
  }
  return { ok: false, reason };
}
