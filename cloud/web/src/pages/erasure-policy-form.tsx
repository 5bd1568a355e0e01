import { useState, type FormEvent } from 'react';

/** A method of the catalogue as /app/api/erasure-policy lists it. */
export interface MethodChoice {
  id: string;
  name: string;
  standard: string;
}

/** `full` | `every-pass` | `{sample: N}` (shared ErasurePolicy). */
export type VerificationLevel = 'full' | 'every-pass' | { sample: number };

export interface ErasurePolicy {
  default_method: string;
  verification: VerificationLevel;
  allowed_methods: string[];
}

/** "Full read-back of the last pass", in the words an auditor reads. */
export function describeVerification(level: VerificationLevel): string {
  if (level === 'full') return 'every sector of the last pass read back';
  if (level === 'every-pass') return 'every pass read back';
  return `${level.sample}% of each drive read back (sampled)`;
}

/** A method's contract name, or its id when the catalogue no longer has it. */
export const methodName = (methods: readonly MethodChoice[], id: string): string => methods.find((m) => m.id === id)?.name ?? id;

/**
 * The editor of one erasure policy (an account's, or a token's customer contract): the default
 * method, the verification level and the methods technicians may choose. The server checks
 * the policy again and its refusal is shown as is; the form only keeps the default allowed.
 */
export function ErasurePolicyForm({
  policy,
  methods,
  onSave,
  saveLabel,
  testId,
}: {
  policy: ErasurePolicy;
  methods: readonly MethodChoice[];
  onSave: (policy: ErasurePolicy) => Promise<void>;
  saveLabel: string;
  testId: string;
}) {
  const [defaultMethod, setDefaultMethod] = useState(policy.default_method);
  const [allowed, setAllowed] = useState<string[]>(policy.allowed_methods);
  const [level, setLevel] = useState<'full' | 'every-pass' | 'sample'>(typeof policy.verification === 'object' ? 'sample' : policy.verification);
  const [sample, setSample] = useState(typeof policy.verification === 'object' ? String(policy.verification.sample) : '10');

  const toggle = (id: string, on: boolean) => setAllowed((current) => (on ? [...current, id] : current.filter((m) => m !== id)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The number as typed: 0 or 150 reach the server, which says what is wrong.
    const verification: VerificationLevel = level === 'sample' ? { sample: Number(sample) } : level;
    void onSave({ default_method: defaultMethod, verification, allowed_methods: allowed });
  };

  return (
    <form onSubmit={submit} data-testid={testId}>
      <div className="form-row">
        <label>
          Default method
          <select className="input" value={defaultMethod} onChange={(e) => setDefaultMethod(e.target.value)} data-testid={`${testId}-default`}>
            {methods.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Verification
          <select className="input" value={level} onChange={(e) => setLevel(e.target.value as typeof level)} data-testid={`${testId}-verification`}>
            <option value="full">Full: every sector of the last pass</option>
            <option value="sample">Sample: a share of each drive</option>
            <option value="every-pass">Every pass</option>
          </select>
        </label>
        {level === 'sample' && (
          <label>
            Sample (per cent, 1 to 100)
            <input className="input" type="number" value={sample} onChange={(e) => setSample(e.target.value)} data-testid={`${testId}-sample`} />
          </label>
        )}
      </div>
      <fieldset className="method-choices">
        <legend>Methods technicians may choose</legend>
        {methods.map((m) => (
          <label key={m.id} className="inline-check">
            <input type="checkbox" checked={allowed.includes(m.id)} onChange={(e) => toggle(m.id, e.target.checked)} data-method={m.id} />
            {m.name} <span className="muted small">{m.standard}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button button-primary" data-testid={`${testId}-save`}>
        {saveLabel}
      </button>
    </form>
  );
}
