import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api.js';
import { Badge, ErrorNote, PageHeader } from '../components/ui.js';
import { formatDateTime } from '../format.js';
import type { ApiKey } from '../types.js';

/** The server's limit on a key name (api-key-issuance.ts), said beside the field. */
const NAME_MAX = 100;

/** `/api_tokens`: public API keys (spec 5.3). A new key is shown once; only its hash is kept. */
export function ApiTokensPage() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [canManage, setCanManage] = useState(false);
  const [name, setName] = useState('');
  const [minted, setMinted] = useState<(ApiKey & { api_key: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const load = () =>
    getJson<{ keys: ApiKey[]; can_manage: boolean }>('/app/api/api-keys').then((value) => {
      setKeys(value.keys);
      setCanManage(value.can_manage);
    });
  useEffect(() => {
    void load();
  }, []);

  const mint = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setMinted(await sendJson<ApiKey & { api_key: string }>('POST', '/app/api/api-keys', { name }));
      setCopied(false);
      setName('');
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke "${key.name}"? Requests with it fail immediately.`)) return;
    try {
      await sendJson('POST', `/app/api/api-keys/${encodeURIComponent(key.id)}/revoke`);
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <>
      <PageHeader title="API tokens" subtitle="Keys for the read-only public API (/api/v1): send them as Authorization: Bearer <key>." />
      <p className="api-docs-links" data-testid="api-docs-links">
        How to use them: the <a href="/api/v1/docs">API documentation</a> lists every endpoint with its parameters and answers, and{' '}
        <a href="/api/v1/openapi.json">openapi.json</a> describes them for code generators and API clients (OpenAPI 3.1).
      </p>
      {canManage && (
        <section className="card">
          <h2>Create a key</h2>
          <form className="form-row" onSubmit={(e) => void mint(e)}>
            <label>
              Name
              <input className="input" placeholder="e.g. ERP sync" maxLength={NAME_MAX} value={name} onChange={(e) => setName(e.target.value)} aria-describedby="key-name-hint" />
              <span id="key-name-hint" className={name.length >= NAME_MAX ? 'small text-fail' : 'muted small'} data-testid="key-name-hint">
                {name.length >= NAME_MAX ? `At the limit: names are at most ${NAME_MAX} characters, and no more can be typed.` : `${name.length} of ${NAME_MAX} characters`}
              </span>
            </label>
            <button type="submit" className="button button-primary">
              Create key
            </button>
          </form>
          {minted && (
            <div className="note note-info minted" data-testid="minted-key">
              <strong>Copy this key now: it is shown only once.</strong>
              <div className="secret-row">
                <code className="secret">{minted.api_key}</code>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => void navigator.clipboard?.writeText(minted.api_key).then(() => setCopied(true))}
                >
                  {copied ? 'Copied' : 'Copy'}
                </button>
              </div>
            </div>
          )}
          <ErrorNote message={error} />
        </section>
      )}
      <div className="table-wrap">
        <table className="table" data-testid="api-keys-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Created by</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Status</th>
              {canManage && <th />}
            </tr>
          </thead>
          <tbody>
            {keys?.map((key) => (
              <tr key={key.id}>
                <td className="strong">{key.name}</td>
                <td className="mono">{key.key_prefix}…</td>
                <td>{key.created_by ?? <span className="muted">operator CLI</span>}</td>
                <td className="nowrap">{formatDateTime(key.created_at)}</td>
                <td className="nowrap">{key.last_used_at ? formatDateTime(key.last_used_at) : <span className="muted">Never</span>}</td>
                <td>{key.revoked_at ? <Badge tone="neutral">Revoked {formatDateTime(key.revoked_at)}</Badge> : <Badge tone="pass">Active</Badge>}</td>
                {canManage && (
                  <td className="actions">
                    {!key.revoked_at && (
                      <button type="button" className="button button-small button-danger" onClick={() => void revoke(key)}>
                        Revoke
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {keys && keys.length === 0 && <p className="empty">No API keys yet.</p>}
      </div>
    </>
  );
}
