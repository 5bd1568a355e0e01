import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { createLotExport, findLotExport, type LotExportRow } from '../../adapters/db/lot-exports.js';
import type { WipeGridReader } from '../../adapters/db/wipes-grid.js';
import type { ObjectStore } from '../../adapters/objects/local-store.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { parseWipesQuery } from '../../domain/wipes/filter.js';
import { requireSession, sessionOf } from '../session.js';
import { MAX_LOT_DRIVES } from './app-certificate-lots.js';
import { rowsOfIds } from '../../jobs/lot-parts.js';

/**
 * Most drives in one background export: the ZIP streams (its bound is the id list the export
 * keeps), the lot certificate holds its certificates' PDFs while it is signed.
 */
export const LOT_EXPORT_MAX_DRIVES = { zip: 100_000, pdf: 5_000 } as const;
const WIPE_ID = /^wr_[A-Za-z0-9]{1,64}$/;
const EXPORT_ID = /^lotexp_[a-f0-9]{20}$/;

export interface LotExportRouteDeps {
  db: SqlDatabase;
  clock: Clock;
  store: ObjectStore;
  wipeGrid: () => Promise<WipeGridReader>;
  /** Without a PDF signer a lot certificate is not made (503), as in the request. */
  canSignPdf: boolean;
}

/** What the page polls: status, progress, and the link once the file is made and not expired. */
export function lotExportView(row: LotExportRow, now: Date) {
  const expired = row.status === 'done' && (row.expires_at === null || Date.parse(row.expires_at) <= now.getTime());
  return {
    id: row.public_id,
    format: row.format,
    status: expired ? ('expired' as const) : row.status,
    done: row.done,
    total: row.total,
    created_at: row.created_at,
    expires_at: row.expires_at,
    download_url: row.status === 'done' && !expired ? `/app/api/lot-exports/${row.public_id}/download` : null,
    error: row.status === 'failed' ? row.error : null,
  };
}

type Selection = { ok: true; ids: string[] } | { ok: false; code: number; body: Record<string, unknown> };

/** The wipes named (`ids`, the grid's order) or matched by the grid's filters (`filters`, its sort). */
async function selectionOf(body: Record<string, unknown>, accountId: number, grid: WipeGridReader, max: number): Promise<Selection> {
  if (Array.isArray(body.ids)) {
    const ids = [...new Set(body.ids.map((id) => (typeof id === 'string' ? id.trim() : '')))];
    const bad = ids.find((id) => !WIPE_ID.test(id));
    if (bad !== undefined) return { ok: false, code: 422, body: { error: `not a wipe id: ${bad.slice(0, 80) || '(empty)'}` } };
    if (ids.length > max) return { ok: false, code: 422, body: { error: `at most ${max} wipes in one export`, count: ids.length, max } };
    // Unknown ids are left out like another account's, so the answer never tells them apart.
    const found = (await rowsOfIds(grid, accountId, ids)).map((row) => row.public_id);
    if (found.length === 0) return { ok: false, code: 404, body: { error: 'none of these wipes exist in this account' } };
    return { ok: true, ids: found };
  }
  if (body.filters === undefined || (typeof body.filters === 'object' && body.filters !== null && !Array.isArray(body.filters))) {
    const query = parseWipesQuery(body.filters ?? {});
    if (!query.ok) return { ok: false, code: 422, body: { error: query.error } };
    const count = await grid.count(accountId, query.value.filter);
    if (count > max) return { ok: false, code: 422, body: { error: `${count} wipes match; one export holds at most ${max}. Narrow the filters.`, count, max } };
    const ids: string[] = [];
    for await (const batch of grid.each(accountId, query.value.filter, query.value.sort, max)) ids.push(...batch.map((row) => row.public_id));
    return { ok: true, ids };
  }
  return { ok: false, code: 422, body: { error: 'give ids (an array of wipe ids) or filters (the grid\u2019s filters as an object)' } };
}

/**
 * Background lot exports (issue 31 item 2): a lot ZIP or lot certificate of more drives than one
 * request serves (above MAX_LOT_DRIVES), made by the `lot_export` job. Only the signed-in
 * account's exports; another account's answer 404 like an unknown one.
 */
export function registerLotExports(app: FastifyInstance, deps: LotExportRouteDeps): void {
  app.post('/app/api/lot-exports', { preHandler: requireSession }, async (request, reply) => {
    const { account } = sessionOf(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) return reply.code(422).send({ error: 'the body must be a JSON object' });
    const format = body.format;
    if (format !== 'zip' && format !== 'pdf') return reply.code(422).send({ error: 'format must be zip or pdf' });
    if (format === 'pdf' && !deps.canSignPdf) return reply.code(503).send({ error: 'lot certificates are not available: no PDF signer is configured' });
    const selection = await selectionOf(body, account.id, await deps.wipeGrid(), LOT_EXPORT_MAX_DRIVES[format]);
    if (!selection.ok) return reply.code(selection.code).send(selection.body);
    if (selection.ids.length === 0) return reply.code(404).send({ error: 'no wipes match' });
    const now = deps.clock.now();
    const publicId = `lotexp_${randomBytes(10).toString('hex')}`;
    const row = await deps.db.transaction((tx) => createLotExport(tx, { publicId, accountId: account.id, format, wipeIds: selection.ids, now: now.toISOString() }));
    return reply.code(202).header('location', `/app/api/lot-exports/${publicId}`).send({ ...lotExportView(row, now), in_request_max: MAX_LOT_DRIVES });
  });

  const ownExport = async (request: { params: unknown }, accountId: number) => {
    const id = (request.params as { id: string }).id;
    if (!EXPORT_ID.test(id)) return undefined;
    const row = await findLotExport(deps.db, id);
    return row && row.account_id === accountId ? row : undefined;
  };

  app.get('/app/api/lot-exports/:id', { preHandler: requireSession }, async (request, reply) => {
    const row = await ownExport(request, sessionOf(request).account.id);
    if (!row) return reply.code(404).send({ error: 'lot export not found' });
    return reply.header('cache-control', 'no-store').send(lotExportView(row, deps.clock.now()));
  });

  app.get('/app/api/lot-exports/:id/download', { preHandler: requireSession }, async (request, reply) => {
    const row = await ownExport(request, sessionOf(request).account.id);
    if (!row) return reply.code(404).send({ error: 'lot export not found' });
    const view = lotExportView(row, deps.clock.now());
    if (view.status === 'expired') return reply.code(410).send({ error: 'this download has expired; ask for the lot again', expires_at: row.expires_at });
    if (row.status !== 'done' || !row.object_key) return reply.code(409).send({ ...view, error: 'the lot is not ready yet' });
    const stream = deps.store.readStream ? await deps.store.readStream(row.object_key) : undefined;
    const bytes = stream ? undefined : await deps.store.get(row.object_key);
    if (!stream && !bytes) return reply.code(410).send({ error: 'this download is no longer stored; ask for the lot again' });
    return reply
      .header('content-type', row.format === 'pdf' ? 'application/pdf' : 'application/zip')
      .header('content-disposition', `attachment; filename="certificates-${row.created_at.slice(0, 10)}.${row.format}"`)
      .header('cache-control', 'no-store')
      .send(stream ? (stream as unknown as Readable) : Buffer.from(bytes!));
  });
}
