import type { FloorBoard } from '@erasure/shared';
import type * as FloorDb from '../../adapters/db/floor-machines.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { Clock } from '../clock.js';
import { buildFloorBoard, FLOOR_ROW_LIFETIME_MS } from './board.js';

/** The account's floor board as it stands: its machines heard within a day, and the results that end their drives. */
/** The repository functions the board reads with, passed in. */
export type FloorBoardStore = Pick<typeof FloorDb, 'readFloorMachines' | 'readFloorResults'>;

export async function readFloorBoard(deps: { db: SqlRunner; clock: Clock; store: FloorBoardStore }, accountId: number): Promise<FloorBoard> {
  const now = deps.clock.now();
  const machines = await deps.store.readFloorMachines(deps.db, accountId, new Date(now.getTime() - FLOOR_ROW_LIFETIME_MS).toISOString());
  const since = machines.reduce((earliest, m) => (m.boot_seen_at < earliest ? m.boot_seen_at : earliest), now.toISOString());
  const results = await deps.store.readFloorResults(deps.db, accountId, [...new Set(machines.map((m) => m.token_id))], since);
  return buildFloorBoard({ machines, results, now });
}
