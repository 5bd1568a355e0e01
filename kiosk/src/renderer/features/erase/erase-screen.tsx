import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { jobLine, progressRows, runHeadline } from './erase-view.js';
import { ResultSummaryList } from './result-summary.js';
import { CancelAll, CancelDrive, FinishActions } from './erase-actions.js';
import { ConfirmErase } from './confirm-erase.js';

/**
 * The typed confirmation for the selected drives (where "Next: Erase →" leads), live progress of
 * each drive while a run goes, then each drive's result.
 */
export function EraseScreen() {
  const actions = useActions();
  const snap = useKiosk((s) => s.agent.snapshot);
  const progress = useKiosk((s) => s.agent.progress);
  if (!snap) return null;
  const headline = runHeadline(snap);
  const rows = snap.run.status === 'idle' ? [] : progressRows(snap, progress);
  const job = jobLine(snap, progress);
  const idle = snap.run.status === 'idle';
  return (
    <section className="erase">
      <p className={`banner ${headline.tone}`} role="status" aria-live="polite">
        {headline.text}
      </p>
      {idle && <ConfirmErase />}
      {idle && snap.selected.length === 0 && (
        <div className="row">
          <button type="button" onClick={() => actions.goTo('drives')}>
            ← Back to Drives
          </button>
        </div>
      )}
      {job && (
        <p className="job-line" aria-label="Whole job">
          {job}
        </p>
      )}
      {snap.run.status === 'running' && <CancelAll />}
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
              <CancelDrive row={p} />
            </li>
          ))}
        </ul>
      )}
      <ResultSummaryList />
      {/* Drives ticked again after a run (one cancelled, say): their confirmation follows the last results. */}
      {snap.run.status === 'finished' && <ConfirmErase />}
      {snap.run.status === 'finished' && <FinishActions />}
    </section>
  );
}
