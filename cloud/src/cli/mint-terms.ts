import type { TokenTerms } from '../domain/devices/token-terms.js';
import { parseDurationSeconds } from './duration.js';

/** What `admin mint-device-token` gives a token: its quota (null = unlimited) and lifetime. */
export type MintTerms = { ok: true; quotaLimit: number | null; lifetimeSeconds: number } | { ok: false; error: string };

/**
 * The terms of a token minted on the command line: each flag given wins, and each one left out
 * takes the account's terms, else the deployment's defaults, as a token minted in the web app
 * does (issue 28 item 4). Unlimited is never a default: only `--quota unlimited` asks for it.
 */
export function mintTermsFrom(flags: { quota?: string | boolean | undefined; 'expires-in'?: string | boolean | undefined }, terms: TokenTerms): MintTerms {
  let quotaLimit = terms.quotaLimit;
  if (flags.quota !== undefined) {
    const quota = typeof flags.quota === 'string' ? flags.quota.trim() : '';
    if (quota === 'unlimited') quotaLimit = null;
    else if (/^\d{1,15}$/.test(quota) && Number.isSafeInteger(Number(quota))) quotaLimit = Number(quota);
    else return { ok: false, error: '--quota must be a non-negative integer or "unlimited"' };
  }
  let lifetimeSeconds = terms.lifetimeDays * 86_400;
  if (flags['expires-in'] !== undefined) {
    const parsed = typeof flags['expires-in'] === 'string' ? parseDurationSeconds(flags['expires-in']) : undefined;
    if (parsed === undefined) return { ok: false, error: '--expires-in must look like 90d, 12h, 30m or 1y' };
    lifetimeSeconds = parsed;
  }
  return { ok: true, quotaLimit, lifetimeSeconds };
}
