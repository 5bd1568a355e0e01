import { InternalValidationPickRequest, parseUnknown, type ValidationPickAnswer } from '@erasure/shared';
import type { SqlRunner } from '../../adapters/sql/database.js';
import type { TokenRow } from '../../adapters/db/tokens.js';
import type { ValidationStore } from './sampling.js';
import { expectedContentOf } from './expected-content.js';

export type ValidationPickOutcome = { ok: true; answer: ValidationPickAnswer } | { ok: false; status: 422; error: string };

/**
 * Whether a drive is to be validated (issue 29), asked by the validate mode with the drive's
 * serial only: its latest certified wipe in the token's account, and whether that wipe is in a
 * lot's sample. A picked drive comes with its certificate number and what its method left, so
 * the image reads it against that without anyone typing either. Reads only, spends no quota.
 */
export async function pickForValidation(
  deps: { db: SqlRunner; store: ValidationStore },
  token: TokenRow,
  body: Record<string, unknown>,
): Promise<ValidationPickOutcome> {
  const parsed = parseUnknown(InternalValidationPickRequest, body);
  if (!parsed.ok) return { ok: false, status: 422, error: `invalid validation pick request at ${parsed.path}: ${parsed.message}` };
  const serial = parsed.value.drive_serial.trim();
  if (serial === '') return { ok: false, status: 422, error: 'drive_serial is empty' };

  const wipe = await deps.store.findLatestCertifiedWipeBySerial(deps.db, token.account_id, serial);
  if (!wipe || !wipe.certificate_number) {
    return { ok: true, answer: { picked: false, reason: `No certified erasure of drive ${serial} is recorded for this account, so there is nothing to validate.` } };
  }
  if (!wipe.sampled || !wipe.lot_public_id) {
    return {
      ok: true,
      answer: { picked: false, reason: `Drive ${serial} was erased (certificate ${wipe.certificate_number}) but was not picked for validation.` },
    };
  }
  const expect = expectedContentOf(wipe.wipe_method, wipe.technique);
  if (!expect) {
    return {
      ok: true,
      answer: { picked: false, reason: `Drive ${serial} was picked, but its method (${wipe.wipe_method ?? 'none recorded'}) is not one whose result can be predicted, so it cannot be validated here.` },
    };
  }
  return {
    ok: true,
    answer: {
      picked: true,
      certificate_number: wipe.certificate_number,
      lot_id: wipe.lot_public_id,
      wipe_method: wipe.wipe_method ?? '',
      expect,
      validation: wipe.outcome,
    },
  };
}
