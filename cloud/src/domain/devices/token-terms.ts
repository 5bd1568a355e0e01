/**
 * The terms a device token minted on /downloads gets: how many metered check-ins (quota) and
 * for how long (lifetime). Each account's admins choose them; until they do, the deployment's
 * defaults apply. Unlimited is never a default and never a slip: it is written only when an
 * admin sends `quota: "unlimited"` (issue 20, item 2).
 */

/** Quota bounds an admin may choose; past the upper bound, "unlimited" is the honest choice. */
export const QUOTA_BOUNDS = { min: 1, max: 1_000_000 } as const;
/** Lifetime bounds in days: at most a year, the longest a download ever lived. */
export const LIFETIME_DAYS_BOUNDS = { min: 1, max: 365 } as const;

/** The defaults when neither the account nor the deployment (env) chose: 100 check-ins, 90 days. */
export const BUILT_IN_TOKEN_DEFAULTS: TokenTermsDefaults = { quotaLimit: 100, lifetimeDays: 90 };

/** The deployment's defaults (DEVICE_TOKEN_DEFAULT_QUOTA, DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS): always a finite quota. */
export interface TokenTermsDefaults {
  quotaLimit: number;
  lifetimeDays: number;
}

/** What a minted token gets; `quotaLimit` null = unlimited, only from an account's explicit choice. */
export interface TokenTerms {
  quotaLimit: number | null;
  lifetimeDays: number;
  /** `account` when the account's admins chose these terms, `default` for the deployment's. */
  source: 'account' | 'default';
}

/** The account's stored choice, or undefined when it made none. */
export interface StoredTokenTerms {
  quota_limit: number | null;
  lifetime_days: number;
}

/** The terms in force for an account: its admins' choice, else the deployment's defaults. */
export function tokenTermsOf(stored: StoredTokenTerms | undefined, defaults: TokenTermsDefaults): TokenTerms {
  return stored
    ? { quotaLimit: stored.quota_limit, lifetimeDays: stored.lifetime_days, source: 'account' }
    : { quotaLimit: defaults.quotaLimit, lifetimeDays: defaults.lifetimeDays, source: 'default' };
}

export type ParsedTerms = { ok: true; quotaLimit: number | null; lifetimeDays: number } | { ok: false; error: string };

const isWhole = (value: unknown, bounds: { min: number; max: number }): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= bounds.min && value <= bounds.max;

/**
 * An admin's `{quota, lifetime_days}` from the settings form. `quota` is a whole number in
 * {@link QUOTA_BOUNDS} or the string "unlimited"; null, a missing field or 0 are refused rather
 * than read as unlimited, so no slip of a form grants unlimited check-ins.
 */
export function parseTokenTerms(body: unknown): ParsedTerms {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const { quota, lifetime_days: lifetime } = fields;
  const quotaError = `quota must be a whole number from ${QUOTA_BOUNDS.min} to ${QUOTA_BOUNDS.max}, or "unlimited"`;
  if (quota !== 'unlimited' && !isWhole(quota, QUOTA_BOUNDS)) return { ok: false, error: quotaError };
  if (!isWhole(lifetime, LIFETIME_DAYS_BOUNDS)) {
    return { ok: false, error: `lifetime_days must be a whole number from ${LIFETIME_DAYS_BOUNDS.min} to ${LIFETIME_DAYS_BOUNDS.max}` };
  }
  return { ok: true, quotaLimit: quota === 'unlimited' ? null : quota, lifetimeDays: lifetime };
}
