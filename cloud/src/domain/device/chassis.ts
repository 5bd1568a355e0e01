import { CHASSIS_SITE_MAX, ERRORS, hardwareUid, meaningfulDmi, meaningfulUuid, type InternalChassisLookupResult } from '@erasure/shared';
import { isoNow } from '../clock.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { usableBays } from '../chassis/bays.js';
import { readBootReport, recordBoot } from './assets.js';
import { refuse, type DeviceDeps, type Refusal } from './deps.js';

/**
 * Saves a hotswap station's bay map (spec 4.2, rule 6): the chassis asset is upserted first,
 * then the map is stored against it, keyed to the chassis by DMI UUID + serial; both in the
 * call's transaction.
 */
export async function saveChassis(
  deps: DeviceDeps,
  token: TokenRow,
  body: Record<string, unknown>,
): Promise<{ ok: true; chassisMapId: string; assetId: string } | Refusal> {
  const report = readBootReport(body);
  if (!report.ok) return report;
  const map = typeof body.map === 'object' && body.map !== null ? (body.map as Record<string, unknown>) : {};
  const bays = usableBays(Array.isArray(map.bays) ? map.bays : undefined);
  if (bays.length === 0) return refuse(422, ERRORS.noUsableBays);
  const name = typeof map.name === 'string' && map.name.trim() !== '' ? map.name.trim().slice(0, 200) : 'Chassis';
  // Where the station stands, when the wizard's naming step gave one (issue 32, the floor view).
  const site = typeof map.site === 'string' && map.site.trim() !== '' ? map.site.trim().slice(0, CHASSIS_SITE_MAX) : undefined;
  const asset = await recordBoot(deps, token, report);
  const saved = await deps.store.saveChassisMap(deps.db, {
    accountId: token.account_id,
    assetId: asset.assetId,
    hardwareUid: hardwareUid(report.fingerprint.system, report.recordId),
    name,
    site,
    bays,
    now: isoNow(deps.clock),
  });
  return { ok: true, chassisMapId: saved.public_id, assetId: asset.assetPublicId };
}

/** The account's map for this chassis; a chassis without DMI identity can have none. */
export async function lookupChassis(deps: DeviceDeps, token: TokenRow, body: Record<string, unknown>): Promise<InternalChassisLookupResult> {
  const system = typeof body.system === 'object' && body.system !== null ? (body.system as Record<string, unknown>) : {};
  if (!meaningfulUuid(system.uuid) && !meaningfulDmi(system.serial)) return { found: false };
  const map = await deps.store.findChassisMap(deps.db, token.account_id, hardwareUid(system, ''));
  return map ? { found: true, map } : { found: false };
}
