import { newId } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';
import { ACCOUNT_ACTIVE_SQL, type SubscriptionStatus } from './accounts.js';

/** An API key as listed: never the key itself, which is shown once at minting. */
export interface ApiKeyRow {
  id: number;
  public_id: string;
  account_id: number;
  name: string;
  key_prefix: string;
  created_by_email: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A live key joined with its account, as the public API authenticates it. */
export interface ApiKeyAuthRow {
  key_id: number;
  key_public_id: string;
  key_name: string;
  key_created_at: string;
  created_by_email: string | null;
  account_id: number;
  account_public_id: string;
  account_name: string;
  account_active: boolean;
  subscription_status: SubscriptionStatus;
  current_period_end: string | null;
  account_created_at: string;
}

const SELECT_KEY = `SELECT k.id, k.public_id, k.account_id, k.name, k.key_prefix, u.email AS created_by_email,
       k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k LEFT JOIN users u ON u.id = k.created_by_user_id`;

export async function insertApiKey(
  db: SqlRunner,
  input: { accountId: number; name: string; keyHash: string; keyPrefix: string; createdByUserId: number | null; now: string },
): Promise<ApiKeyRow> {
  const publicId = newId('key');
  await db.run(
    `INSERT INTO api_keys (public_id, account_id, name, key_hash, key_prefix, created_by_user_id, created_at)
     VALUES (@publicId, @accountId, @name, @keyHash, @keyPrefix, @createdByUserId, @now)`,
    {
      publicId,
      accountId: input.accountId,
      name: input.name,
      keyHash: input.keyHash,
      keyPrefix: input.keyPrefix,
      createdByUserId: input.createdByUserId,
      now: input.now,
    },
  );
  return (await findApiKey(db, publicId))!;
}

export async function findApiKey(db: SqlRunner, publicId: string): Promise<ApiKeyRow | undefined> {
  return db.one<ApiKeyRow>(`${SELECT_KEY} WHERE k.public_id = @publicId`, { publicId });
}

/** The account's keys, newest first, revoked ones included (they stay listed as revoked). */
export async function listApiKeys(db: SqlRunner, accountId: number): Promise<ApiKeyRow[]> {
  return db.many<ApiKeyRow>(`${SELECT_KEY} WHERE k.account_id = @accountId ORDER BY k.created_at DESC, k.id DESC`, { accountId });
}

/**
 * Revokes a key once: `revoked_at` keeps the first revocation. `accountId` scopes a revocation
 * from the web app to the admin's own account; the operator CLI passes undefined.
 */
export async function revokeApiKey(db: SqlRunner, publicId: string, now: string, accountId?: number): Promise<ApiKeyRow | undefined> {
  await db.run(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, @now)
      WHERE public_id = @id AND (CAST(@account AS BIGINT) IS NULL OR account_id = @account)`,
    { id: publicId, now, account: accountId ?? null },
  );
  const row = await findApiKey(db, publicId);
  return row && (accountId === undefined || row.account_id === accountId) ? row : undefined;
}

/** The unrevoked key with this hash; one indexed lookup per public API request. */
export async function findLiveApiKeyByHash(db: SqlRunner, keyHash: string, now: string): Promise<ApiKeyAuthRow | undefined> {
  // The flag is selected as 0/1 (not the bare comparison) so both stores answer a number.
  const row = await db.one<Omit<ApiKeyAuthRow, 'account_active'> & { account_active: number }>(
    `SELECT k.id AS key_id, k.public_id AS key_public_id, k.name AS key_name, k.created_at AS key_created_at,
            u.email AS created_by_email, a.id AS account_id, a.public_id AS account_public_id,
            a.name AS account_name, CASE WHEN ${ACCOUNT_ACTIVE_SQL} THEN 1 ELSE 0 END AS account_active, a.subscription_status,
            a.current_period_end, a.created_at AS account_created_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id LEFT JOIN users u ON u.id = k.created_by_user_id
      WHERE k.key_hash = @hash AND k.revoked_at IS NULL`,
    { hash: keyHash, now },
  );
  return row && { ...row, account_active: row.account_active === 1 };
}

export async function touchApiKey(db: SqlRunner, keyId: number, now: string): Promise<void> {
  await db.run('UPDATE api_keys SET last_used_at = @now WHERE id = @keyId', { now, keyId });
}
