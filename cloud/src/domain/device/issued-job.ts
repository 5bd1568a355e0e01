import type { Product } from '@erasure/shared';

/** Why a result that asked to be certified is not, when its job_id names no check-in. */
export const NOT_ISSUED_REASON = 'job_id was not issued by a check-in of this account';

/** A per-drive suffix `-0`, `-1`, …: decimal, no leading zeros, at most 4 digits (a 9,999-drive run). */
const ENGINE_SUFFIX = /^(.+)-(0|[1-9][0-9]{0,3})$/;

/**
 * The check-in job_id a wipe result's job_id must have come from (spec 4.1 rule 7): the engine
 * checks in once per run and suffixes the job_id per drive, so `<job_id>-N` names `<job_id>`;
 * the hotswap station checks in per drive and reports the job_id as issued. Undefined when the
 * job_id cannot have come from a check-in for this product.
 */
export function issuedJobIdOf(product: Product, jobId: string): string | undefined {
  if (product === 'hotswap') return jobId;
  return ENGINE_SUFFIX.exec(jobId)?.[1];
}

/**
 * Why a result is not certifiable on its own terms (spec 2: a `failed`/`cancelled` wipe, or
 * validation not approved), or null when it asks to be certified.
 */
export function ownUncertifiedReason(record: { wipe_status?: string | null | undefined; validation?: string | null | undefined }): string | null {
  const status = record.wipe_status ?? 'completed';
  if (status !== 'completed') return `wipe_status ${status}`;
  const validation = record.validation ?? 'approved';
  return validation === 'approved' ? null : `validation ${validation}`;
}
