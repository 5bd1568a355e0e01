import { newId, newUuid, type Product, type TokenStatus } from '@erasure/shared';
import { ACCOUNT_ACTIVE_FLAG_SQL, setSubscriptionStatus } from '../accounts.js';
import type { SqlDatabase, SqlRunner } from '../../sql/database.js';
import { findTokenByJti, setTokenStatus } from '../tokens.js';

/** Spec 2 "License token row (sandbox)", plus the derived `quota_remaining`. */
export interface SandboxTokenRow {
  prefix_id: string;
  jti: string;
  account_id: string;
  account_name: string;
  account_active: boolean;
  user_email: string | null;
  product: Product;
  status: TokenStatus;
  quota_limit: number | null;
  use_count: number;
  quota_remaining: number | null;
  last_seen_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

const SELECT = `SELECT t.prefix_id, t.jti, a.public_id AS account_id, a.name AS account_name,
       ${ACCOUNT_ACTIVE_FLAG_SQL} AS account_active, t.user_email, t.product, t.status, t.quota_limit,
       t.use_count, t.last_seen_at, t.revoked_at, t.created_at
  FROM license_tokens t JOIN accounts a ON a.id = t.account_id`;

type Raw = Omit<SandboxTokenRow, 'account_active' | 'quota_remaining'> & { account_active: number };
const toRow = (raw: Raw): SandboxTokenRow => ({
  ...raw,
  account_active: raw.account_active === 1,
  quota_remaining: raw.quota_limit === null ? null : Math.max(raw.quota_limit - raw.use_count, 0),
});

/** Every token row, newest first (spec 4.6: not account-scoped). */
export async function listSandboxTokens(db: SqlRunner, now: string): Promise<SandboxTokenRow[]> {
  return (await db.many<Raw>(`${SELECT} ORDER BY t.created_at DESC, t.id DESC`, { now })).map(toRow);
}

export async function findSandboxToken(db: SqlRunner, jti: string, now: string): Promise<SandboxTokenRow | undefined> {
  const raw = await db.one<Raw>(`${SELECT} WHERE t.jti = @jti`, { jti, now });
  return raw && toRow(raw);
}

/**
 * The sandbox account a token or webhook belongs to, created on first mention. A given
 * `acct_…` id is kept as is, so an API key's real account id reads the same in the sandbox.
 * Runs inside the caller's transaction (a read, then an update or an insert).
 */
export async function ensureSandboxAccount(
  db: SqlRunner,
  input: { publicId: string | undefined; name: string | undefined; now: string },
): Promise<{ id: number; public_id: string }> {
  const existing = input.publicId
    ? await db.one<{ id: number; public_id: string; name: string }>('SELECT id, public_id, name FROM accounts WHERE public_id = @public_id', {
        public_id: input.publicId,
      })
    : undefined;
  if (existing) {
    if (input.name !== undefined && input.name !== existing.name) {
      await db.run('UPDATE accounts SET name = @name, updated_at = @now WHERE id = @id', { name: input.name, now: input.now, id: existing.id });
    }
    return existing;
  }
  const publicId = input.publicId ?? newId('acct');
  const created = await db.one<{ id: number; public_id: string }>(
    `INSERT INTO accounts (public_id, name, subscription_status, created_at, updated_at)
     VALUES (@public_id, @name, 'active', @now, @now) RETURNING id, public_id`,
    { public_id: publicId, name: input.name ?? 'Sandbox Account', now: input.now },
  );
  return created!;
}

/**
 * Spec 1: sandbox account state is a boolean. It is stored as the subscription the shared
 * ladder reads (`active` / `canceled`), so verify and the atomic check-in need no sandbox branch.
 */
export async function setSandboxAccountActive(db: SqlRunner, accountId: number, active: boolean, now: string): Promise<void> {
  await setSubscriptionStatus(db, accountId, active ? 'active' : 'canceled', now);
}

/** Mints a token row (spec 4.6): `use_count` 0, its account made active. */
export async function mintSandboxToken(
  db: SqlDatabase,
  input: {
    accountPublicId: string | undefined;
    accountName: string | undefined;
    userEmail: string;
    product: Product;
    quotaLimit: number | null;
    status: TokenStatus;
    now: string;
  },
): Promise<SandboxTokenRow> {
  return db.transaction(async (tx) => {
    const account = await ensureSandboxAccount(tx, { publicId: input.accountPublicId, name: input.accountName, now: input.now });
    // The spec answers a mint with account_active true: minting for a lapsed account revives it.
    await setSandboxAccountActive(tx, account.id, true, input.now);
    const jti = newUuid();
    await tx.run(
      `INSERT INTO license_tokens (prefix_id, jti, account_id, user_email, product, status, quota_limit,
                                   revoked_at, created_at, updated_at)
       VALUES (@prefix_id, @jti, @account_id, @user_email, @product, @status, @quota_limit, @revoked_at, @now, @now)`,
      {
        prefix_id: newId('ltok'),
        jti,
        account_id: account.id,
        user_email: input.userEmail,
        product: input.product,
        status: input.status,
        quota_limit: input.quotaLimit,
        revoked_at: input.status === 'revoked' ? input.now : null,
        now: input.now,
      },
    );
    return (await findSandboxToken(tx, jti, input.now))!;
  });
}

/** The fields `PATCH /sandbox/tokens/:jti` may change; absent ones stay. */
export interface SandboxTokenPatch {
  status?: TokenStatus;
  quota_limit?: number | null;
  use_count?: number;
  account_active?: boolean;
}

/** Applies a patch in one transaction; undefined for an unknown jti. */
export async function patchSandboxToken(db: SqlDatabase, jti: string, patch: SandboxTokenPatch, now: string): Promise<SandboxTokenRow | undefined> {
  return db.transaction(async (tx) => {
    const token = await findTokenByJti(tx, jti, now);
    if (!token) return undefined;
    if (patch.status !== undefined) await setTokenStatus(tx, jti, patch.status, now);
    if (patch.quota_limit !== undefined) {
      await tx.run('UPDATE license_tokens SET quota_limit = @quota_limit, updated_at = @now WHERE id = @id', {
        quota_limit: patch.quota_limit,
        now,
        id: token.id,
      });
    }
    if (patch.use_count !== undefined) {
      await tx.run('UPDATE license_tokens SET use_count = @use_count, updated_at = @now WHERE id = @id', { use_count: patch.use_count, now, id: token.id });
    }
    if (patch.account_active !== undefined) await setSandboxAccountActive(tx, token.account_id, patch.account_active, now);
    return findSandboxToken(tx, jti, now);
  });
}
