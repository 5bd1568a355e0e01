import type { FastifyInstance } from 'fastify';
import { findHealthGrading, removeHealthGrading, saveHealthGrading } from '../../adapters/db/health-gradings.js';
import type { Clock } from '../../adapters/clock.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { FORM, parseHealthGradingSave, viewOf } from '../../domain/erasure-policy/health-grading.js';
import { requireRole, sessionOf } from '../session.js';

/**
 * The account's health grade rule table and SMART self-test switch (issue 30 item 6), admins
 * only. A save the domain refuses is a 400 `{error}` and nothing is written; DELETE is "Reset to
 * default" (the documented default table, no self-test).
 */
export function registerAppHealthGrading(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  const view = async (accountId: number) => ({ health_grading: viewOf(await findHealthGrading(deps.db, accountId)), form: FORM });

  app.get('/app/api/health-grading', { preHandler: requireRole('admin') }, async (request) => view(sessionOf(request).account.id));

  app.put('/app/api/health-grading', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const parsed = parseHealthGradingSave(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: parsed.error });
    await saveHealthGrading(deps.db, { accountId: account.id, value: parsed.value, userId: user.id, now: deps.clock.now().toISOString() });
    request.log.info({ by: user.publicId, rules: parsed.value.rules.length, smart_self_test: parsed.value.smart_self_test }, 'account health grade table changed');
    return view(account.id);
  });

  app.delete('/app/api/health-grading', { preHandler: requireRole('admin') }, async (request) => {
    const { account, user } = sessionOf(request);
    await removeHealthGrading(deps.db, account.id);
    request.log.info({ by: user.publicId }, 'account health grade table reset to default');
    return view(account.id);
  });
}
