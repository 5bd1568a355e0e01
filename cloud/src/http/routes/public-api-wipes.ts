import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_API_ERRORS, PUBLIC_API_PAGE_SIZE, publicApi } from '@erasure/shared';
import type { WipeGridReader } from '../../adapters/db/wipes-grid.js';
import { checkAccountFilter, pageEnvelope, parseSince } from '../../domain/public-api/query.js';
import { toPublicWipe } from '../../domain/public-api/wipe.js';
import { parseWipesQuery } from '../../domain/wipes/filter.js';

export interface PublicWipesDeps {
  /** The public API's grid reader. */
  wipeGrid: () => Promise<WipeGridReader>;
  /** The public API's JSON answer (ETag, 304). */
  send: (request: FastifyRequest, reply: FastifyReply, body: unknown) => FastifyReply;
}

/** A query value; a repeated parameter counts by its last occurrence, as on the other public routes. */
const lastOf = (value: unknown): string | undefined => {
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : undefined;
};

/**
 * `GET /api/v1/wipes` and `GET /api/v1/wipes/{id}` (issue 31 item 5), inside the public API's
 * scope (its API key and rate limit): the assets' shape and sync rules (`{wipes, page, pages,
 * count}`, last change first, `since` on `updated_at`, `page`), plus the wipes grid's filters,
 * computed by the same SQL. A malformed parameter is a 422 naming its rule, as `since` is.
 */
export function registerPublicWipes(scope: FastifyInstance, deps: PublicWipesDeps): void {
  scope.get(publicApi.listWipes.url, async (request, reply) => {
    const key = request.apiKey!;
    const query = Object.fromEntries(Object.entries(request.query as Record<string, unknown>).map(([name, value]) => [name, lastOf(value)]));
    const scoped = checkAccountFilter(query.account_id, { publicId: key.account_public_id, numericId: key.account_id });
    if (!scoped.ok) return reply.code(scoped.status).send({ error: scoped.error });
    const since = parseSince(query.since);
    if (!since.ok) return reply.code(since.status).send({ error: since.error });
    // The sync order is fixed (last change first): a `sort` is not the API's.
    const { sort: _sort, ...filters } = query;
    const parsed = parseWipesQuery(filters);
    if (!parsed.ok) return reply.code(422).send({ error: parsed.error });
    const { filter, page } = parsed.value;
    const { rows, count } = await (await deps.wipeGrid()).search(
      key.account_id,
      { ...filter, ...(since.value === undefined ? {} : { since: since.value }) },
      'updated_desc',
      PUBLIC_API_PAGE_SIZE,
      (page - 1) * PUBLIC_API_PAGE_SIZE,
    );
    return deps.send(request, reply, { wipes: rows.map((row) => toPublicWipe(row, key.account_public_id)), ...pageEnvelope(page, count) });
  });

  scope.get(publicApi.getWipe.url, async (request, reply) => {
    const key = request.apiKey!;
    const { id } = request.params as { id: string };
    const [row] = await (await deps.wipeGrid()).byPublicIds(key.account_id, [id]);
    // Another account's wipe and no wipe at all answer alike.
    if (!row) return reply.code(404).send({ error: PUBLIC_API_ERRORS.wipeNotFound });
    return deps.send(request, reply, toPublicWipe(row, key.account_public_id));
  });
}
