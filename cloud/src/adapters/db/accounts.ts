import { newId } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'unpaid'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * SQL for "account is active", derived from its subscription; `@now` is an ISO timestamp.
 * past_due stays active: a failed card payment must not brick a technician mid-shift.
 */
export const ACCOUNT_ACTIVE_SQL = `(a.subscription_status IN ('trialing', 'active', 'past_due')
  AND (a.current_period_end IS NULL OR a.current_period_end > @now))`;

/** {@link ACCOUNT_ACTIVE_SQL} as a selected value: 1 or 0 on both stores (PostgreSQL would answer a boolean). */
export const ACCOUNT_ACTIVE_FLAG_SQL = `CASE WHEN ${ACCOUNT_ACTIVE_SQL} THEN 1 ELSE 0 END`;

export interface AccountRow {
  id: number;
  public_id: string;
  name: string;
  subscription_status: SubscriptionStatus;
  current_period_end: string | null;
  active: boolean;
  created_at: string;
}

/** `acct_…` or the numeric id, as the admin CLI and public API accept both. */
export async function findAccount(db: SqlRunner, ref: string, now: string): Promise<AccountRow | undefined> {
  const byNumeric = /^\d+$/.test(ref);
  const row = await db.one<Omit<AccountRow, 'active'> & { active: number }>(
    `SELECT a.id, a.public_id, a.name, a.subscription_status, a.current_period_end, a.created_at,
            ${ACCOUNT_ACTIVE_FLAG_SQL} AS active
       FROM accounts a WHERE ${byNumeric ? 'a.id = @ref' : 'a.public_id = @ref'}`,
    { ref: byNumeric ? Number(ref) : ref, now },
  );
  return row && { ...row, active: row.active === 1 };
}

export async function createAccount(
  db: SqlRunner,
  input: { name: string; subscriptionStatus: SubscriptionStatus; now: string },
): Promise<AccountRow> {
  const publicId = newId('acct');
  await db.run(
    `INSERT INTO accounts (public_id, name, subscription_status, created_at, updated_at)
     VALUES (@public_id, @name, @status, @now, @now)`,
    { public_id: publicId, name: input.name, status: input.subscriptionStatus, now: input.now },
  );
  return (await findAccount(db, publicId, input.now))!;
}

/** Moves the subscription to a state that makes the account active or not. */
export async function setSubscriptionStatus(
  db: SqlRunner,
  accountId: number,
  status: SubscriptionStatus,
  now: string,
): Promise<void> {
  await db.run(
    'UPDATE accounts SET subscription_status = @status, current_period_end = NULL, updated_at = @now WHERE id = @id',
    { status, now, id: accountId },
  );
}
