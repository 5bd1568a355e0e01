import { useState, type FormEvent } from 'react';
import { sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';

/** The terms of minted device tokens, as /app/api/downloads shows them. */
export interface TokenTerms {
  quota: number | 'unlimited';
  lifetime_days: number;
  source: 'account' | 'default';
}

export interface TermsBounds {
  quota: { min: number; max: number };
  lifetime_days: { min: number; max: number };
}

/** "100 check-ins, valid 90 days", in the page's words. */
export function describeTerms(terms: TokenTerms): string {
  const quota = terms.quota === 'unlimited' ? 'unlimited check-ins' : `${terms.quota} check-in${terms.quota === 1 ? '' : 's'}`;
  return `${quota}, valid ${terms.lifetime_days} day${terms.lifetime_days === 1 ? '' : 's'}`;
}

/**
 * The account admin's form for the quota and lifetime of every device token minted from now on.
 * Unlimited is a separate, deliberate box to tick: an empty or zero quota is refused by the
 * server rather than read as unlimited.
 */
export function TokenTermsSettings({ terms, bounds, onSaved }: { terms: TokenTerms; bounds: TermsBounds; onSaved: (terms: TokenTerms) => void }) {
  const [quota, setQuota] = useState(terms.quota === 'unlimited' ? '' : String(terms.quota));
  const [unlimited, setUnlimited] = useState(terms.quota === 'unlimited');
  const [lifetime, setLifetime] = useState(String(terms.lifetime_days));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const next = await sendJson<TokenTerms>('PUT', '/app/api/downloads/token-settings', {
        quota: unlimited ? 'unlimited' : Number(quota),
        lifetime_days: Number(lifetime),
      });
      setSaved(true);
      onSaved(next);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section className="card" data-testid="token-terms">
      <h2>Device token terms</h2>
      <p className="muted">
        Every device token downloaded from this page gets these terms: how many check-ins it may spend (an engine run or a hotswap
        drive each spend one) and how long it works. Tokens already handed out keep theirs.
        {terms.source === 'default' && ' Your account uses this server’s defaults until you save your own.'}
      </p>
      <form className="form-row" onSubmit={(e) => void save(e)}>
        <label>
          Check-ins per token
          <input
            className="input"
            type="number"
            min={bounds.quota.min}
            max={bounds.quota.max}
            step={1}
            required={!unlimited}
            disabled={unlimited}
            value={unlimited ? '' : quota}
            onChange={(e) => setQuota(e.target.value)}
            data-testid="terms-quota"
          />
        </label>
        <label>
          Valid for (days)
          <input
            className="input"
            type="number"
            min={bounds.lifetime_days.min}
            max={bounds.lifetime_days.max}
            step={1}
            required
            value={lifetime}
            onChange={(e) => setLifetime(e.target.value)}
            data-testid="terms-lifetime"
          />
        </label>
        <label className="inline-check">
          <input type="checkbox" checked={unlimited} onChange={(e) => setUnlimited(e.target.checked)} data-testid="terms-unlimited" />
          No check-in limit (unlimited)
        </label>
        <button type="submit" className="button button-primary" data-testid="terms-save">
          Save terms
        </button>
      </form>
      {unlimited && (
        <p className="note note-warning">
          An unlimited token can erase any number of machines until it expires or you revoke it on the Devices page.
        </p>
      )}
      {saved && !error && <p className="note note-ok">Saved: new tokens get {describeTerms(terms)}.</p>}
      <ErrorNote message={error} />
    </section>
  );
}
