import type { SqlRunner } from '../sql/database.js';

/**
 * Where erasure policies live (migration 016): one per account (`erasure_policies`) and,
 * optionally, one per device token (`license_tokens.erasure_policy`). Both hold the policy's
 * JSON text exactly as the domain checked it; reading it back is the domain's job
 * (domain/erasure-policy/policy.ts), so this module never decides what a policy means.
 */

/** The account's stored policy JSON, or undefined when its admins never set one. */
export async function findAccountPolicyJson(db: SqlRunner, accountId: number): Promise<string | undefined> {
  return (await db.one<{ policy: string }>('SELECT policy FROM erasure_policies WHERE account_id = @accountId', { accountId }))?.policy;
}

/** Creates or replaces the account's policy in one statement, recording which admin set it. */
export async function saveAccountPolicyJson(db: SqlRunner, input: { accountId: number; policyJson: string; userId: number | null; now: string }): Promise<void> {
  await db.run(
    `INSERT INTO erasure_policies (account_id, policy, updated_by_user_id, created_at, updated_at)
     VALUES (@account, @policy, @user, @now, @now)
     ON CONFLICT (account_id) DO UPDATE SET policy = excluded.policy,
       updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    { account: input.accountId, policy: input.policyJson, user: input.userId, now: input.now },
  );
}

/** A token's own policy JSON (null: it follows its account) and its account, or undefined when unknown. */
export async function findTokenPolicyJson(db: SqlRunner, jti: string): Promise<{ account_id: number; erasure_policy: string | null } | undefined> {
  return db.one<{ account_id: number; erasure_policy: string | null }>('SELECT account_id, erasure_policy FROM license_tokens WHERE jti = @jti', { jti });
}

/** Sets (or with null clears) a token's own policy; false when no such token exists. */
export async function saveTokenPolicyJson(db: SqlRunner, input: { jti: string; policyJson: string | null; now: string }): Promise<boolean> {
  const changes = await db.run('UPDATE license_tokens SET erasure_policy = @policy, updated_at = @now WHERE jti = @jti', {
    jti: input.jti,
    policy: input.policyJson,
    now: input.now,
  });
  return changes === 1;
}
