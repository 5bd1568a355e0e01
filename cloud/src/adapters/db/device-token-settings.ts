import type { StoredTokenTerms } from '../../domain/devices/token-terms.js';
import type { SqlRunner } from '../sql/database.js';

/** The account's chosen terms for tokens minted on /downloads, or undefined (defaults apply). */
export async function findDeviceTokenSettings(db: SqlRunner, accountId: number): Promise<StoredTokenTerms | undefined> {
  return db.one<StoredTokenTerms>('SELECT quota_limit, lifetime_days FROM device_token_settings WHERE account_id = @accountId', { accountId });
}

/** Creates or replaces the account's terms in one statement, recording which admin set them. */
export async function saveDeviceTokenSettings(
  db: SqlRunner,
  input: { accountId: number; quotaLimit: number | null; lifetimeDays: number; userId: number; now: string },
): Promise<void> {
  await db.run(
    `INSERT INTO device_token_settings (account_id, quota_limit, lifetime_days, updated_by_user_id, created_at, updated_at)
     VALUES (@account, @quota, @lifetime, @user, @now, @now)
     ON CONFLICT (account_id) DO UPDATE SET quota_limit = excluded.quota_limit, lifetime_days = excluded.lifetime_days,
       updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, quota: input.quotaLimit, lifetime: input.lifetimeDays, user: input.userId, now: input.now },
  );
}
