import { openCloud, type AgentEnv } from '../agent.js';
import { acceptPolicy, type PolicyState } from '../session/erasure-policy.js';
import { denialReason } from './cloud-client.js';

/**
 * Asks the gateway for the erasure policy this device's token erases under (the route beyond the
 * spec, docs/integrator.md) and checks it. Never throws: no answer, a refusal or a garbled policy
 * is a state without a policy, under which nothing is erased (fail closed).
 */
export async function readErasurePolicy(env: AgentEnv, signal?: AbortSignal): Promise<PolicyState> {
  const client = await openCloud(env, signal);
  const answer = await client.call('erasurePolicy', {});
  return answer.ok ? acceptPolicy(answer.value) : { ok: false, reason: `the erasure policy could not be read (${denialReason(answer.error)})` };
}
