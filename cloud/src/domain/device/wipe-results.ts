import { ERRORS, InternalWipeResultRequest, parseUnknown, type WipeResultAccepted } from '@erasure/shared';
import { isoNow } from '../clock.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { refuse, type DeviceDeps, type Refusal } from './deps.js';
import { checkinClaimOf, checkinJobIdsNamedBy, DEFAULT_MAX_DRIVES_PER_MACHINE, ownUncertifiedReason } from './issued-job.js';

/**
 * Receives one drive's wipe result (spec 4.2 rule 3). First receipt: 201, and when certifiable the
 * certificate is issued (by default: queued) and `wipe_session_completed` emitted in the same
 * transaction. A duplicate `job_id`: 200 with the stored record, nothing re-fired, no second
 * certificate. Check-in is the metered step, so a result is certified only when its job_id was
 * issued by a check-in of the same token (`-N` suffixed for the engine, N below the drive cap; as
 * issued for the hotswap station); any other result is stored, with why, and never certified,
 * except one whose job_id another token of the account was issued: 403, so it cannot occupy it.
 */
export async function receiveWipeResult(
  deps: DeviceDeps,
  token: TokenRow,
  body: Record<string, unknown>,
): Promise<{ ok: true; created: boolean; response: WipeResultAccepted } | Refusal> {
  if (typeof body.job_id !== 'string' || body.job_id.trim() === '') return refuse(422, ERRORS.missingJobId);
  const record = parseUnknown(InternalWipeResultRequest, body);
  if (!record.ok) return refuse(422, `${ERRORS.invalidWipeResult} at ${record.path}: ${record.message}`);
  const claim = checkinClaimOf(token.product, record.value.job_id, deps.maxDrivesPerMachine ?? DEFAULT_MAX_DRIVES_PER_MACHINE);
  // One transaction (the call's): an event row commits with its result.
  const stored = await deps.store.storeWipeResult(deps.db, {
    accountId: token.account_id,
    tokenId: token.id,
    record: record.value,
    ownReason: ownUncertifiedReason(record.value),
    issuedJobId: claim.issuedJobId,
    notIssuedReason: claim.notIssuedReason,
    unsuffixedJobId: checkinJobIdsNamedBy(record.value.job_id).unsuffixed,
    now: isoNow(deps.clock),
    issueCertificate: deps.issueCertificate,
  });
  // Stored, it would occupy the job_id and leave the genuine result a duplicate, never certified.
  if ('issuedToAnotherToken' in stored) return refuse(403, ERRORS.jobIdOfAnotherToken);
  const { created, result } = stored;
  if (created && result.certifiable === 1) {
    await deps.events?.emit(deps.db, { type: 'wipe_session_completed', token, wipeResultId: result.id });
    await deps.validation?.onCertifiedWipe(deps.db, { accountId: token.account_id, tokenId: token.id }, isoNow(deps.clock));
  }
  return {
    ok: true,
    created,
    response: { ok: true, wipe_result_id: result.public_id, certificate_status: result.certificate_status },
  };
}
