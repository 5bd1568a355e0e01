import { useState } from 'react';
import { useKiosk } from '../../store/use-kiosk.js';
import { deliveryNotice, resultSummaries } from './result-view.js';

/** While results wait on this machine: keep it on, and a Send now that says what the try did. */
function DeliveryNotice() {
  const snap = useKiosk((s) => s.agent.snapshot);
  const actions = useKiosk((s) => s.actions);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<string | undefined>(undefined);
  const notice = snap ? deliveryNotice(snap) : undefined;
  if (!notice) return null;
  const send = async () => {
    setBusy(true);
    setAnswer(undefined);
    const r = await actions.sendResults();
    setBusy(false);
    setAnswer(r.ok ? undefined : `Not sent yet: ${r.error}`);
  };
  return (
    <div className="delivery-notice banner info" role="status" aria-label="Results not sent yet">
      <p>{notice}</p>
      <button type="button" className="primary" disabled={busy} onClick={() => void send()}>
        {busy ? 'Sending…' : 'Send now'}
      </button>
      {answer && <p className="advice">{answer}</p>}
    </div>
  );
}

/** Each drive's outcome after a run: plain words, and the internals behind a Details disclosure. */
export function ResultSummaryList() {
  const snap = useKiosk((s) => s.agent.snapshot);
  if (!snap || snap.results.length === 0) return null;
  return (
    <>
      <DeliveryNotice />
      <ul className="result-list" aria-label="Results">
        {resultSummaries(snap).map((r) => (
          <li key={r.device} className={`result ${r.tone}`} data-device={r.device}>
            <span className="result-mark" aria-hidden="true">
              {r.tone === 'ok' ? '✓' : r.tone === 'cancelled' ? '–' : '✗'}
            </span>
            <div>
              <strong>{r.title}</strong> — <span className="verdict-text">{r.verdict}</span>
              <div className="certificate">{r.certificate}</div>
              {r.advice && <div className="advice">{r.advice}</div>}
              {r.health && (
                <div className={`health-grade grade-${r.health.grade}`} data-testid="health-grade">
                  <span className="grade-badge" aria-hidden="true">{r.health.grade}</span>
                  <div>
                    <span className="grade-headline">{r.health.headline}</span>
                    {r.health.reasons.length > 0 && (
                      <ul className="grade-reasons">
                        {r.health.reasons.map((text) => (
                          <li key={text}>{text}</li>
                        ))}
                      </ul>
                    )}
                  </div>
                </div>
              )}
              <details className="result-details">
                <summary>Details</summary>
                <dl>
                  {r.details.map(([label, value]) => (
                    <div key={label}>
                      <dt>{label}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
