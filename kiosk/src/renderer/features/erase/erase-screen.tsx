import { useKiosk } from '../../store/use-kiosk.js';
import { jobLine, progressRows, resultRows, runHeadline } from './erase-view.js';

/** Live progress of each selected drive while a run goes, then each drive's result. */
export function EraseScreen() {
  const snap = useKiosk((s) => s.agent.snapshot);
  const progress = useKiosk((s) => s.agent.progress);
  if (!snap) return null;
  const headline = runHeadline(snap);
  const rows = snap.run.status === 'idle' ? [] : progressRows(snap, progress);
  const results = resultRows(snap);
  const job = jobLine(snap, progress);
  return (
    <section className="erase">
      <p className={`banner ${headline.tone}`} role="status" aria-live="polite">
        {headline.text}
      </p>
      {job && (
        <p className="job-line" aria-label="Whole job">
          {job}
        </p>
      )}
      {snap.run.status === 'running' && rows.length > 0 && (
        <ul className={rows.length > 4 ? 'progress-list many' : 'progress-list'} aria-label="Progress">
          {rows.map((p) => (
            <li key={p.device} className={`progress-item tone-${p.tone}`} data-device={p.device}>
              <div className="progress-head">
                <strong>{p.title}</strong>
                <span className="progress-stage">{p.stage}</span>
              </div>
              <div className="bar" role="progressbar" aria-label={`${p.title} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={p.percent === undefined ? undefined : Math.round(p.percent)}>
                <div className="fill" style={{ width: `${p.percent ?? 0}%` }} />
              </div>
              <div className="progress-facts muted">
                {p.percent !== undefined && <span>{Math.floor(p.percent)}%</span>}
                {p.bytes && <span>{p.bytes}</span>}
                {p.rate !== '–' && <span>{p.rate}</span>}
                {p.elapsed !== '–' && <span>{p.elapsed} elapsed</span>}
                {p.eta !== '–' && <span>{p.eta} left</span>}
              </div>
            </li>
          ))}
        </ul>
      )}
      {results.length > 0 && (
        <ul className="result-list" aria-label="Results">
          {results.map((r) => (
            <li key={r.device} className={r.passed ? 'result ok' : 'result bad'} data-device={r.device}>
              <span className="result-mark" aria-hidden="true">
                {r.passed ? '✓' : '✗'}
              </span>
              <div>
                <strong>{r.title}</strong> — {r.verdict}
                <div className="certificate">{r.certificate}</div>
                <div className="muted small">Verification: {r.verification}</div>
                {r.detail && <div className="muted small">{r.detail}</div>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
