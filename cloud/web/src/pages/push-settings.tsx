import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api.js';
import { ErrorNote } from '../components/ui.js';

interface PushTarget {
  configured: boolean;
  url: string | null;
  updated_at?: string | null;
  generated_secret?: string | null;
}

/**
 * The account admin's push target: a URL and a shared secret. Pushes are signed like webhooks
 * (X-Erase-Engine-Signature over "<timestamp>.<body>"), so the receiver verifies them alike.
 */
export function PushSettings({ onSaved }: { onSaved: () => void }) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [current, setCurrent] = useState<PushTarget | null>(null);
  const [generated, setGenerated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void getJson<PushTarget>('/app/api/integrations/push').then((target) => {
      setCurrent(target);
      // An address typed before this answer came is the user's: the stored one only fills an empty field.
      setUrl((typed) => (typed === '' ? (target.url ?? '') : typed));
    });
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const saved = await sendJson<PushTarget>('PUT', '/app/api/integrations/push', { url, secret });
      setCurrent(saved);
      setGenerated(saved.generated_secret ?? null);
      setSecret('');
      onSaved();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const remove = async () => {
    await sendJson('DELETE', '/app/api/integrations/push');
    setCurrent({ configured: false, url: null });
    setUrl('');
    onSaved();
  };

  return (
    <section className="card">
      <h2>Push integration</h2>
      <p className="muted">
        Selected rows are sent as one signed JSON POST (header <code>X-Erase-Engine-Signature</code>, HMAC-SHA256 of
        <code> timestamp.body</code> with the secret below).
      </p>
      <form className="form-row" onSubmit={(e) => void save(e)}>
        <label className="grow">
          Endpoint URL
          <input className="input" type="url" required placeholder="https://erp.example.com/hooks/wipes" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <label>
          Secret
          <input
            className="input"
            type="password"
            autoComplete="off"
            placeholder={current?.configured ? 'Leave blank to generate a new one' : 'Leave blank to generate one'}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        </label>
        <button type="submit" className="button button-primary">
          Save
        </button>
        {current?.configured && (
          <button type="button" className="button button-ghost" onClick={() => void remove()}>
            Remove
          </button>
        )}
      </form>
      {generated && (
        <p className="note note-info">
          Generated secret (shown once): <code className="secret">{generated}</code>
        </p>
      )}
      <ErrorNote message={error} />
    </section>
  );
}
