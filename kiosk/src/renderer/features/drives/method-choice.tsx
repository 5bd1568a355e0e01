import type { ErasureChoice } from '../../contract.js';

type Ready = Extract<ErasureChoice, { status: 'ready' }>;

/**
 * The erase method of one drive, by the name contracts use ("DoD 5220.22-M (3 passes)"): the
 * policy's default until the operator picks another. Only the methods the policy allows are
 * offered; the agent checks the choice again and a refusal shows on this step in its words.
 */
export function MethodChoice({ device, erasure, disabled, onChoose }: { device: string; erasure: Ready; disabled: boolean; onChoose: (device: string, method: string) => void }) {
  const current = erasure.methods[device] ?? erasure.default_method;
  const chosen = erasure.allowed.find((m) => m.id === current);
  return (
    <div className="method-choice" data-testid="method-choice">
      <label>
        <span className="method-label">Method</span>
        <select value={current} disabled={disabled || erasure.allowed.length < 2} onChange={(e) => onChoose(device, e.target.value)} aria-label={`Erase method for ${device}`}>
          {erasure.allowed.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
              {m.id === erasure.default_method ? ' (default)' : ''}
            </option>
          ))}
        </select>
      </label>
      <span className="muted small">
        {chosen ? `${chosen.standard} · ` : ''}
        {erasure.verification} · set by {erasure.source}
      </span>
      {erasure.refusals[device] && (
        <p className="error method-refused" data-testid="method-refused">
          Not erased with this method: {erasure.refusals[device]}.
        </p>
      )}
    </div>
  );
}

/** Why nothing can be erased on this machine now: no erasure policy could be read (fail closed). */
export function PolicyBlocked({ reason }: { reason: string }) {
  return (
    <div className="banner bad" role="alert" data-testid="policy-blocked">
      <strong>Nothing can be erased on this machine right now.</strong> It has no erasure policy it can use, so it will not write to any drive.
      <details>
        <summary>Details</summary>
        <p>{reason}</p>
      </details>
    </div>
  );
}
