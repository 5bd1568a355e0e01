import type { FastifyInstance } from 'fastify';
import { findAccountJobChoices, setAccountFreeEntry } from '../../adapters/db/job-details.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

/**
 * The kiosk's job details setting (issue 31 item 6): whether technicians may type a customer or
 * lot the account does not have yet (free entry), and the lists the kiosk offers. Reads for any
 * signed-in user; the switch for admins. A body other than `{free_entry: boolean}` is a 400.
 */
export function registerAppJobDetails(app: FastifyInstance, deps: { db: SqlDatabase }): void {
  const view = async (accountId: number) => {
    const choices = await findAccountJobChoices(deps.db, accountId);
    return { free_entry: choices.freeEntry, customers: choices.customers, lots: choices.lots };
  };

  app.get('/app/api/job-details', { preHandler: requireSession }, async (request) => view(sessionOf(request).account.id));

  app.put('/app/api/job-details', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const body = request.body as { free_entry?: unknown } | null;
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    if (typeof body?.free_entry !== 'boolean' || keys.length !== 1) return reply.code(400).send({ error: 'send {"free_entry": true} or {"free_entry": false}' });
    await setAccountFreeEntry(deps.db, account.id, body.free_entry);
    request.log.info({ by: user.publicId, free_entry: body.free_entry }, 'account job details free entry changed');
    return view(account.id);
  });
}
