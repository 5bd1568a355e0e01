import type { HealthGradingGranted, WireHealthRule } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';

/**
 * Where an account's health grade rule table lives (migration 020): one row per account, the
 * rules as JSON the domain checked. Read by the web app and by the device policy route.
 */

export async function findHealthGrading(db: SqlRunner, accountId: number): Promise<HealthGradingGranted | undefined> {
  const row = await db.one<{ rules: string; smart_self_test: number }>('SELECT rules, smart_self_test FROM health_gradings WHERE account_id = @accountId', { accountId });
  if (!row) return undefined;
  return { rules: JSON.parse(row.rules) as WireHealthRule[], smart_self_test: Number(row.smart_self_test) === 1 };
}

export async function saveHealthGrading(db: SqlRunner, input: { accountId: number; value: HealthGradingGranted; userId: number | null; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO health_gradings (account_id, rules, smart_self_test, updated_by_user_id, updated_at)
     VALUES (@account, @rules, @selfTest, @user, @now)
     ON CONFLICT (account_id) DO UPDATE SET rules = excluded.rules, smart_self_test = excluded.smart_self_test,
       updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, rules: JSON.stringify(input.value.rules), selfTest: input.value.smart_self_test ? 1 : 0, user: input.userId, now: input.now },
  );
}

/** "Reset to default": the row goes, so the account's devices grade by the documented default table. */
export async function removeHealthGrading(db: SqlRunner, accountId: number): Promise<void> {
  await db.run('DELETE FROM health_gradings WHERE account_id = @accountId', { accountId });
}
