import { InternalFloorReportRequest, parseUnknown, type FloorReportAck } from '@erasure/shared';
import type * as FloorDb from '../../adapters/db/floor-machines.js';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import type { Clock } from '../clock.js';
import { refuse, type Refusal } from '../device/deps.js';
import { FLOOR_ROW_LIFETIME_MS } from './board.js';
import { trackProgress } from './stalls.js';
import type { SweepPacer } from './sweep.js';
import type { DeviceEvents } from '../device/events.js';

/** The repository functions a report needs, passed in. */
export type FloorReportStore = Pick<typeof FloorDb, 'storeFloorReport' | 'pruneFloorMachines' | 'readFloorProgress' | 'readFloorContext'>;

export const FLOOR_VIEW_OFF = 'the floor view is off on this deployment';

/**
 * A machine's live state for the floor view (issue 32), on its device token: stored as the
 * machine's row (a newer report of its boot, or a new boot, replaces it; an older one is ignored,
 * `stored: false`). Every so often (see sweep.ts) rows last heard a day ago are removed here too. With the floor view
 * off, 404: the agent stops sending for the rest of its boot.
 */
export async function receiveFloorReport(
  deps: { db: SqlRunner; clock: Clock; enabled: boolean; store: FloorReportStore; sweep?: SweepPacer | undefined; events?: DeviceEvents | undefined },
  token: TokenRow,
  body: Record<string, unknown>,
): Promise<{ ok: true; ack: FloorReportAck } | Refusal> {
  if (!deps.enabled) return refuse(404, FLOOR_VIEW_OFF);
  const parsed = parseUnknown(InternalFloorReportRequest, body);
  if (!parsed.ok) return refuse(422, `invalid floor report at ${parsed.path}: ${parsed.message}`);
  const { jti: _jti, account_id: _account, ...report } = parsed.value;
  const devices = new Set(report.drives.map((d) => d.device));
  if (devices.size !== report.drives.length) return refuse(422, 'invalid floor report at /drives: a device is listed twice');
  const now = deps.clock.now();
  // Stalls: a drive's stall clock runs across the reports of one boot.
  const { stallSeconds, site } = await deps.store.readFloorContext(deps.db, token.account_id, token.id);
  const held = await deps.store.readFloorProgress(deps.db, token.account_id, report.machine_id);
  const { marks, stalled } = trackProgress(held?.boot_id === report.boot_id ? held.progress : {}, report.drives, now, stallSeconds);
  const stored = await deps.store.storeFloorReport(deps.db, { accountId: token.account_id, tokenId: token.id, report, receivedAt: now.toISOString(), progress: marks });
  if (stored) {
    for (const { drive, since } of stalled) {
      await deps.events?.emit(deps.db, { type: 'drive_stalled', token, facts: { machineId: report.machine_id, machineName: report.name ?? null, site: report.site ?? site, drive, since } });
    }
  }
  if (deps.sweep?.due(now.getTime())) await deps.store.pruneFloorMachines(deps.db, new Date(now.getTime() - FLOOR_ROW_LIFETIME_MS).toISOString());
  return { ok: true, ack: { ok: true, stored } };
}
