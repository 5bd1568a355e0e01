import { DEFAULT_ERASURE_POLICY, ErasurePolicySchema, METHOD_CATALOGUE, parseUnknown, type ErasurePolicy } from '@erasure/shared';

/**
 * Who chooses the erasure method (issue 29 item 2): an account's admins set a default method, a
 * verification level and the methods technicians may choose; a device token may carry its own
 * policy (a customer's contract) that overrides the account's. The shape is the shared
 * `ErasurePolicy` (shared/src/erasure-methods.ts); this module adds the rules the schema cannot
 * say alone, and decides which policy is in force for a token. Plain functions, no I/O.
 */

/** Where the policy in force comes from: the token's own, its account's, or the built-in default. */
export type PolicySource = 'token' | 'account' | 'default';

export type ParsedPolicy = { ok: true; policy: ErasurePolicy } | { ok: false; error: string };

/** Catalogue ids, the only method names a policy may use. */
const knownIds = (): ReadonlySet<string> => new Set(METHOD_CATALOGUE.map((m) => m.id));

/**
 * An erasure policy from an admin's form, the CLI or the store. Refused, with words an admin can
 * act on: a body that is not the shared schema, a method id outside the catalogue, a default
 * method that is not among the allowed ones, and a sample outside 1..100 per cent.
 */
export function parseErasurePolicy(body: unknown): ParsedPolicy {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (!fields) return { ok: false, error: 'the erasure policy must be an object with default_method, verification and allowed_methods' };
  // Checked before the schema, so the admin reads which value is wrong rather than a schema path.
  const verification = fields.verification;
  if (typeof verification === 'object' && verification !== null && 'sample' in verification) {
    const n = (verification as { sample: unknown }).sample;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 100) {
      return { ok: false, error: 'verification sample must be a whole number of per cent from 1 to 100' };
    }
  }
  const known = knownIds();
  const allowed = Array.isArray(fields.allowed_methods) ? fields.allowed_methods : [];
  const unknown = [fields.default_method, ...allowed].filter((id) => typeof id === 'string' && !known.has(id));
  if (unknown.length > 0) return { ok: false, error: `unknown erasure method: ${[...new Set(unknown)].join(', ')}` };
  const parsed = parseUnknown(ErasurePolicySchema, body);
  if (!parsed.ok) return { ok: false, error: `invalid erasure policy at ${parsed.path}: ${parsed.message}` };
  const policy = parsed.value;
  if (policy.allowed_methods.length === 0) return { ok: false, error: 'allowed_methods must name at least one method' };
  if (new Set(policy.allowed_methods).size !== policy.allowed_methods.length) return { ok: false, error: 'allowed_methods names a method twice' };
  if (!policy.allowed_methods.includes(policy.default_method)) {
    return { ok: false, error: `the default method ${policy.default_method} is not among the allowed methods` };
  }
  return { ok: true, policy };
}

/**
 * A policy as stored (JSON text). A stored policy was checked on its way in, so one that no
 * longer reads (a method removed from the catalogue since) is a broken invariant: it throws,
 * the call fails, and a device hears no policy at all and erases nothing (fail closed).
 */
export function readStoredPolicy(json: string): ErasurePolicy {
  let value: unknown;
  try {
    value = JSON.parse(json) as unknown;
  } catch {
    throw new Error('a stored erasure policy is not JSON');
  }
  const parsed = parseErasurePolicy(value);
  if (!parsed.ok) throw new Error(`a stored erasure policy no longer reads: ${parsed.error}`);
  return parsed.policy;
}

/** The policy in force for a token: its own when it carries one, else its account's, else the default. */
export function policyInForce(stored: { token: string | null | undefined; account: string | undefined }): { policy: ErasurePolicy; source: PolicySource } {
  if (stored.token) return { policy: readStoredPolicy(stored.token), source: 'token' };
  if (stored.account !== undefined) return { policy: readStoredPolicy(stored.account), source: 'account' };
  return { policy: DEFAULT_ERASURE_POLICY, source: 'default' };
}

/** The catalogue as the web app offers it: id, contract name and standard of each method. */
export function catalogueForForms(): { id: string; name: string; standard: string }[] {
  return METHOD_CATALOGUE.map((m) => ({ id: m.id, name: m.name, standard: m.standard }));
}
