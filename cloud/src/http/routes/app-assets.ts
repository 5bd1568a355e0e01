import { findChassisMapOfAsset } from '../../adapters/db/chassis-maps.js';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_API_ERRORS } from '@erasure/shared';
import { findAssetDetail, listAssetSummaries } from '../../adapters/db/asset-reads.js';
import { listAssetTestRuns } from '../../adapters/db/assets.js';
import { latestTestResults } from '../../domain/assets/test-history.js';
import type { WipeGridReader, WipeGridRow } from '../../adapters/db/wipes-grid.js';
import { toWipeView } from '../../domain/wipes/grid.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import { pageEnvelope, parsePage } from '../../domain/public-api/query.js';
import { toAssetDetail, toAssetSummary } from '../../domain/public-api/summary.js';
import { requireSession, sessionOf } from '../session.js';

export const ASSETS_PAGE_SIZE = 50;

/**
 * JSON behind `/assets` and `/assets/:id`: the public summaries, searched server-side. `wipeGrid`
 * is the app's grid reader (`wipeGridReaderOnce`).
 */
export function registerAppAssets(app: FastifyInstance, deps: { db: SqlDatabase; wipeGrid: () => Promise<WipeGridReader> }): void {
  app.get('/app/api/assets', { preHandler: requireSession }, async (request) => {
    const { account } = sessionOf(request);
    const query = request.query as { page?: unknown; q?: unknown };
    const parsed = parsePage(typeof query.page === 'string' ? query.page : undefined);
    const page = parsed.ok ? parsed.value : 1;
    const search = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : '';
    const { rows, count } = await listAssetSummaries(
      deps.db,
      { accountId: account.id, search },
      { limit: ASSETS_PAGE_SIZE, offset: (page - 1) * ASSETS_PAGE_SIZE },
    );
    return { assets: rows.map((row) => toAssetSummary(row, account.publicId)), ...pageEnvelope(page, count, ASSETS_PAGE_SIZE) };
  });

  app.get('/app/api/assets/:id', { preHandler: requireSession }, async (request, reply) => {
    const { account } = sessionOf(request);
    const row = await findAssetDetail(deps.db, account.id, (request.params as { id: string }).id);
    if (!row) return reply.code(404).send({ error: PUBLIC_API_ERRORS.assetNotFound });
    // The web app adds to the public asset shape the bay map of a station's chassis and the
    // wipes of the machine's drives (as the wipes grid shows them, certificates included).
    // A station's chassis also lists the wipes done in its bays: its map's name is what they carry.
    const grid = await deps.wipeGrid();
    const chassisMap = (await findChassisMapOfAsset(deps.db, account.id, row.public_id)) ?? null;
    const wipes = newestFirst([...(await grid.byAsset(account.id, row.public_id)), ...(chassisMap ? await grid.byChassisMap(account.id, chassisMap.name) : [])]).map(toWipeView);
    // Who the machine was processed for (issue 23): the reporting token's customer and lot, or
    // the kiosk's job details with the technician's asset tag (issue 31 item 6).
    const processing = (await deps.db.one<{ customer: string | null; lot_reference: string | null; job_asset_tag: string | null }>(
      'SELECT customer, lot_reference, job_asset_tag FROM assets WHERE public_id = @id AND account_id = @account',
      { id: row.public_id, account: account.id },
    )) ?? { customer: null, lot_reference: null, job_asset_tag: null };
    // Hardware tests across boots (issue 28, item 14): the latest result of each, and every boot's snapshot.
    const testRuns = await listAssetTestRuns(deps.db, row.id);
    return {
      ...toAssetDetail(row, account.publicId),
      chassis_map: chassisMap,
      wipes,
      ...processing,
      tests_latest: latestTestResults(testRuns),
      tests_history: testRuns,
    };
  });
}

/** One row per wipe (a drive that sat in a bay at boot is both the chassis's and a bay's), newest first. */
function newestFirst(rows: WipeGridRow[]): WipeGridRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...byId.values()].sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1));
}
