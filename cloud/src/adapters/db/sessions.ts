import { ACCOUNT_ACTIVE_SQL, type SubscriptionStatus } from './accounts.js';
import type { ReadonlyDb, WritableDb } from './open.js';
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

export function createSession(
  db: WritableDb,
  input: { tokenHash: string; userId: number; csrfToken: string; now: string; expiresAt: string },
): void {
  db.prepare(
    `INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(input.tokenHash, input.userId, input.csrfToken, input.now, input.expiresAt);
}

/** The session behind a cookie's hash, unless it ended or expired. */
export function findLiveSession(db: ReadonlyDb, tokenHash: string, now: string): SessionRow | undefined {
  const row = db
    .prepare(
      `SELECT s.id AS session_id, s.csrf_token, s.expires_at, u.id AS user_id, u.public_id AS user_public_id,
              u.email, u.role, a.id AS account_id, a.public_id AS account_public_id, a.name AS account_name,
              ${ACCOUNT_ACTIVE_SQL} AS account_active, a.subscription_status, a.current_period_end
         FROM sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
        WHERE s.token_hash = @hash AND s.ended_at IS NULL AND s.expires_at > @now`,
    )
    .get({ hash: tokenHash, now }) as (Omit<SessionRow, 'account_active'> & { account_active: number }) | undefined;
  return row && { ...row, account_active: row.account_active === 1 };
}

export function endSession(db: WritableDb, sessionId: number, now: string): void {
  db.prepare('UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(now, sessionId);
}

/** Housekeeping at sign-in: sessions past their expiry are useless, so they go. */
export function deleteExpiredSessions(db: WritableDb, now: string): void {
  db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now);
}
