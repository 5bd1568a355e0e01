import type { FastifyInstance } from 'fastify';
import { findMasterPasswords, removeMasterPasswords, saveMasterPasswords } from '../../adapters/db/ata-master-passwords.js';
import type { Clock } from '../../adapters/clock.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { parseMasterPasswordsSave, viewOf } from '../../domain/erasure-policy/ata-master-passwords.js';
import { requireRole, sessionOf } from '../session.js';

/**
 * The account's ATA master passwords (issue 30 item 1), admins only, write-only: every answer is
 * how many are set, their labels and the factory-defaults toggle, never a password. A save the
 * domain refuses is a 400 `{error}` and nothing is written. No body is ever logged here.
 */
export function registerAppAtaMasterPasswords(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  const view = async (accountId: number) => ({ ata_master_passwords: viewOf(await findMasterPasswords(deps.db, accountId)) });

  app.get('/app/api/ata-master-passwords', { preHandler: requireRole('admin') }, async (request) => view(sessionOf(request).account.id));

  app.put('/app/api/ata-master-passwords', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const parsed = parseMasterPasswordsSave(request.body, await findMasterPasswords(deps.db, account.id));
    if (!parsed.ok) return reply.code(400).send({ error: parsed.error });
    await saveMasterPasswords(deps.db, { accountId: account.id, value: parsed.value, userId: user.id, now: deps.clock.now().toISOString() });
    request.log.info({ by: user.publicId, count: parsed.value.entries.length, factory_defaults: parsed.value.factoryDefaults }, 'account ATA master passwords changed');
    return view(account.id);
  });

  app.delete('/app/api/ata-master-passwords', { preHandler: requireRole('admin') }, async (request) => {
    const { account, user } = sessionOf(request);
    await removeMasterPasswords(deps.db, account.id);
    request.log.info({ by: user.publicId }, 'account ATA master passwords removed');
    return view(account.id);
  });
}
