import type { WipeGridReader } from '../../adapters/db/wipes-grid.js';
import { csvHeader, csvLine } from './csv.js';
import type { WipeFilter, WipeOrder } from './filter.js';
import { toWipeView } from './grid.js';

/** Rows one CSV holds unless the operator sets WIPES_CSV_MAX_ROWS. */
export const DEFAULT_CSV_MAX_ROWS = 1_000_000;

export type WipesCsv =
  | { ok: true; count: number; chunks: AsyncIterable<string> }
  | { ok: false; count: number; max: number; error: string };

/**
 * The CSV of every wipe that matches (issue 31 item 2), as text chunks to write out as they come:
 * the store hands the rows over a batch at a time, so memory stays flat however long the history.
 * Above `maxRows` nothing is exported and the answer says so, rather than a file that silently
 * stops short. Rows that arrive between the count and the read cannot push a file over the cap
 * either: the read stops one row past it and the stream fails, so the download visibly breaks.
 */
export async function exportWipesCsv(
  grid: WipeGridReader,
  accountId: number,
  request: { filter: WipeFilter; order: WipeOrder },
  maxRows: number,
): Promise<WipesCsv> {
  const count = await grid.count(accountId, request.filter);
  if (count > maxRows) {
    return {
      ok: false,
      count,
      max: maxRows,
      error: `${count} wipes match, and one CSV holds at most ${maxRows}. Narrow the filters (a date range, a customer) and export each part.`,
    };
  }
  async function* chunks(): AsyncGenerator<string> {
    yield csvHeader();
    let written = 0;
    for await (const batch of grid.each(accountId, request.filter, request.order, maxRows + 1)) {
      written += batch.length;
      if (written > maxRows) throw new Error(`more than ${maxRows} wipes matched while the CSV was written`);
      yield batch.map((row) => csvLine(toWipeView(row))).join('');
    }
  }
  return { ok: true, count, chunks: chunks() };
}
