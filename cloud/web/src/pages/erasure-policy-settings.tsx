import { useEffect, useState } from 'react';
import { getJson, sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';
import { describeVerification, ErasurePolicyForm, methodName, type ErasurePolicy, type MethodChoice } from './erasure-policy-form.js';

/** What /app/api/erasure-policy answers. */
export interface AccountPolicy {
  erasure_policy: ErasurePolicy;
  source: 'account' | 'default';
  can_edit: boolean;
  methods: MethodChoice[];
}

/** The policy in plain words: default method, verification, what may be chosen. */
export function PolicySummary({ policy, methods }: { policy: ErasurePolicy; methods: readonly MethodChoice[] }) {
  return (
    <ul className="plain-list" data-testid="policy-summary">
      <li>
        Default method: <strong>{methodName(methods, policy.default_method)}</strong>
      </li>
      <li>Verification: {describeVerification(policy.verification)}</li>
      <li>Technicians may choose: {policy.allowed_methods.map((id) => methodName(methods, id)).join(', ')}</li>
    </ul>
  );
}

/**
 * The account's erasure policy on /devices (issue 29 item 2): every machine erases with it
 * unless its device token carries a customer's contract. Admins edit it; others read it.
 */
export function ErasurePolicySettings({ onLoaded }: { onLoaded?: (data: AccountPolicy) => void }) {
  const [data, setData] = useState<AccountPolicy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    getJson<AccountPolicy>('/app/api/erasure-policy').then(
      (d) => {
        setData(d);
        onLoaded?.(d);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, []);

  const save = async (policy: ErasurePolicy) => {
    setError(null);
    setSaved(false);
    try {
      const next = await sendJson<AccountPolicy>('PUT', '/app/api/erasure-policy', policy);
      setData(next);
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section className="card" data-testid="erasure-policy">
      <h2>Erasure policy</h2>
      <p className="muted">
        How this account’s machines erase drives: the method each drive gets unless the technician picks another allowed one, and
        how much of each drive is read back to verify it. A device token with a customer’s contract uses that contract instead.
        {data?.source === 'default' && ' Your account uses the built-in policy until an admin saves its own.'}
      </p>
      {data && <PolicySummary policy={data.erasure_policy} methods={data.methods} />}
      {data && !data.can_edit && <p className="note note-info">Only account admins can change the erasure policy.</p>}
      {data?.can_edit && (
        <ErasurePolicyForm key={JSON.stringify(data.erasure_policy)} policy={data.erasure_policy} methods={data.methods} onSave={save} saveLabel="Save policy" testId="policy-form" />
      )}
      {saved && !error && <p className="note note-ok">Saved: machines checking in from now on erase with this policy.</p>}
      <ErrorNote message={error} />
    </section>
  );
}
