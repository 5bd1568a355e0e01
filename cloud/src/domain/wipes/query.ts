import type { WipeGridReader } from '../../adapters/db/wipes-grid.js';
import type { WipeFilter, WipeOrder } from './filter.js';
import { toWipeView, type WipeView } from './grid.js';

/** One page of the wipes that match, and how many match across the whole history. */
export interface WipesPage {
  rows: WipeView[];
  page: number;
  pages: number;
  count: number;
}

/**
 * The wipes grid on the server (issue 31 item 1): the store filters, sorts, counts and pages the
 * account's whole history; the rows come back derived as the grid shows them. A page past the
 * last is empty, with the real count and page total, so a client can go back.
 */
export async function findWipes(
  grid: WipeGridReader,
  accountId: number,
  request: { filter: WipeFilter; order: WipeOrder; page: number },
  pageSize: number,
): Promise<WipesPage> {
  const { rows, count } = await grid.search(accountId, request.filter, request.order, pageSize, (request.page - 1) * pageSize);
  return { rows: rows.map(toWipeView), page: request.page, pages: Math.max(1, Math.ceil(count / pageSize)), count };
}
