import type { WipeJobDetails } from '../../domain/webhooks/payloads.js';
import type { SqlRunner } from '../sql/database.js';

/** Job details as stored on an asset; null: none given, the token's default applies. */
export interface JobDetails {
  customer: string | null;
  lot_reference: string | null;
  asset_tag: string | null;
}

/** The account's customers and lots, and whether the kiosk may type others (issue 31 item 6). */
export interface AccountJobChoices {
  freeEntry: boolean;
  customers: string[];
  lots: string[];
}

// Where an account's customers and lots are named: its device tokens, its validation lots, and
// the job details its wipes already carry.
const NAMED = (column: 'customer' | 'lot_reference') => `
  SELECT ${column} AS value FROM license_tokens WHERE account_id = @account AND ${column} IS NOT NULL AND ${column} <> ''
  UNION SELECT ${column} FROM validation_lots WHERE account_id = @account AND ${column} <> ''
  UNION SELECT ${column} FROM wipe_results WHERE account_id = @account AND ${column} IS NOT NULL AND ${column} <> ''`;

export async function findAccountJobChoices(db: SqlRunner, accountId: number): Promise<AccountJobChoices> {
  const account = await db.one<{ free: number }>('SELECT job_details_free_entry AS free FROM accounts WHERE id = @account', { account: accountId });
  const values = async (column: 'customer' | 'lot_reference') =>
    (await db.many<{ value: string }>(`SELECT value FROM (${NAMED(column)}) AS named ORDER BY value LIMIT 1000`, { account: accountId })).map((r) => r.value);
  // No account row reads as free entry off: fail closed.
  return { freeEntry: account?.free === 1, customers: await values('customer'), lots: await values('lot_reference') };
}

export async function setAccountFreeEntry(db: SqlRunner, accountId: number, freeEntry: boolean): Promise<void> {
  await db.run('UPDATE accounts SET job_details_free_entry = @free WHERE id = @account', { free: freeEntry ? 1 : 0, account: accountId });
}

/**
 * Puts the kiosk's job details on the asset. A customer or lot not given falls back to the
 * sending token's (as a boot report sets them), so clearing a field restores the default.
 */
export async function setAssetJobDetails(db: SqlRunner, asset: { id: number; tokenId: number }, details: JobDetails, now: string): Promise<JobDetails> {
  const row = await db.one<JobDetails>(
    `UPDATE assets SET
       customer = COALESCE(CAST(@customer AS TEXT), (SELECT t.customer FROM license_tokens t WHERE t.id = @token)),
       lot_reference = COALESCE(CAST(@lot AS TEXT), (SELECT t.lot_reference FROM license_tokens t WHERE t.id = @token)),
       job_asset_tag = @tag,
       updated_at = @now
     WHERE id = @id
     RETURNING customer, lot_reference, job_asset_tag AS asset_tag`,
    { id: asset.id, token: asset.tokenId, customer: details.customer, lot: details.lot_reference, tag: details.asset_tag, now },
  );
  return row ?? { customer: null, lot_reference: null, asset_tag: null };
}

/**
 * Job details for one drive of the record (a station bay's), beside the record's own. A field not
 * given is null: the record's applies to that drive. One statement: stored whole or not at all.
 * Answers what the drive's wipe result will carry, the record's where the drive has none.
 */
export async function setDriveJobDetails(db: SqlRunner, asset: { id: number }, driveSerial: string, details: JobDetails, now: string): Promise<JobDetails> {
  await db.run(
    `INSERT INTO drive_job_details (asset_id, drive_serial, customer, lot_reference, asset_tag, updated_at)
     VALUES (@id, @serial, @customer, @lot, @tag, @now)
     ON CONFLICT (asset_id, drive_serial) DO UPDATE SET
       customer = excluded.customer, lot_reference = excluded.lot_reference, asset_tag = excluded.asset_tag, updated_at = excluded.updated_at`,
    { id: asset.id, serial: driveSerial, customer: details.customer, lot: details.lot_reference, tag: details.asset_tag, now },
  );
  const row = await db.one<JobDetails>(
    `SELECT COALESCE(d.customer, a.customer) AS customer, COALESCE(d.lot_reference, a.lot_reference) AS lot_reference,
            COALESCE(d.asset_tag, a.job_asset_tag) AS asset_tag
       FROM drive_job_details d JOIN assets a ON a.id = d.asset_id WHERE d.asset_id = @id AND d.drive_serial = @serial`,
    { id: asset.id, serial: driveSerial },
  );
  return row ?? { customer: null, lot_reference: null, asset_tag: null };
}

const DRIVE_COLUMN = { customer: 'customer', lot_reference: 'lot_reference', job_asset_tag: 'asset_tag' } as const;

/**
 * A wipe result's job details, by the record and drive serial it names: the drive's own (set for
 * its station bay) first, else the record's asset's, as one scalar expression each inside the wipe
 * result's INSERT (so they are stored in its statement, or not at all). `@account_id`,
 * `@record_id` and `@drive_serial` are the INSERT's parameters.
 */
export const WIPE_JOB_DETAIL_SQL = (column: 'customer' | 'lot_reference' | 'job_asset_tag') =>
  `COALESCE(
     (SELECT d.${DRIVE_COLUMN[column]} FROM drive_job_details d JOIN assets a ON a.id = d.asset_id
       WHERE a.account_id = @account_id AND a.record_id = CAST(@record_id AS TEXT) AND d.drive_serial = CAST(@drive_serial AS TEXT)
       ORDER BY a.last_booted_at DESC, a.id DESC LIMIT 1),
     (SELECT a.${column} FROM assets a WHERE a.account_id = @account_id AND a.record_id = CAST(@record_id AS TEXT)
       ORDER BY a.last_booted_at DESC, a.id DESC LIMIT 1))`;

/**
 * A stored wipe's job details as readers show them: the wipe's own, else its token's customer and
 * lot (the default); the asset tag is the wipe's only. Columns for a SELECT joining `wipe_results w`
 * and `license_tokens t`; `wipeJobDetailsOf` reads them back.
 */
export const WIPE_JOB_DETAIL_COLUMNS =
  'COALESCE(w.customer, t.customer) AS job_customer, COALESCE(w.lot_reference, t.lot_reference) AS job_lot_reference, w.asset_tag AS job_asset_tag';

export const wipeJobDetailsOf = (row: Record<string, unknown>): WipeJobDetails => ({
  customer: (row.job_customer as string | null) ?? null,
  lotReference: (row.job_lot_reference as string | null) ?? null,
  assetTag: (row.job_asset_tag as string | null) ?? null,
});

/** One wipe's job details (the sandbox builds its payloads from its own reads). */
export async function readWipeJobDetails(db: SqlRunner, wipeResultId: number): Promise<WipeJobDetails> {
  const row = await db.one<Record<string, unknown>>(
    `SELECT ${WIPE_JOB_DETAIL_COLUMNS} FROM wipe_results w JOIN license_tokens t ON t.id = w.token_id WHERE w.id = @id`,
    { id: wipeResultId },
  );
  return wipeJobDetailsOf(row ?? {});
}
