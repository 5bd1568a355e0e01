import type { Product } from '@erasure/shared';

/** Why a result that asked to be certified is not, when its job_id names no check-in of its token. */
export const NOT_ISSUED_REASON = 'job_id was not issued by a check-in of this token';

/**
 * MAX_DRIVES_PER_MACHINE when unset. A check-in carries no drive count, so this bounds how many
 * certificates one engine check-in can yield (`-0` … `-255`); hotswap stations check in per drive.
 */
export const DEFAULT_MAX_DRIVES_PER_MACHINE = 256;

/** The highest cap the job_id form allows: a suffix has at most 4 digits (`-9999`). */
export const MAX_DRIVES_PER_MACHINE_LIMIT = 10_000;

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
 * The check-in job_ids a result's job_id could stand for, whatever the reporting token's product:
 * itself (a hotswap check-in) and, when suffixed, its unsuffixed form (an engine check-in). A
 * result is refused when one of them was issued to another token of the account (issue 28 item 3):
 * stored, it would occupy the job_id its genuine result needs.
 */
export function checkinJobIdsNamedBy(jobId: string): { jobId: string; unsuffixed: string | null } {
  return { jobId, unsuffixed: ENGINE_SUFFIX.exec(jobId)?.[1] ?? null };
}

/**
 * What a result's job_id claims, for the statement that stores it: the check-in job_id that must
 * have been issued to the reporting token (undefined: none can be), and the reason it is stored
 * uncertified if not. An engine suffix at or past the drive cap claims nothing, whatever was
 * checked in, so one engine check-in certifies at most `maxDrivesPerMachine` drives.
 */
export function checkinClaimOf(
  product: Product,
  jobId: string,
  maxDrivesPerMachine: number,
): { issuedJobId: string | undefined; notIssuedReason: string } {
  const suffix = product === 'engine' ? ENGINE_SUFFIX.exec(jobId)?.[2] : undefined;
  if (suffix !== undefined && Number(suffix) >= maxDrivesPerMachine) {
    return {
      issuedJobId: undefined,
      notIssuedReason: `drive -${suffix} is past the cap of ${maxDrivesPerMachine} drives per machine (MAX_DRIVES_PER_MACHINE)`,
    };
  }
  return { issuedJobId: issuedJobIdOf(product, jobId), notIssuedReason: NOT_ISSUED_REASON };
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
