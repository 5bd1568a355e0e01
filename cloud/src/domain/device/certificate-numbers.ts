import { ERRORS, CertificatesLookupBody, parseUnknown, type CertificatesFound } from '@erasure/shared';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { refuse, type DeviceDeps, type Refusal } from './deps.js';

/**
 * Certificate numbers of the token's account for the job ids a device sent (README "Routes
 * beyond the spec"). Numbers exist from the first receipt of a certifiable result, so a device
 * can read them right after its wipe results were acknowledged; the spec's wipe-result answer
 * stays unchanged. Read-only: the caller has already checked that the token is active.
 */
export async function lookupCertificateNumbers(
  deps: DeviceDeps,
  token: TokenRow,
  body: Record<string, unknown>,
): Promise<{ ok: true; found: CertificatesFound } | Refusal> {
  const parsed = parseUnknown(CertificatesLookupBody, { job_ids: body.job_ids });
  if (!parsed.ok) return refuse(422, ERRORS.invalidPayload);
  return { ok: true, found: { certificates: await deps.store.findCertificateNumbers(deps.db, token.account_id, parsed.value.job_ids) } };
}
