import { useState } from 'react';
import { sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';
import type { Device } from '../types.js';
import { describeVerification, ErasurePolicyForm, methodName, type ErasurePolicy, type MethodChoice } from './erasure-policy-form.js';
import type { AccountPolicy } from './erasure-policy-settings.js';

/** A token's policy in one cell: its contract's method and verification, or the account's. */
export function TokenPolicyCell({ policy, methods }: { policy: ErasurePolicy | null; methods: readonly MethodChoice[] }) {
  if (!policy) return <div className="muted" data-testid="token-policy">Account policy</div>;
  return (
    <div data-testid="token-policy">
      <div className="strong">Contract: {methodName(methods, policy.default_method)}</div>
      <div className="muted small">{describeVerification(policy.verification)}</div>
    </div>
  );
}

/**
 * An admin sets a device token's own erasure policy (a customer's contract), or lets it follow
 * the account's policy again. Machines using the token pick it up at their next boot.
 */
export function TokenPolicyEditor({ device, account, onSaved }: { device: Device; account: AccountPolicy; onSaved: (policy: ErasurePolicy | null) => void }) {
  const [error, setError] = useState<string | null>(null);
  const put = async (policy: ErasurePolicy | null) => {
    setError(null);
    try {
      const answer = await sendJson<{ erasure_policy: ErasurePolicy | null }>('PUT', `/app/api/devices/${encodeURIComponent(device.jti)}/erasure-policy`, { erasure_policy: policy });
      onSaved(answer.erasure_policy);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div data-testid="token-policy-editor">
      <p className="muted">
        A customer’s contract for the machines using {device.prefix_id}: they erase with it instead of the account’s policy, from their next boot.
      </p>
      <ErasurePolicyForm policy={device.erasure_policy ?? account.erasure_policy} methods={account.methods} onSave={put} saveLabel="Save contract" testId="token-policy-form" />
      {device.erasure_policy && (
        <button type="button" className="button button-ghost" onClick={() => void put(null)} data-testid="token-policy-clear">
          Use the account policy again
        </button>
      )}
      <ErrorNote message={error} />
    </div>
  );
}
