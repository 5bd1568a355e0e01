import { newId, type Bay, type ChassisMap } from '@erasure/shared';
import { prepared, type ReadonlyDb, type WritableDb } from './open.js';

/** Stores (or replaces) the account's map for one chassis, keyed by its hardware_uid. */
export function saveChassisMap(
  db: WritableDb,
  input: { accountId: number; assetId: number; hardwareUid: string; name: string; bays: Bay[]; now: string },
): { public_id: string } {
  return prepared(
      db,
      `INSERT INTO chassis_maps (public_id, account_id, asset_id, hardware_uid, name, bays, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, hardware_uid) DO UPDATE SET
         asset_id = excluded.asset_id, name = excluded.name, bays = excluded.bays, updated_at = excluded.updated_at
       RETURNING public_id`,
    )
    .get(newId('cmap'), input.accountId, input.assetId, input.hardwareUid, input.name, JSON.stringify(input.bays), input.now, input.now) as {
    public_id: string;
  };
}

/** The map of this chassis in this account only: lookups never cross accounts. */
export function findChassisMap(db: ReadonlyDb, accountId: number, hardwareUid: string): ChassisMap | undefined {
  const lookup = prepared(db, 'SELECT name, bays FROM chassis_maps WHERE account_id = ? AND hardware_uid = ?');
  const row = lookup.get(accountId, hardwareUid) as { name: string; bays: string } | undefined;
  return row && { name: row.name, bays: JSON.parse(row.bays) as Bay[] };
}

/** The bay map saved for a chassis asset (the station's own machine), with when it was last saved. */
export function findChassisMapOfAsset(db: ReadonlyDb, accountId: number, assetPublicId: string): (ChassisMap & { id: string; updated_at: string }) | undefined {
  const row = prepared(
    db,
    `SELECT m.public_id, m.name, m.bays, m.updated_at FROM chassis_maps m JOIN assets a ON a.id = m.asset_id
     WHERE a.public_id = ? AND m.account_id = ? ORDER BY m.updated_at DESC LIMIT 1`,
  ).get(assetPublicId, accountId) as { public_id: string; name: string; bays: string; updated_at: string } | undefined;
  return row && { id: row.public_id, name: row.name, bays: JSON.parse(row.bays) as Bay[], updated_at: row.updated_at };
}
