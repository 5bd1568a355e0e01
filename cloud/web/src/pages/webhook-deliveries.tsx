import { Fragment, useEffect, useState } from 'react';
import { getJson, sendJson } from '../api.js';
import { Badge, ErrorNote, Pager, type Tone } from '../components/ui.js';
import { formatDateTime } from '../format.js';
import type { WebhookDelivery } from '../types.js';

const TONE: Record<WebhookDelivery['status'], Tone> = { delivered: 'pass', failed: 'fail', pending: 'info', skipped: 'warning' };

/** One subscription's delivery log: ledger rows newest first, each with its attempts; redeliver. */
export function WebhookDeliveries({ webhookId, canManage }: { webhookId: string; canManage: boolean }) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ deliveries: WebhookDelivery[]; page: number; pages: number; count: number } | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = () =>
    getJson<NonNullable<typeof data>>(`/app/api/webhooks/${encodeURIComponent(webhookId)}/deliveries?page=${page}`).then(setData, (e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  useEffect(() => {
    void load();
  }, [webhookId, page]);

  const redeliver = async (delivery: WebhookDelivery) => {
    setError(null);
    try {
      await sendJson('POST', `/app/api/webhooks/${encodeURIComponent(webhookId)}/deliveries/${delivery.id}/redeliver`);
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  if (!data) return <p className="muted">Loading deliveries…</p>;
  return (
    <div className="stack" data-testid="webhook-deliveries">
      <ErrorNote message={error} />
      {data.count === 0 ? (
        <p className="empty">No deliveries yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Response</th>
                <th>Last error</th>
                <th>Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.deliveries.map((d) => (
                <Fragment key={d.id}>
                  <tr>
                    <td className="mono" title={d.event_id}>
                      {d.event_id.slice(0, 8)}…
                    </td>
                    <td>
                      <Badge tone={TONE[d.status]}>{d.status}</Badge>
                      {d.status === 'pending' && d.next_attempt_at && <div className="muted">next {formatDateTime(d.next_attempt_at)}</div>}
                    </td>
                    <td>{d.attempts}</td>
                    <td>{d.response_code ?? <span className="muted">—</span>}</td>
                    <td>{d.last_error ?? <span className="muted">—</span>}</td>
                    <td className="nowrap">{formatDateTime(d.created_at)}</td>
                    <td className="actions">
                      <button type="button" className="button button-small button-ghost" onClick={() => setOpen(open === d.id ? null : d.id)}>
                        {open === d.id ? 'Hide' : 'Details'}
                      </button>
                      {canManage && d.status !== 'pending' && (
                        <button type="button" className="button button-small" onClick={() => void redeliver(d)}>
                          Redeliver
                        </button>
                      )}
                    </td>
                  </tr>
                  {open === d.id && (
                    <tr>
                      <td colSpan={7}>
                        <table className="table">
                          <thead>
                            <tr>
                              <th>Attempt</th>
                              <th>Outcome</th>
                              <th>Response</th>
                              <th>Error</th>
                              <th>Took</th>
                              <th>At</th>
                            </tr>
                          </thead>
                          <tbody>
                            {d.attempt_log.map((a) => (
                              <tr key={a.attempt}>
                                <td>{a.attempt}</td>
                                <td>
                                  <Badge tone={a.outcome === 'delivered' ? 'pass' : 'fail'}>{a.outcome}</Badge>
                                </td>
                                <td>{a.response_code ?? '—'}</td>
                                <td>{a.error ?? '—'}</td>
                                <td>{a.duration_ms} ms</td>
                                <td className="nowrap">{formatDateTime(a.attempted_at)}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                        <pre className="mono">{JSON.stringify(d.payload, null, 2)}</pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={data.page} pages={data.pages} onPage={setPage} />
    </div>
  );
}
