import { useState } from 'react';
import { JobDetailsForm } from '../notes/job-details-form.js';
import type { StationView } from '../../contract.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { bayGrid, eraseWaiting, locateNote, POLICY_TEXT, unmappedRows, type BayCell } from './bay-view-model.js';

/** The bays laid out like the chassis, each in its one state, with what the agent allows on it. */
export function BayView({ station }: { station: StationView }) {
  const grid = bayGrid(station);
  const note = locateNote(station);
  const unmapped = unmappedRows(station);
  // Issue 31 item 6, per bay: one form under the grid, for the bay the operator picked.
  const [tagging, setTagging] = useState<string | undefined>(undefined);
  const picked = grid.cells.find((c) => c.lane === tagging && c.jobSerial);
  const waiting = eraseWaiting(station);
  const actions = useActions();
  const busy = useKiosk((s) => s.station.busy);
  return (
    <div className="bay-view" data-screen="bay-view">
      <div className="bay-view-head">
        <h2>{station.map?.name ?? 'Bays'}</h2>
        <span className="policy" data-policy={station.policy}>
          {POLICY_TEXT[station.policy]}
        </span>
        <button type="button" className="danger-btn bay-confirm-waiting" onClick={() => void actions.station({ type: 'bay_confirm_waiting' })} disabled={busy || waiting.count === 0}>
          {waiting.text}
        </button>
      </div>
      <div className="bay-scroll">
        <ul className="bay-grid" aria-label="Bays" style={{ gridTemplateColumns: `repeat(${grid.columns}, minmax(7rem, 1fr))`, gridTemplateRows: `repeat(${grid.rows}, auto)` }}>
          {grid.cells.map((c) => (
            <BayCard key={c.lane} cell={c} onJobDetails={() => setTagging(c.lane)} />
          ))}
        </ul>
      </div>
      {picked && (
        <section className="bay-job-details" aria-label={`Job details for ${picked.label}`} data-testid="bay-job-details">
          <h2 className="section-title">
            {picked.label}: customer, lot and asset tag for this drive only
          </h2>
          <JobDetailsForm key={picked.jobSerial} allowed scope="bay" driveSerial={picked.jobSerial} idPrefix={`bay-${picked.lane}`} />
          <button type="button" className="bay-job-close" onClick={() => setTagging(undefined)}>
            Close
          </button>
        </section>
      )}
      <Legend note={note} />
      {unmapped.length > 0 && (
        <section className="unmapped" aria-label="Drives in unmapped slots">
          <h2 className="section-title">Drives in unmapped slots (never erased)</h2>
          <ul>
            {unmapped.map((u) => (
              <li key={u.key}>{u.text}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function BayCard({ cell, onJobDetails }: { cell: BayCell; onJobDetails: () => void }) {
  const actions = useActions();
  const busy = useKiosk((s) => s.station.busy);
  // Cancel is asked twice, as the kiosk's own erase asks: the button, then "Stop erasing this drive?".
  const [asking, setAsking] = useState(false);
  const send = (type: 'bay_confirm' | 'bay_cancel' | 'bay_locate') => void actions.station({ type, lane: cell.lane });
  const hasActions = cell.canConfirm || cell.canLeave || cell.canStop;
  return (
    <li className="bay" data-state={cell.state} data-lane={cell.lane} title={cell.tooltip} style={{ gridRow: cell.row + 1, gridColumn: cell.column + 1 }}>
      <div className="bay-head">
        <strong className="bay-label">{cell.label}</strong>
        {cell.canLocate && (
          <button type="button" className="bay-locate" onClick={() => send('bay_locate')} disabled={busy}>
            Locate
          </button>
        )}
      </div>
      <div className="bay-state">{cell.headline}</div>
      {cell.percent !== undefined && (
        <div className="bar" role="progressbar" aria-label={`${cell.label} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(cell.percent)}>
          <div className="fill" style={{ width: `${cell.percent}%` }} />
        </div>
      )}
      {cell.lines.map((line, i) => (
        <div key={i} className={i === 0 ? 'bay-line first' : 'bay-line'}>
          {line}
        </div>
      ))}
      {cell.drive && <div className="bay-drive">{cell.drive}</div>}
      {cell.jobSerial && (
        <button type="button" className="bay-job" onClick={onJobDetails}>
          Lot / asset tag
        </button>
      )}
      {hasActions && (
        <div className="bay-actions">
          {cell.canConfirm && (
            <button type="button" className="danger-btn bay-confirm" onClick={() => send('bay_confirm')} disabled={busy}>
              Erase this drive
            </button>
          )}
          {cell.canLeave && (
            <button type="button" className="bay-leave" onClick={() => send('bay_cancel')} disabled={busy}>
              Leave it
            </button>
          )}
          {cell.canStop && !asking && (
            <button type="button" className="bay-cancel" onClick={() => setAsking(true)} disabled={busy}>
              Cancel
            </button>
          )}
          {cell.canStop && asking && (
            <div className="confirm-inline" role="alertdialog" aria-label={`Cancel ${cell.label}`}>
              <span>Stop erasing this drive? It will not be certified.</span>
              <button
                type="button"
                className="danger-btn bay-stop"
                onClick={() => {
                  setAsking(false);
                  send('bay_cancel');
                }}
                disabled={busy}
              >
                Stop this drive
              </button>
              <button type="button" className="bay-keep" onClick={() => setAsking(false)}>
                Keep erasing
              </button>
            </div>
          )}
        </div>
      )}
    </li>
  );
}

const SWATCHES = [
  ['erasing', 'Erasing or verifying'],
  ['awaiting_confirmation', 'Waiting for confirmation'],
  ['passed', 'Passed'],
  ['failed', 'Failed or removed'],
  ['cancelled', 'Cancelled'],
] as const;

function Legend({ note }: { note: string | undefined }) {
  return (
    <div className="bay-legend muted small">
      {SWATCHES.map(([state, text]) => (
        <span key={state} className="legend-item">
          <span className="swatch" data-state={state} aria-hidden="true" /> {text}
        </span>
      ))}
      {note && <span className="legend-note">{note}</span>}
    </div>
  );
}
