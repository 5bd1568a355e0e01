import { ERRORS, InternalJobDetailsRequest, JOB_DETAIL_FIELDS, JOB_DETAIL_LABELS, jobDetailProblem, parseUnknown, type JobChoices, type JobDetailsSaved } from '@erasure/shared';
import type { JobDetails } from '../../adapters/db/job-details.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { isoNow } from '../clock.js';
import { refuse, type DeviceDeps, type Refusal } from './deps.js';

/** The account's customers and lots for the kiosk's lists, and whether others may be typed. */
export async function jobChoicesFor(deps: Pick<DeviceDeps, 'db' | 'store'>, token: TokenRow): Promise<JobChoices> {
  const choices = await deps.store.findAccountJobChoices(deps.db, token.account_id);
  return { free_entry: choices.freeEntry, customers: choices.customers, lots: choices.lots };
}

/**
 * Job details typed or scanned at the kiosk (issue 31 item 6), for the boot's record, or with a
 * `drive_serial` for that one drive of it (a station bay). Every
 * field is checked before anything is written, and the write is the call's one statement, so a
 * refused call stores nothing. An empty field is none given: the token's default applies.
 */
export async function saveJobDetails(deps: DeviceDeps, token: TokenRow, body: Record<string, unknown>): Promise<{ ok: true; saved: JobDetailsSaved } | Refusal> {
  const parsed = parseUnknown(InternalJobDetailsRequest, body);
  if (!parsed.ok) return refuse(422, `invalid job details at ${parsed.path}: ${parsed.message}`);
  const details: JobDetails = { customer: null, lot_reference: null, asset_tag: null };
  for (const field of JOB_DETAIL_FIELDS) {
    const value = parsed.value[field];
    if (value === undefined) continue;
    const problem = jobDetailProblem(field, value);
    if (problem) return refuse(422, problem);
    details[field] = value.trim() === '' ? null : value.trim();
  }
  const choices = await deps.store.findAccountJobChoices(deps.db, token.account_id);
  if (!choices.freeEntry) {
    const unknown = unlisted(details, choices);
    if (unknown) return refuse(422, unknown);
  }
  const asset = await deps.store.findAssetByRecord(deps.db, token.account_id, parsed.value.record_id);
  if (!asset) return refuse(404, ERRORS.unknownAsset);
  const serial = parsed.value.drive_serial?.trim();
  const stored = serial
    ? await deps.store.setDriveJobDetails(deps.db, { id: asset.id }, serial, details, isoNow(deps.clock))
    : await deps.store.setAssetJobDetails(deps.db, { id: asset.id, tokenId: token.id }, details, isoNow(deps.clock));
  return { ok: true, saved: { ok: true, asset_id: asset.public_id, ...stored } };
}

/** With free entry off, a customer or lot must be one the account has; the asset tag is free. */
function unlisted(details: JobDetails, choices: { customers: string[]; lots: string[] }): string | undefined {
  for (const [field, list] of [['customer', choices.customers], ['lot_reference', choices.lots]] as const) {
    const value = details[field];
    if (value !== null && !list.includes(value)) {
      return `${JOB_DETAIL_LABELS[field]} "${value}" is not one of this account's; pick one from the list, or ask an admin to allow free entry.`;
    }
  }
  return undefined;
}
