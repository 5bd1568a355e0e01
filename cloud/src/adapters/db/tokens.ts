import { newId, newUuid, type CertificateLanguage, type Product, type TokenStatus } from '@erasure/shared';
import { ACCOUNT_ACTIVE_FLAG_SQL, ACCOUNT_ACTIVE_SQL } from './accounts.js';
import type { SqlRunner } from '../sql/database.js';

/** A token's own state, as every read of `license_tokens` returns it; see {@link TOKEN_STATE_SQL}. */
export interface TokenState {
  product: Product;
  status: TokenStatus;
  quota_limit: number | null;
  use_count: number;
  last_seen_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  created_at: string;
}

/** The columns of {@link TokenState} (`t` = license_tokens), in this order. */
export const TOKEN_STATE_SQL = 't.product, t.status, t.quota_limit, t.use_count, t.last_seen_at, t.revoked_at, t.expires_at, t.created_at';

/** A license token joined with what the decision ladder needs of its account. */
export interface TokenRow extends TokenState {
  id: number;
  prefix_id: string;
  jti: string;
  account_id: number;
  account_public_id: string;
  account_name: string;
  account_active: boolean;
  user_email: string | null;
  /** Display name of the token's user (technician / operator), falling back to the email. */
  user_name: string | null;
}

/**
 * The name of the person a token was minted for (`t` = license_tokens): the user's name when a
 * user with the token's email has one, else the email itself. Spec 2 and 6 call this the
 * technician and the operator; the sandbox, which has no users, keeps the email (spec 1).
 */
export const TOKEN_USER_NAME_SQL = `COALESCE(
  (SELECT u.name FROM users u WHERE u.email = t.user_email AND u.name IS NOT NULL AND u.name <> ''), t.user_email)`;

const SELECT_TOKEN = `SELECT t.id, t.prefix_id, t.jti, t.account_id, a.public_id AS account_public_id,
       a.name AS account_name, ${ACCOUNT_ACTIVE_FLAG_SQL} AS account_active, t.user_email,
       ${TOKEN_USER_NAME_SQL} AS user_name, ${TOKEN_STATE_SQL}
  FROM license_tokens t JOIN accounts a ON a.id = t.account_id`;

type RawTokenRow = Omit<TokenRow, 'account_active'> & { account_active: number };
const toRow = (raw: RawTokenRow | undefined): TokenRow | undefined =>
  raw && { ...raw, account_active: raw.account_active === 1 };

const FIND_BY_JTI = `${SELECT_TOKEN} WHERE t.jti = @jti`;

export async function findTokenByJti(db: SqlRunner, jti: string, now: string): Promise<TokenRow | undefined> {
  return toRow(await db.one<RawTokenRow>(FIND_BY_JTI, { jti, now }));
}

export async function createToken(
  db: SqlRunner,
  input: {
    accountId: number;
    product: Product;
    quotaLimit: number | null;
    userEmail: string | null;
    expiresAt: string | null;
    /** Optional customer and lot / job reference, carried onto what the token reports (issue 23). */
    customer?: string | null;
    lotReference?: string | null;
    /** The token's own erasure policy as checked JSON (issue 29); absent: it follows its account's. */
    erasurePolicyJson?: string | null;
    /** Where the machines booted with it stand, for the floor view's grouping (issue 32). */
    site?: string | null;
    /** The language its certificates are drawn in (issue 31 item 7 part B); absent: its account's. */
    certificateLanguage?: CertificateLanguage | null;
    now: string;
  },
): Promise<TokenRow> {
  const jti = newUuid();
  await db.run(
    `INSERT INTO license_tokens (prefix_id, jti, account_id, user_email, product, status, quota_limit,
                                 expires_at, customer, lot_reference, erasure_policy, site, certificate_language, created_at, updated_at)
     VALUES (@prefix_id, @jti, @account_id, @user_email, @product, 'active', @quota_limit, @expires_at,
             @customer, @lot_reference, @erasure_policy, @site, @certificate_language, @now, @now)`,
    {
      prefix_id: newId('ltok'),
      jti,
      account_id: input.accountId,
      user_email: input.userEmail,
      product: input.product,
      quota_limit: input.quotaLimit,
      expires_at: input.expiresAt,
      customer: input.customer ?? null,
      lot_reference: input.lotReference ?? null,
      erasure_policy: input.erasurePolicyJson ?? null,
      site: input.site ?? null,
      certificate_language: input.certificateLanguage ?? null,
      now: input.now,
    },
  );
  return (await findTokenByJti(db, jti, input.now))!;
}

/** Sets a token's status; `revoked_at` records the first revocation. */
export async function setTokenStatus(db: SqlRunner, jti: string, status: TokenStatus, now: string): Promise<TokenRow | undefined> {
  await db.run(
    `UPDATE license_tokens
        SET status = @status, updated_at = @now,
            revoked_at = CASE WHEN @status = 'revoked' THEN COALESCE(revoked_at, @now) ELSE revoked_at END
      WHERE jti = @jti`,
    { jti, status, now },
  );
  return findTokenByJti(db, jti, now);
}

/** Heartbeat of a successful verify: `last_seen_at` only, quota untouched (spec 3, counters). */
export async function touchLastSeen(db: SqlRunner, tokenId: number, now: string): Promise<void> {
  await db.run('UPDATE license_tokens SET last_seen_at = @now WHERE id = @id', { now, id: tokenId });
}

/**
 * The allow rung of the decision ladder as a WHERE clause on `license_tokens`: active, quota
 * left, account active. A spend guarded by it can never take more than the quota, however many
 * check-ins race for the last unit.
 */
const SPENDABLE_SQL = `status = 'active'
          AND (quota_limit IS NULL OR use_count < quota_limit)
          AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = license_tokens.account_id AND ${ACCOUNT_ACTIVE_SQL})`;

/**
 * Spends one check-in and records the `job_id` it hands out. The spend is a single statement:
 * its WHERE clause is the allow rung of the decision ladder, so two concurrent check-ins can
 * never both take the last unit of quota. On PostgreSQL the check-in row is inserted by the same
 * statement (a data-modifying CTE: one round trip where two would be); SQLite, in process, runs
 * the two in the caller's transaction. Returns the counters after the increment, or undefined
 * when the ladder denies (nothing recorded; the caller reads why).
 */
export async function spendCheckin(
  db: SqlRunner,
  token: Pick<TokenRow, 'id' | 'account_id'>,
  jobId: string,
  now: string,
): Promise<{ use_count: number; quota_limit: number | null } | undefined> {
  const spend = `UPDATE license_tokens SET use_count = use_count + 1, updated_at = @now
        WHERE id = @id AND ${SPENDABLE_SQL}
       RETURNING use_count, quota_limit, id, account_id, updated_at`;
  const params = { id: token.id, now };
  if (db.dialect === 'postgres') {
    return db.one<{ use_count: number; quota_limit: number | null }>(
      `WITH spent AS (${spend}),
            recorded AS (INSERT INTO checkins (job_id, token_id, account_id, created_at)
                           SELECT CAST(@job_id AS TEXT), id, account_id, updated_at FROM spent)
       SELECT use_count, quota_limit FROM spent`,
      { ...params, job_id: jobId },
    );
  }
  const spent = await db.one<{ use_count: number; quota_limit: number | null }>(spend, params);
  if (!spent) return undefined;
  await recordCheckin(db, jobId, token, now);
  return { use_count: spent.use_count, quota_limit: spent.quota_limit };
}

/**
 * A whole check-in as one PostgreSQL statement, atomic on its own, so it needs no transaction of
 * the caller's (it runs in the statement group commit): spends one unit of the token named by
 * `jti` and records the check-in, as {@link spendCheckin} does, when that token is in the named
 * account (`account`: a public or numeric account id, or null for any) and no webhook
 * subscription listens for `wipe_session_ready` on it, since that event's outbox row must be
 * written in the spend's transaction. Returns the counters after the increment, or undefined
 * when nothing was spent, for any of those reasons: the caller's transactional path reads which.
 */
export async function spendUnheardCheckin(
  db: SqlRunner,
  input: { jti: string; account: string | null; jobId: string; now: string },
): Promise<{ use_count: number; quota_limit: number | null } | undefined> {
  if (db.dialect !== 'postgres') throw new Error('spendUnheardCheckin is a PostgreSQL statement; SQLite spends in its group commit');
  return db.one<{ use_count: number; quota_limit: number | null }>(
    `WITH spent AS (UPDATE license_tokens SET use_count = use_count + 1, updated_at = @now
                     WHERE jti = @jti AND ${SPENDABLE_SQL}
                       AND (CAST(@account AS TEXT) IS NULL
                            OR EXISTS (SELECT 1 FROM accounts a WHERE a.id = license_tokens.account_id
                                          AND (a.public_id = @account OR CAST(a.id AS TEXT) = @account)))
                       AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s
                                        WHERE s.account_id = license_tokens.account_id
                                          AND (s.event_type = 'wipe_session_ready' OR (',' || s.more_event_types || ',') LIKE '%,wipe_session_ready,%'))
                    RETURNING use_count, quota_limit, id, account_id, updated_at),
          recorded AS (INSERT INTO checkins (job_id, token_id, account_id, created_at)
                         SELECT CAST(@job_id AS TEXT), id, account_id, updated_at FROM spent)
     SELECT use_count, quota_limit FROM spent`,
    { jti: input.jti, account: input.account, job_id: input.jobId, now: input.now },
  );
}

/** Records the job_id a check-in handed out, for audit and later matching of wipe results. */
export async function recordCheckin(db: SqlRunner, jobId: string, token: Pick<TokenRow, 'id' | 'account_id'>, now: string): Promise<void> {
  await db.run('INSERT INTO checkins (job_id, token_id, account_id, created_at) VALUES (@job_id, @token_id, @account_id, @now)', {
    job_id: jobId,
    token_id: token.id,
    account_id: token.account_id,
    now,
  });
}
