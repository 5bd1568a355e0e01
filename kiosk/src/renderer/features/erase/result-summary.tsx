import { useKiosk } from '../../store/use-kiosk.js';
import { resultSummaries } from './result-view.js';

/** Each drive's outcome after a run: plain words, and the internals behind a Details disclosure. */
export function ResultSummaryList() {
  const snap = useKiosk((s) => s.agent.snapshot);
  if (!snap || snap.results.length === 0) return null;
  return (
    <ul className="result-list" aria-label="Results">
      {resultSummaries(snap).map((r) => (
        <li key={r.device} className={`result ${r.tone}`} data-device={r.device}>
          <span className="result-mark" aria-hidden="true">
            {r.tone === 'ok' ? '✓' : '✗'}
          </span>
          <div>
            <strong>{r.title}</strong> — <span className="verdict-text">{r.verdict}</span>
            <div className="certificate">{r.certificate}</div>
            {r.advice && <div className="advice">{r.advice}</div>}
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
  );
}
