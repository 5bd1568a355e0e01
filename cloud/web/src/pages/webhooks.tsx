import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api.js';
import { Badge, ErrorNote, PageHeader, type Tone } from '../components/ui.js';
import { formatDateTime } from '../format.js';
import type { Webhook, WebhooksPage as WebhooksAnswer } from '../types.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

const HEALTH: Record<Webhook['health'], { tone: Tone; label: string }> = {
  healthy: { tone: 'pass', label: 'Healthy' },
  failing: { tone: 'warning', label: 'Failing' },
  auto_disabled: { tone: 'fail', label: 'Auto-disabled' },
  disabled: { tone: 'neutral', label: 'Disabled' },
};

/** The row's last test ping: muted when it was answered, in the failure colour when not. */
function PingResult({ result }: { result: { ok: boolean; text: string } | undefined }) {
  if (!result) return null;
  return (
    <div className={result.ok ? 'muted' : 'text-fail'} data-testid="ping-result">
      Test ping {result.text}
    </div>
  );
}

/**
 * `/webhooks`: subscriptions per event type (spec 2, 6), their health, the delivery log, manual
 * redelivery and a test ping. An auto-disabled subscription is shown in a banner with its last
 * error; enabling it redelivers what failed or was skipped, oldest first.
 */
export function WebhooksPage() {
  const [data, setData] = useState<WebhooksAnswer | null>(null);
  const [form, setForm] = useState({ event_type: 'wipe_session_completed', url: '', auth_type: 'none', token: '', username: '', password: '' });
  /** Further events for the same subscription (issue 28, item 16): one webhook can take all six. */
  const [also, setAlso] = useState<string[]>([]);
  const [created, setCreated] = useState<(Webhook & { signing_secret: string; previous_secret_expires_at: string | null; rotated?: boolean }) | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The last test ping's outcome per webhook id, shown in its row until the page is left. */
  const [pings, setPings] = useState<Record<string, { ok: boolean; text: string }>>({});
  const [error, setError] = useState<string | null>(null);

  const load = () => getJson<WebhooksAnswer>('/app/api/webhooks').then(setData);
  useEffect(() => {
    void load();
  }, []);

  const act = async (work: () => Promise<string | void>) => {
    setError(null);
    setNotice(null);
    try {
      const message = await work();
      if (message) setNotice(message);
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    // Checked here, not by the browser's `required`: an empty URL replaces an earlier error with its own (issue 28, item 16).
    if (form.url.trim() === '') {
      setNotice(null);
      setError('Enter the URL of the receiver, for example https://example.com/hooks/erasure.');
      return;
    }
    void act(async () => {
      const more = also.filter((type) => type !== form.event_type);
      const body = more.length > 0 ? { ...form, event_types: [form.event_type, ...more] } : form;
      setCreated(await sendJson<Webhook & { signing_secret: string }>('POST', '/app/api/webhooks', body));
      setForm({ ...form, url: '', token: '', username: '', password: '' });
      setAlso([]);
    });
  };
  const path = (hook: Webhook, suffix = '') => `/app/api/webhooks/${encodeURIComponent(hook.id)}${suffix}`;
  const enable = (hook: Webhook) =>
    act(async () => {
      const { reconciled } = await sendJson<{ reconciled: number }>('POST', path(hook, '/enable'));
      return reconciled > 0 ? `Enabled: redelivering ${reconciled} event(s), oldest first.` : 'Enabled.';
    });
  // A failed ping is a failure (danger note and red row text), in the categories Push uses; it
  // does not change the health column, which counts real deliveries only (spec 4.6), so say so.
  const ping = (hook: Webhook) =>
    act(async () => {
      const answer = await sendJson<{ ok: boolean; response_code?: number; error?: string }>('POST', path(hook, '/test'));
      const text = answer.ok ? `answered HTTP ${answer.response_code}` : `failed: ${answer.error}`;
      setPings((shown) => ({ ...shown, [hook.id]: { ok: answer.ok, text } }));
      if (!answer.ok) {
        throw new Error(`Test ping to ${hook.url} failed: ${answer.error}. Test pings do not change the webhook's health; fix the receiver and test again.`);
      }
      return `Test ping answered HTTP ${answer.response_code}.`;
    });
  const rotate = (hook: Webhook) => {
    if (window.confirm(`Rotate the signing secret of the ${hook.event_type} webhook? The current secret keeps signing beside the new one for a rollover window.`)) {
      void act(async () => {
        setCreated({ ...(await sendJson<Webhook & { signing_secret: string }>('POST', path(hook, '/rotate-secret'))), rotated: true });
      });
    }
  };
  const remove = (hook: Webhook) => {
    if (window.confirm(`Delete the ${hook.event_type} webhook to ${hook.url}? Its delivery log goes with it.`)) {
      void act(async () => void (await sendJson('DELETE', path(hook))));
    }
  };

  const disabled = data?.webhooks.filter((h) => h.health === 'auto_disabled') ?? [];
  return (
    <>
      <PageHeader title="Webhooks" subtitle="Signed POSTs (X-Erase-Engine-Signature) to your endpoints when things happen in your account." />
      {disabled.map((hook) => (
        <div key={hook.id} className="note note-danger" role="alert" data-testid="auto-disabled">
          <strong>
            {hook.event_type} → {hook.url} was disabled after {hook.failure_count} failed deliveries in a row
          </strong>{' '}
          ({formatDateTime(hook.auto_disabled_at)}). Last error: {hook.last_error ?? 'unknown'}.{' '}
          {data?.can_manage && (
            <button type="button" className="button button-small" onClick={() => void enable(hook)}>
              Re-enable and redeliver
            </button>
          )}
        </div>
      ))}
      {notice && <p className="note note-info">{notice}</p>}
      <ErrorNote message={error} />
      {data?.can_manage && (
        <section className="card">
          <h2>Add a webhook</h2>
          <form className="form-row" onSubmit={create}>
            <label>
              Event
              <select className="input" value={form.event_type} onChange={(e) => setForm({ ...form, event_type: e.target.value })}>
                {data.event_types.map((type) => (
                  <option key={type}>{type}</option>
                ))}
              </select>
            </label>
            <label className="grow">
              URL
              <input className="input" placeholder="https://example.com/hooks/erasure" value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} />
            </label>
            <label>
              Authorization
              <select className="input" value={form.auth_type} onChange={(e) => setForm({ ...form, auth_type: e.target.value })}>
                {data.auth_types.map((type) => (
                  <option key={type}>{type}</option>
                ))}
              </select>
            </label>
            {form.auth_type === 'bearer' && (
              <label>
                Bearer token
                <input className="input" required value={form.token} onChange={(e) => setForm({ ...form, token: e.target.value })} />
              </label>
            )}
            {form.auth_type === 'basic' && (
              <>
                <label>
                  Username
                  <input className="input" required value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
                </label>
                <label>
                  Password
                  <input className="input" type="password" required value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
                </label>
              </>
            )}
            <button type="submit" className="button button-primary">
              Add webhook
            </button>
            <fieldset className="event-more" data-testid="more-events">
              <legend>Also send (optional): one webhook can take several events</legend>
              {data.event_types
                .filter((type) => type !== form.event_type)
                .map((type) => (
                  <label key={type} className="inline-check">
                    <input
                      type="checkbox"
                      checked={also.includes(type)}
                      onChange={(e) => setAlso(e.target.checked ? [...also, type] : also.filter((t) => t !== type))}
                    />
                    {type}
                  </label>
                ))}
              <button type="button" className="link-button" onClick={() => setAlso(data.event_types.filter((type) => type !== form.event_type))}>
                All {data.event_types.length} events
              </button>
            </fieldset>
          </form>
          {created && (
            <div className="note note-info minted" data-testid="signing-secret">
              <strong>
                {created.rotated ? 'New signing secret' : 'Signing secret'} of {created.id}: copy it now, it is shown only once.
              </strong>
              <div className="secret-row">
                <code className="secret">{created.signing_secret}</code>
              </div>
              {created.rotated && created.previous_secret_expires_at && (
                <div data-testid="rollover">
                  Until {formatDateTime(created.previous_secret_expires_at)} every delivery carries both signatures (new first, space-separated), so
                  your receiver can switch to the new secret without missing one.
                </div>
              )}
            </div>
          )}
        </section>
      )}
      <div className="table-wrap">
        <table className="table" data-testid="webhooks-table">
          <thead>
            <tr>
              <th>Event</th>
              <th>URL</th>
              <th>Auth</th>
              <th>Health</th>
              <th>Last error</th>
              <th>Last success</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.webhooks.map((hook) => (
              <tr key={hook.id}>
                <td className="strong" data-testid="webhook-events">
                  {(hook.event_types ?? [hook.event_type]).map((type) => (
                    <div key={type}>{type}</div>
                  ))}
                </td>
                <td className="mono">{hook.url}</td>
                <td>{hook.auth_type}</td>
                <td>
                  <Badge tone={HEALTH[hook.health].tone}>{HEALTH[hook.health].label}</Badge>
                  {hook.failure_count > 0 && <div className="muted">{hook.failure_count} consecutive failures</div>}
                  {hook.pending_deliveries > 0 && <div className="muted">{hook.pending_deliveries} pending</div>}
                  <PingResult result={pings[hook.id]} />
                </td>
                <td>{hook.last_error ? `${hook.last_error} (${formatDateTime(hook.last_error_at)})` : <span className="muted">—</span>}</td>
                <td className="nowrap">{hook.last_success_at ? formatDateTime(hook.last_success_at) : <span className="muted">Never</span>}</td>
                <td className="actions">
                  <button type="button" className="button button-small button-ghost" onClick={() => setShown(shown === hook.id ? null : hook.id)}>
                    {shown === hook.id ? 'Hide log' : 'Deliveries'}
                  </button>
                  {data.can_manage && (
                    <>
                      <button type="button" className="button button-small" onClick={() => void ping(hook)}>
                        Test
                      </button>
                      {hook.active ? (
                        <button type="button" className="button button-small" onClick={() => void act(async () => void (await sendJson('POST', path(hook, '/disable'))))}>
                          Disable
                        </button>
                      ) : (
                        <button type="button" className="button button-small" onClick={() => void enable(hook)}>
                          Enable
                        </button>
                      )}
                      <button type="button" className="button button-small" onClick={() => rotate(hook)}>
                        Rotate secret
                      </button>
                      <button type="button" className="button button-small button-danger" onClick={() => remove(hook)}>
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.webhooks.length === 0 && <p className="empty">No webhooks yet.</p>}
      </div>
      {shown && (
        <section className="card">
          <h2>Deliveries of {shown}</h2>
          <WebhookDeliveries webhookId={shown} canManage={data?.can_manage ?? false} />
        </section>
      )}
    </>
  );
}
