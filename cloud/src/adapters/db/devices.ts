import type { TokenStatus } from '@erasure/shared';
import type { SqlRunner } from '../sql/database.js';
import { TOKEN_STATE_SQL, type TokenState } from './tokens.js';

/** A device token as the /devices page lists it. */
export interface DeviceRow extends TokenState {
  prefix_id: string;
  jti: string;
  account_public_id: string;
  account_name: string;
  user_email: string | null;
  /** The token's own erasure policy as stored JSON (issue 29); null: it follows its account's. */
  erasure_policy: string | null;
}

const SELECT_DEVICE = `SELECT t.prefix_id, t.jti, a.public_id AS account_public_id, a.name AS account_name, t.user_email,
       t.erasure_policy, ${TOKEN_STATE_SQL}
  FROM license_tokens t JOIN accounts a ON a.id = t.account_id`;

/**
 * One page of tokens, newest first. `accountId` undefined lists every account (staff only);
 * `search` matches the jti, the `ltok_` id, the user's email or the account name.
 */
export async function listDevices(
  db: SqlRunner,
  filter: { accountId?: number; search?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: DeviceRow[]; count: number }> {
  const clauses: string[] = [];
  const params: Record<string, unknown> = { limit: page.limit, offset: page.offset };
  if (filter.accountId !== undefined) {
    clauses.push('t.account_id = @account');
    params.account = filter.accountId;
  }
  if (filter.search) {
    // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    clauses.push(`(t.jti = @exact OR t.prefix_id = @exact OR lower(t.user_email) LIKE lower(@like) ESCAPE '\\'
      OR lower(a.name) LIKE lower(@like) ESCAPE '\\')`);
    params.exact = filter.search;
    params.like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const count = (await db.one<{ n: number }>(`SELECT count(*) AS n FROM license_tokens t JOIN accounts a ON a.id = t.account_id ${where}`, params))!.n;
  const rows = await db.many<DeviceRow>(`${SELECT_DEVICE} ${where} ORDER BY t.created_at DESC, t.id DESC LIMIT @limit OFFSET @offset`, params);
  return { rows, count };
}

export async function findDevice(db: SqlRunner, jti: string): Promise<(DeviceRow & { account_id: number }) | undefined> {
  return db.one<DeviceRow & { account_id: number }>(`${SELECT_DEVICE.replace('SELECT ', 'SELECT t.account_id, ')} WHERE t.jti = @jti`, { jti });
}

/**
 * Moves a token from `from` to `to` only if it is still in `from`: a control decided on a stale
 * read (say, an admin reinstating while staff pull the kill switch) changes nothing.
 */
export async function transitionDevice(db: SqlRunner, jti: string, from: TokenStatus, to: TokenStatus, now: string): Promise<boolean> {
  const changes = await db.run(
    `UPDATE license_tokens
        SET status = @to, updated_at = @now,
            revoked_at = CASE WHEN @to = 'revoked' THEN COALESCE(revoked_at, @now) ELSE revoked_at END
      WHERE jti = @jti AND status = @from`,
    { jti, from, to, now },
  );
  return changes === 1;
}
