import type { SqlRunner } from '../sql/database.js';
import { ACCOUNT_ACTIVE_SQL, type SubscriptionStatus } from './accounts.js';
import type { Role } from './users.js';

/** A live session joined with its user and account: everything a signed-in request needs. */
export interface SessionRow {
  session_id: number;
  csrf_token: string;
  expires_at: string;
  user_id: number;
  user_public_id: string;
  email: string;
  role: Role;
  account_id: number;
  account_public_id: string;
  account_name: string;
  account_active: boolean;
  subscription_status: SubscriptionStatus;
  current_period_end: string | null;
}

export async function createSession(
  db: SqlRunner,
  input: { tokenHash: string; userId: number; csrfToken: string; now: string; expiresAt: string },
): Promise<void> {
  await db.run(
    `INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at)
     VALUES (@tokenHash, @userId, @csrfToken, @now, @expiresAt)`,
    { tokenHash: input.tokenHash, userId: input.userId, csrfToken: input.csrfToken, now: input.now, expiresAt: input.expiresAt },
  );
}

/** The session behind a cookie's hash, unless it ended or expired. */
export async function findLiveSession(db: SqlRunner, tokenHash: string, now: string): Promise<SessionRow | undefined> {
  // The flag is selected as 0/1 (not the bare comparison) so both stores answer a number.
  const row = await db.one<Omit<SessionRow, 'account_active'> & { account_active: number }>(
    `SELECT s.id AS session_id, s.csrf_token, s.expires_at, u.id AS user_id, u.public_id AS user_public_id,
            u.email, u.role, a.id AS account_id, a.public_id AS account_public_id, a.name AS account_name,
            CASE WHEN ${ACCOUNT_ACTIVE_SQL} THEN 1 ELSE 0 END AS account_active, a.subscription_status, a.current_period_end
       FROM sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
      WHERE s.token_hash = @hash AND s.ended_at IS NULL AND s.expires_at > @now`,
    { hash: tokenHash, now },
  );
  return row && { ...row, account_active: row.account_active === 1 };
}

export async function endSession(db: SqlRunner, sessionId: number, now: string): Promise<void> {
  await db.run('UPDATE sessions SET ended_at = @now WHERE id = @id AND ended_at IS NULL', { now, id: sessionId });
}

/** Housekeeping at sign-in: sessions past their expiry are useless, so they go. */
export async function deleteExpiredSessions(db: SqlRunner, now: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE expires_at <= @now', { now });
}
