import { newId, newUuid, type Product, type TokenStatus } from '@erasure/shared';
import { ACCOUNT_ACTIVE_SQL, setSubscriptionStatus } from '../accounts.js';
import { prepared, type ReadonlyDb, type WritableDb } from '../open.js';
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
       ${ACCOUNT_ACTIVE_SQL} AS account_active, t.user_email, t.product, t.status, t.quota_limit,
       t.use_count, t.last_seen_at, t.revoked_at, t.created_at
  FROM license_tokens t JOIN accounts a ON a.id = t.account_id`;

type Raw = Omit<SandboxTokenRow, 'account_active' | 'quota_remaining'> & { account_active: number };
const toRow = (raw: Raw): SandboxTokenRow => ({
  ...raw,
  account_active: raw.account_active === 1,
  quota_remaining: raw.quota_limit === null ? null : Math.max(raw.quota_limit - raw.use_count, 0),
});

/** Every token row, newest first (spec 4.6: not account-scoped). */
export function listSandboxTokens(db: ReadonlyDb, now: string): SandboxTokenRow[] {
  return (prepared(db, `${SELECT} ORDER BY t.created_at DESC, t.id DESC`).all({ now }) as Raw[]).map(toRow);
}

export function findSandboxToken(db: ReadonlyDb, jti: string, now: string): SandboxTokenRow | undefined {
  const raw = prepared(db, `${SELECT} WHERE t.jti = @jti`).get({ jti, now }) as Raw | undefined;
  return raw && toRow(raw);
}

/**
 * The sandbox account a token or webhook belongs to, created on first mention. A given
 * `acct_…` id is kept as is, so an API key's real account id reads the same in the sandbox.
 */
export function ensureSandboxAccount(
  db: WritableDb,
  input: { publicId: string | undefined; name: string | undefined; now: string },
): { id: number; public_id: string } {
  const existing = input.publicId
    ? (prepared(db, 'SELECT id, public_id, name FROM accounts WHERE public_id = ?').get(input.publicId) as
        | { id: number; public_id: string; name: string }
        | undefined)
    : undefined;
  if (existing) {
    if (input.name !== undefined && input.name !== existing.name) {
      prepared(db, 'UPDATE accounts SET name = ?, updated_at = ? WHERE id = ?').run(input.name, input.now, existing.id);
    }
    return existing;
  }
  const publicId = input.publicId ?? newId('acct');
  return prepared(
      db,
      `INSERT INTO accounts (public_id, name, subscription_status, created_at, updated_at)
       VALUES (?, ?, 'active', ?, ?) RETURNING id, public_id`,
    )
    .get(publicId, input.name ?? 'Sandbox Account', input.now, input.now) as { id: number; public_id: string };
}

/**
 * Spec 1: sandbox account state is a boolean. It is stored as the subscription the shared
 * ladder reads (`active` / `canceled`), so verify and the atomic check-in need no sandbox branch.
 */
export function setSandboxAccountActive(db: WritableDb, accountId: number, active: boolean, now: string): void {
  setSubscriptionStatus(db, accountId, active ? 'active' : 'canceled', now);
}

/** Mints a token row (spec 4.6): `use_count` 0, its account made active. */
export function mintSandboxToken(
  db: WritableDb,
  input: {
    accountPublicId: string | undefined;
    accountName: string | undefined;
    userEmail: string;
    product: Product;
    quotaLimit: number | null;
    status: TokenStatus;
    now: string;
  },
): SandboxTokenRow {
  return db
    .transaction(() => {
      const account = ensureSandboxAccount(db, { publicId: input.accountPublicId, name: input.accountName, now: input.now });
      // The spec answers a mint with account_active true: minting for a lapsed account revives it.
      setSandboxAccountActive(db, account.id, true, input.now);
      const jti = newUuid();
      prepared(
        db,
        `INSERT INTO license_tokens (prefix_id, jti, account_id, user_email, product, status, quota_limit,
                                     revoked_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        newId('ltok'), jti, account.id, input.userEmail, input.product, input.status, input.quotaLimit,
        input.status === 'revoked' ? input.now : null, input.now, input.now,
      );
      return findSandboxToken(db, jti, input.now)!;
    })
    .immediate();
}

/** The fields `PATCH /sandbox/tokens/:jti` may change; absent ones stay. */
export interface SandboxTokenPatch {
  status?: TokenStatus;
  quota_limit?: number | null;
  use_count?: number;
  account_active?: boolean;
}

/** Applies a patch in one transaction; undefined for an unknown jti. */
export function patchSandboxToken(db: WritableDb, jti: string, patch: SandboxTokenPatch, now: string): SandboxTokenRow | undefined {
  return db
    .transaction(() => {
      const token = findTokenByJti(db, jti, now);
      if (!token) return undefined;
      if (patch.status !== undefined) setTokenStatus(db, jti, patch.status, now);
      if (patch.quota_limit !== undefined) {
        prepared(db, 'UPDATE license_tokens SET quota_limit = ?, updated_at = ? WHERE id = ?').run(patch.quota_limit, now, token.id);
      }
      if (patch.use_count !== undefined) {
        prepared(db, 'UPDATE license_tokens SET use_count = ?, updated_at = ? WHERE id = ?').run(patch.use_count, now, token.id);
      }
      if (patch.account_active !== undefined) setSandboxAccountActive(db, token.account_id, patch.account_active, now);
      return findSandboxToken(db, jti, now);
    })
    .immediate();
}
