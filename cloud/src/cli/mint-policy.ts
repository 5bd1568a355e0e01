import { parseVerificationLevel, type ErasurePolicy, type VerificationLevel } from '@erasure/shared';
import { parseErasurePolicy } from '../domain/erasure-policy/policy.js';

type PolicyFlags = {
  'erasure-method'?: string | boolean | undefined;
  verification?: string | boolean | undefined;
  'allowed-methods'?: string | boolean | undefined;
};

export type MintPolicy = { ok: true; policy: ErasurePolicy | null } | { ok: false; error: string };

/**
 * The erasure policy a token minted on the command line carries (a customer's contract), from
 * `--erasure-method M [--verification V] [--allowed-methods a,b]`. None of the three: null, the
 * token follows its account's policy. `--allowed-methods` left out allows only the default
 * method (a contract names one method); `--verification` left out takes the account's level in
 * force (`base`). The result is checked as the web app checks an admin's form.
 */
export function mintPolicyFrom(flags: PolicyFlags, base: ErasurePolicy): MintPolicy {
  const { 'erasure-method': method, verification, 'allowed-methods': allowed } = flags;
  if (method === undefined && verification === undefined && allowed === undefined) return { ok: true, policy: null };
  if (typeof method !== 'string' || method.trim() === '') return { ok: false, error: '--erasure-method M is required with --verification or --allowed-methods' };
  let level: VerificationLevel = base.verification;
  if (verification !== undefined) {
    const parsed = typeof verification === 'string' ? parseVerificationLevel(verification.trim()) : undefined;
    if (parsed === undefined) return { ok: false, error: '--verification must be full, every-pass or sample:N (N per cent, 1 to 100)' };
    level = parsed;
  }
  const list = typeof allowed === 'string' ? allowed.split(',').map((s) => s.trim()).filter((s) => s !== '') : allowed === undefined ? [method.trim()] : [];
  const checked = parseErasurePolicy({ default_method: method.trim(), verification: level, allowed_methods: list });
  return checked.ok ? { ok: true, policy: checked.policy } : { ok: false, error: checked.error };
}
