import type { LadderDenyReason, TokenStatus } from '@erasure/shared';

/** What the ladder needs to know about a token and its account. */
export interface TokenStanding {
  status: TokenStatus;
  accountActive: boolean;
  quotaLimit: number | null;
  useCount: number;
}

export type LadderDecision = { allow: true } | { allow: false; reason: Exclude<LadderDenyReason, 'not_found'> };

/**
 * The decision ladder of spec section 3, first match wins. `not_found` is decided before the
 * ladder runs (unknown jti, or an `account_id` that is not the token's).
 */
export function decide(token: TokenStanding): LadderDecision {
  if (token.status === 'disabled') return { allow: false, reason: 'disabled' };
  if (token.status === 'revoked') return { allow: false, reason: 'revoked' };
  if (token.status === 'suspended') return { allow: false, reason: 'suspended' };
  if (!token.accountActive) return { allow: false, reason: 'account_inactive' };
  if (token.quotaLimit !== null && token.useCount >= token.quotaLimit) return { allow: false, reason: 'quota_exceeded' };
  return { allow: true };
}

/** `null` when unlimited, otherwise `max(quota_limit - use_count, 0)` (spec 2). */
export function quotaRemaining(token: Pick<TokenStanding, 'quotaLimit' | 'useCount'>): number | null {
  return token.quotaLimit === null ? null : Math.max(token.quotaLimit - token.useCount, 0);
}

/** True when the `account_id` a caller supplied names the token's own account (or none was supplied). */
export function accountMatches(
  supplied: string | undefined,
  account: { publicId: string; numericId: number },
): boolean {
  return supplied === undefined || supplied === account.publicId || supplied === String(account.numericId);
}
