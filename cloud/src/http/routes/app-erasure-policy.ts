import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { findAccountPolicyJson, findTokenPolicyJson, saveAccountPolicyJson, saveTokenPolicyJson } from '../../adapters/db/erasure-policies.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { catalogueForForms, parseErasurePolicy, policyInForce } from '../../domain/erasure-policy/policy.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

/**
 * The account's erasure policy (issue 29 item 2) and a device token's own policy, behind the
 * web app. Everyone signed in reads the account's policy (technicians see what they may
 * choose); only the account's admins change it, or a token's. A policy the shared schema or the
 * catalogue refuses is a 400 `{error}` naming what is wrong; nothing is written then.
 */
export function registerAppErasurePolicy(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  const accountView = async (accountId: number, role: string) => {
    const { policy, source } = policyInForce({ token: null, account: await findAccountPolicyJson(deps.db, accountId) });
    return { erasure_policy: policy, source, can_edit: role === 'admin', methods: catalogueForForms() };
  };

  app.get('/app/api/erasure-policy', { preHandler: requireSession }, async (request) => {
    const { account, user } = sessionOf(request);
    return accountView(account.id, user.role);
  });

  app.put('/app/api/erasure-policy', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const parsed = parseErasurePolicy(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.error });
    await saveAccountPolicyJson(deps.db, { accountId: account.id, policyJson: JSON.stringify(parsed.policy), userId: user.id, now: deps.clock.now().toISOString() });
    request.log.info({ by: user.publicId, erasure_policy: parsed.policy }, 'account erasure policy changed');
    return accountView(account.id, user.role);
  });

  /** `{erasure_policy}`: the token's own policy (a customer's contract), or null to follow the account's again. */
  app.put('/app/api/devices/:jti/erasure-policy', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const { jti } = request.params as { jti: string };
    const token = await findTokenPolicyJson(deps.db, jti);
    if (!token || token.account_id !== account.id) return reply.code(404).send({ error: 'unknown token' });
    const body = request.body as { erasure_policy?: unknown } | undefined;
    if (typeof body !== 'object' || body === null || !('erasure_policy' in body)) {
      return reply.code(400).send({ error: 'send {"erasure_policy": {…}} to set the token\'s own policy, or {"erasure_policy": null} to follow the account\'s' });
    }
    let json: string | null = null;
    if (body.erasure_policy !== null) {
      const parsed = parseErasurePolicy(body.erasure_policy);
      if (!parsed.ok) return reply.code(400).send({ error: parsed.error });
      json = JSON.stringify(parsed.policy);
    }
    await saveTokenPolicyJson(deps.db, { jti, policyJson: json, now: deps.clock.now().toISOString() });
    request.log.info({ jti, by: user.publicId, erasure_policy: json === null ? 'account' : body.erasure_policy }, 'device token erasure policy changed');
    const inForce = policyInForce({ token: json, account: await findAccountPolicyJson(deps.db, account.id) });
    return { jti, erasure_policy: json === null ? null : inForce.policy, in_force: inForce.policy, source: inForce.source };
  });
}
