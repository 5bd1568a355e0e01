import { newId } from '@erasure/shared';
import { prepared, type ReadonlyDb, type WritableDb } from './open.js';

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'unpaid'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * SQL for "account is active", derived from its subscription; `@now` is an ISO timestamp.
 * past_due stays active: a failed card payment must not brick a technician mid-shift.
 */
export const ACCOUNT_ACTIVE_SQL = `(a.subscription_status IN ('trialing', 'active', 'past_due')
  AND (a.current_period_end IS NULL OR a.current_period_end > @now))`;

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
export function findAccount(db: ReadonlyDb, ref: string, now: string): AccountRow | undefined {
  const byNumeric = /^\d+$/.test(ref);
  const row = prepared(
      db,
      `SELECT a.id, a.public_id, a.name, a.subscription_status, a.current_period_end, a.created_at,
              ${ACCOUNT_ACTIVE_SQL} AS active
         FROM accounts a WHERE ${byNumeric ? 'a.id = @ref' : 'a.public_id = @ref'}`,
    )
    .get({ ref: byNumeric ? Number(ref) : ref, now }) as (Omit<AccountRow, 'active'> & { active: number }) | undefined;
  return row && { ...row, active: row.active === 1 };
}

export function createAccount(
  db: WritableDb,
  input: { name: string; subscriptionStatus: SubscriptionStatus; now: string },
): AccountRow {
  const publicId = newId('acct');
  prepared(
    db,
    `INSERT INTO accounts (public_id, name, subscription_status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(publicId, input.name, input.subscriptionStatus, input.now, input.now);
  return findAccount(db, publicId, input.now)!;
}

/** Moves the subscription to a state that makes the account active or not. */
export function setSubscriptionStatus(
  db: WritableDb,
  accountId: number,
  status: SubscriptionStatus,
  now: string,
): void {
  prepared(
    db,
    `UPDATE accounts SET subscription_status = ?, current_period_end = NULL, updated_at = ? WHERE id = ?`,
  ).run(status, now, accountId);
}
