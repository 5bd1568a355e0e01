import type { SqlRunner } from '../sql/database.js';
import type { MasterPasswordEntry, StoredMasterPasswords } from '../../domain/erasure-policy/ata-master-passwords.js';

/**
 * Where an account's ATA master passwords live (migration 019): one row per account, the entries
 * as JSON the domain checked. Read only by the web app's count view and the device policy route.
 */

export async function findMasterPasswords(db: SqlRunner, accountId: number): Promise<StoredMasterPasswords | undefined> {
  const row = await db.one<{ entries: string; factory_defaults: number }>('SELECT entries, factory_defaults FROM ata_master_passwords WHERE account_id = @accountId', { accountId });
  if (!row) return undefined;
  return { entries: JSON.parse(row.entries) as MasterPasswordEntry[], factoryDefaults: Number(row.factory_defaults) === 1 };
}

export async function saveMasterPasswords(db: SqlRunner, input: { accountId: number; value: StoredMasterPasswords; userId: number | null; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO ata_master_passwords (account_id, entries, factory_defaults, updated_by_user_id, updated_at)
     VALUES (@account, @entries, @factory, @user, @now)
     ON CONFLICT (account_id) DO UPDATE SET entries = excluded.entries, factory_defaults = excluded.factory_defaults,
       updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, entries: JSON.stringify(input.value.entries), factory: input.value.factoryDefaults ? 1 : 0, user: input.userId, now: input.now },
  );
}

/** "Remove all": the row goes, so the account has neither passwords nor factory defaults. */
export async function removeMasterPasswords(db: SqlRunner, accountId: number): Promise<void> {
  await db.run('DELETE FROM ata_master_passwords WHERE account_id = @accountId', { accountId });
}
