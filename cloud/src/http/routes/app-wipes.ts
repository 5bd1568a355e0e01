import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WIPE_STATUSES } from '@erasure/shared';
import type { Clock } from '../../adapters/clock.js';
import { deletePushIntegration, findPushIntegration, savePushIntegration } from '../../adapters/db/push-integrations.js';
import type { WipeGridReader } from '../../adapters/db/wipes-grid.js';
import type { HttpPoster } from '../../adapters/http-post.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { DEFAULT_CSV_MAX_ROWS, exportWipesCsv } from '../../domain/wipes/export.js';
import { parseWipesQuery } from '../../domain/wipes/filter.js';
import { findWipes } from '../../domain/wipes/query.js';
import type { OutboundPolicy } from '../../domain/webhooks/ssrf.js';
import { statusBadge, toWipeView } from '../../domain/wipes/grid.js';
import { checkPushUrl, MAX_PUSH_ROWS, newPushSecret, pushWipes } from '../../domain/wipes/push.js';
import { requireRole, requireSession, sessionOf } from '../session.js';

/** Rows per page of the wipes grid (spec 4.5, spec 8). */
export const WIPES_PAGE_SIZE = 100;

export interface AppWipesDeps {
  db: SqlDatabase;
  clock: Clock;
  /** Push's POST, through the one outbound client. */
  post: HttpPoster;
  /** What a saved Push URL may be (scheme, loopback); the client re-checks at connect time. */
  outbound: OutboundPolicy;
  /** The app's grid reader (`wipeGridReaderOnce`). */
  wipeGrid: () => Promise<WipeGridReader>;
  /** Rows one CSV export may hold (WIPES_CSV_MAX_ROWS); default 1,000,000. */
  csvMaxRows?: number | undefined;
}

/**
 * JSON behind `/wipes`: one page of the wipes that match the grid's search, filters and sort
 * (query parameters, shared/contracts/wipes-query.ts), derived as the grid shows them, with the
 * count of every match in the history; what the filters offer; the Push action and its target.
 */
export function registerAppWipes(app: FastifyInstance, deps: AppWipesDeps): void {
  const csvMaxRows = deps.csvMaxRows ?? DEFAULT_CSV_MAX_ROWS;
  app.get('/app/api/wipes', { preHandler: requireSession }, async (request, reply) => {
    const { account, user } = sessionOf(request);
    const query = parseWipesQuery(request.query);
    if (!query.ok) return reply.code(400).send({ error: query.error });
    const grid = await deps.wipeGrid();
    const { filter, sort, page } = query.value;
    const found = await findWipes(grid, account.id, { filter, order: sort, page }, WIPES_PAGE_SIZE);
    const target = await findPushIntegration(deps.db, account.id);
    return {
      ...found,
      page_size: WIPES_PAGE_SIZE,
      // Every status a wipe can have: value for the filter, label as the grid shows it.
      statuses: WIPE_STATUSES.map((status) => ({ value: status, label: statusBadge(status).label })),
      // What the customer, lot and method filters offer: the whole history's, not this page's.
      facets: await grid.facets(account.id),
      csv_max_rows: csvMaxRows,
      push: { configured: target !== undefined, url: target?.url ?? null, can_configure: user.role === 'admin' },
    };
  });

  /**
   * The CSV of every wipe the grid's filters match, in its order (issue 31 item 2), streamed as the
   * store reads it. Above the operator's cap: 422 saying how many match and what one CSV holds.
   */
  app.get('/app/api/wipes.csv', { preHandler: requireSession }, async (request, reply) => {
    const { account } = sessionOf(request);
    const query = parseWipesQuery(request.query);
    if (!query.ok) return reply.code(400).send({ error: query.error });
    const csv = await exportWipesCsv(await deps.wipeGrid(), account.id, { filter: query.value.filter, order: query.value.sort }, csvMaxRows);
    if (!csv.ok) return reply.code(422).send({ error: csv.error, count: csv.count, max_rows: csv.max });
    const day = deps.clock.now().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="wipes-${day}.csv"`)
      .header('x-wipes-count', String(csv.count))
      .send(Readable.from(csv.chunks));
  });

  app.post('/app/api/wipes/push', { preHandler: requireSession }, async (request, reply) => {
    const { account } = sessionOf(request);
    const ids = (request.body as { ids?: unknown } | undefined)?.ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_PUSH_ROWS || !ids.every((id) => typeof id === 'string')) {
      return reply.code(422).send({ error: `ids must list between 1 and ${MAX_PUSH_ROWS} wipe ids` });
    }
    const target = await findPushIntegration(deps.db, account.id);
    if (!target) return reply.code(409).send({ error: 'no push integration is configured' });
    const rows = (await (await deps.wipeGrid()).byPublicIds(account.id, ids as string[])).map(toWipeView);
    if (rows.length === 0) return reply.code(404).send({ error: 'no such wipes' });
    const result = await pushWipes(
      { clock: deps.clock, post: deps.post },
      { url: target.url, secret: target.secret },
      { accountPublicId: account.publicId, rows },
    );
    if (result.ok) return result;
    // The user gets the category; the detail (errno, address, certificate names) stays here.
    request.log.warn({ error: result.detail, target: target.url }, 'wipe push failed');
    return reply.code(502).send({ ok: false, error: result.error, ...(result.status === undefined ? {} : { status: result.status }) });
  });

  app.get('/app/api/integrations/push', { preHandler: requireRole('admin') }, async (request) => {
    const target = await findPushIntegration(deps.db, sessionOf(request).account.id);
    return { configured: target !== undefined, url: target?.url ?? null, updated_at: target?.updated_at ?? null };
  });

  /** Saves URL and secret; a blank secret gets a fresh one, returned this once. */
  app.put('/app/api/integrations/push', { preHandler: requireRole('admin') }, async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; secret?: unknown };
    const url = checkPushUrl(body.url, deps.outbound);
    if (!url.ok) return reply.code(422).send({ error: url.error });
    const given = typeof body.secret === 'string' ? body.secret.trim() : '';
    if (given !== '' && (given.length < 16 || given.length > 256)) {
      return reply.code(422).send({ error: 'secret must be 16 to 256 characters (or blank to generate one)' });
    }
    const secret = given === '' ? newPushSecret() : given;
    await savePushIntegration(deps.db, { accountId: sessionOf(request).account.id, url: url.url, secret, now: deps.clock.now().toISOString() });
    return { configured: true, url: url.url, generated_secret: given === '' ? secret : null };
  });

  app.delete('/app/api/integrations/push', { preHandler: requireRole('admin') }, async (request) => {
    await deletePushIntegration(deps.db, sessionOf(request).account.id);
    return { configured: false };
  });
}
