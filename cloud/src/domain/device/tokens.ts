import { newUuid, tokenNotActiveError, ERRORS, type InternalDeny, type LadderRequest } from '@erasure/shared';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { isoNow } from '../clock.js';
import { accountMatches, decide, quotaRemaining } from '../entitlement/ladder.js';
import { refuse, type DeviceDeps, type Refusal } from './deps.js';

export type LadderOutcome<Allow> =
  | ({ kind: 'allow' } & Allow)
  | { kind: 'deny'; body: InternalDeny }
  | { kind: 'not_found' };

const standingOf = (token: TokenRow) => ({
  status: token.status,
  accountActive: token.account_active,
  quotaLimit: token.quota_limit,
  useCount: token.use_count,
});

/** The token a call names, or undefined when unknown or when `account_id` is not its account. */
async function findScopedToken(deps: DeviceDeps, request: Partial<LadderRequest>, now: string): Promise<TokenRow | undefined> {
  if (typeof request.jti !== 'string' || request.jti === '') return undefined;
  const token = await deps.store.findTokenByJti(deps.db, request.jti, now);
  if (!token) return undefined;
  // Any supplied account_id must name the token's account; a non-string one (a number, null)
  // names no account, so it is a mismatch too, never a reason to skip the cross-check.
  const supplied: unknown = request.account_id;
  if (supplied === undefined) return token;
  if (typeof supplied !== 'string') return undefined;
  return accountMatches(supplied, { publicId: token.account_public_id, numericId: token.account_id }) ? token : undefined;
}

function denial(token: TokenRow): LadderOutcome<never> {
  const decision = decide(standingOf(token));
  // Only reachable after a refused spend; a token that reads as allowed here lost a race for
  // the last unit of quota, which is exactly quota_exceeded.
  const reason = decision.allow ? 'quota_exceeded' : decision.reason;
  return {
    kind: 'deny',
    body: { allow: false, status: token.status, reason, quota_remaining: quotaRemaining(standingOf(token)) },
  };
}

/** Reports a ladder denial as `wipe_session_blocked` (spec 6) and passes the outcome through. */
async function blocked<A>(
  deps: DeviceDeps,
  outcome: LadderOutcome<A>,
  token: TokenRow,
  phase: 'verify' | 'checkin',
): Promise<LadderOutcome<A>> {
  if (outcome.kind === 'deny') {
    const { reason, quota_remaining } = outcome.body;
    await deps.events?.emit(deps.db, { type: 'wipe_session_blocked', token, phase, reason, quotaRemaining: quota_remaining ?? null });
  }
  return outcome;
}

/** Unmetered unlock check: runs the ladder, and on allow bumps `last_seen_at` only. */
export async function verifyToken(
  deps: DeviceDeps,
  request: Partial<LadderRequest>,
): Promise<LadderOutcome<{ account: string; quota_remaining: number | null }>> {
  const now = isoNow(deps.clock);
  const token = await findScopedToken(deps, request, now);
  if (!token) return { kind: 'not_found' };
  if (!decide(standingOf(token)).allow) return blocked(deps, denial(token), token, 'verify');
  await deps.store.touchLastSeen(deps.db, token.id, now);
  return { kind: 'allow', account: token.account_name, quota_remaining: quotaRemaining(standingOf(token)) };
}

/**
 * Metered check-in: one check-in spends one unit of quota in a single SQL statement and
 * hands out a fresh `job_id`. Reported `quota_remaining` is after the increment. The spend,
 * the recorded check-in and `wipe_session_ready` commit together, in the call's transaction.
 */
export async function validateToken(
  deps: DeviceDeps,
  request: Partial<LadderRequest>,
): Promise<LadderOutcome<{ job_id: string; quota_remaining: number | null }>> {
  const now = isoNow(deps.clock);
  const token = await findScopedToken(deps, request, now);
  if (!token) return { kind: 'not_found' };
  const jobId = newUuid();
  const spent = await deps.store.spendCheckin(deps.db, token, jobId, now);
  if (!spent) {
    const current = (await deps.store.findTokenByJti(deps.db, token.jti, now)) ?? token;
    return blocked(deps, denial(current), current, 'checkin');
  }
  const remaining = quotaRemaining({ quotaLimit: spent.quota_limit, useCount: spent.use_count });
  await deps.events?.emit(deps.db, { type: 'wipe_session_ready', token, jobId, quotaRemaining: remaining });
  return { kind: 'allow', job_id: jobId, quota_remaining: remaining };
}

/**
 * The check-in in one statement, where the store runs such statements without a transaction of
 * the caller's (PostgreSQL, in its statement group commit): an allowed check-in nobody listens
 * to, the common case, is one statement where the transaction takes five round trips. Anything
 * else answers undefined having spent nothing, for {@link validateToken} in a transaction: an
 * unknown token, a denial (which reports `wipe_session_blocked`), and a check-in a webhook
 * listens for (whose outbox row commits with the spend).
 */
export async function checkInAtOnce(
  deps: DeviceDeps,
  request: Partial<LadderRequest>,
): Promise<LadderOutcome<{ job_id: string; quota_remaining: number | null }> | undefined> {
  const { jti, account_id: account } = request as { jti?: unknown; account_id?: unknown };
  if (typeof jti !== 'string' || jti === '') return undefined;
  if (account !== undefined && typeof account !== 'string') return undefined;
  const jobId = newUuid();
  const spent = await deps.store.spendUnheardCheckin(deps.db, { jti, account: account ?? null, jobId, now: isoNow(deps.clock) });
  if (!spent) return undefined;
  return { kind: 'allow', job_id: jobId, quota_remaining: quotaRemaining({ quotaLimit: spent.quota_limit, useCount: spent.use_count }) };
}

/**
 * The non-ladder endpoints (assets, notes, tests, wipe results, chassis maps) only need an
 * `active` token: unknown is 404 `unknown token`, anything else 403 `token <status>`.
 */
export async function requireActiveToken(
  deps: DeviceDeps,
  request: { jti?: unknown; account_id?: unknown },
): Promise<{ ok: true; token: TokenRow } | Refusal> {
  const token = await findScopedToken(deps, request as Partial<LadderRequest>, isoNow(deps.clock));
  if (!token) return refuse(404, ERRORS.unknownToken);
  if (token.status !== 'active') return refuse(403, tokenNotActiveError(token.status));
  return { ok: true, token };
}
