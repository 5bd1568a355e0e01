import type { ErasurePolicyGranted } from '@erasure/shared';
import type { TokenRow } from '../../adapters/db/tokens.js';
import { grantOf } from '../erasure-policy/ata-master-passwords.js';
import { policyInForce } from '../erasure-policy/policy.js';
import type { DeviceDeps } from './deps.js';

/**
 * The erasure policy a device erases under (issue 29 item 2), for the route beyond the spec that
 * the device calls once verify allowed it: the token's own policy (a customer's contract), else
 * its account's, else the built-in default. Reads only; the caller checked the token is active.
 * The token's account's ATA master passwords (issue 30 item 1) travel with it, and only here.
 */
export async function erasurePolicyFor(deps: Pick<DeviceDeps, 'db' | 'store'>, token: TokenRow): Promise<ErasurePolicyGranted> {
  const own = await deps.store.findTokenPolicyJson(deps.db, token.jti);
  const account = await deps.store.findAccountPolicyJson(deps.db, token.account_id);
  const { policy, source } = policyInForce({ token: own?.erasure_policy, account });
  const masters = grantOf(await deps.store.findMasterPasswords(deps.db, token.account_id));
  // The account's health grade table (issue 30 item 6); none saved: no field, the device grades by the default.
  const grading = await deps.store.findHealthGrading(deps.db, token.account_id);
  return { erasure_policy: policy, source, ...(masters ? { ata_master_passwords: masters } : {}), ...(grading ? { health_grading: grading } : {}) };
}
