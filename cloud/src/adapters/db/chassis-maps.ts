import { newId, type Bay, type ChassisMap } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

/** Stores (or replaces) the account's map for one chassis, keyed by its hardware_uid. */
export async function saveChassisMap(
  db: SqlRunner,
  input: { accountId: number; assetId: number; hardwareUid: string; name: string; site?: string | undefined; bays: Bay[]; now: string },
): Promise<{ public_id: string }> {
  const row = await db.one<{ public_id: string }>(
    `INSERT INTO chassis_maps (public_id, account_id, asset_id, hardware_uid, name, site, bays, created_at, updated_at)
     VALUES (@public_id, @account_id, @asset_id, @hardware_uid, @name, @site, @bays, @now, @now)
     ON CONFLICT (account_id, hardware_uid) DO UPDATE SET
       asset_id = excluded.asset_id, name = excluded.name, site = excluded.site, bays = excluded.bays, updated_at = excluded.updated_at
     RETURNING public_id`,
    {
      public_id: newId('cmap'),
      account_id: input.accountId,
      asset_id: input.assetId,
      hardware_uid: input.hardwareUid,
      name: input.name,
      site: input.site ?? null,
      bays: JSON.stringify(input.bays),
      now: input.now,
    },
  );
  return row!;
}

/** The map of this chassis in this account only: lookups never cross accounts. */
export async function findChassisMap(db: SqlRunner, accountId: number, hardwareUid: string): Promise<ChassisMap | undefined> {
  const row = await db.one<{ name: string; site: string | null; bays: string }>(
    'SELECT name, site, bays FROM chassis_maps WHERE account_id = @account_id AND hardware_uid = @hardware_uid',
    { account_id: accountId, hardware_uid: hardwareUid },
  );
  return row && { name: row.name, ...(row.site ? { site: row.site } : {}), bays: JSON.parse(row.bays) as Bay[] };
}

/** The bay map saved for a chassis asset (the station's own machine), with when it was last saved. */
export async function findChassisMapOfAsset(
  db: SqlRunner,
  accountId: number,
  assetPublicId: string,
): Promise<(ChassisMap & { id: string; updated_at: string }) | undefined> {
  const row = await db.one<{ public_id: string; name: string; bays: string; updated_at: string }>(
    `SELECT m.public_id, m.name, m.bays, m.updated_at FROM chassis_maps m JOIN assets a ON a.id = m.asset_id
     WHERE a.public_id = @asset_public_id AND m.account_id = @account_id ORDER BY m.updated_at DESC LIMIT 1`,
    { asset_public_id: assetPublicId, account_id: accountId },
  );
  return row && { id: row.public_id, name: row.name, bays: JSON.parse(row.bays) as Bay[], updated_at: row.updated_at };
}
