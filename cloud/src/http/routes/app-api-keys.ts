import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { listApiKeys, type ApiKeyRow } from '../../adapters/db/api-keys.js';
import { MAX_NAME_LENGTH, mintApiKey, revokeKey } from '../../adapters/db/api-key-issuance.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

const view = (row: ApiKeyRow) => ({
  id: row.public_id,
  name: row.name,
  key_prefix: row.key_prefix,
  created_by: row.created_by_email,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  revoked_at: row.revoked_at,
});

/** JSON behind `/api_tokens`: everyone sees the list; account admins mint and revoke. */
export function registerAppApiKeys(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock }): void {
  app.get('/app/api/api-keys', { preHandler: requireSession }, async (request) => {
    const { account, user } = sessionOf(request);
    return { keys: (await listApiKeys(deps.db, account.id)).map(view), can_manage: user.role === 'admin' };
  });

  /** The answer is the only place the key ever appears. */
  app.post('/app/api/api-keys', { preHandler: requireRole('admin') }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const name = (request.body as { name?: unknown } | undefined)?.name;
    // Said, not silently cut: a name the list would show shortened is refused with the limit.
    if (typeof name === 'string' && name.trim().length > MAX_NAME_LENGTH) {
      return reply.code(422).send({ error: `name is too long: at most ${MAX_NAME_LENGTH} characters` });
    }
    const { row, apiKey } = await mintApiKey(deps, {
      accountId: account.id,
      name,
      createdByUserId: user.id,
    });
    return reply.code(201).header('cache-control', 'no-store').send({ ...view(row), api_key: apiKey });
  });

  app.post('/app/api/api-keys/:id/revoke', { preHandler: requireRole('admin') }, async (request, reply) => {
    const row = await revokeKey(deps, (request.params as { id: string }).id, sessionOf(request).account.id);
    if (!row) return reply.code(404).send({ error: 'unknown API key' });
    return view(row);
  });
}
