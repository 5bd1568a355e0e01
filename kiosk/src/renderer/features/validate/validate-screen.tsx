import { useEffect, useState } from 'react';
import type { ValidationDeskView } from '@erasure/shared/contracts';
import { formatBytes } from '../../format.js';
import { useActions, useKiosk } from '../../store/use-kiosk.js';
import { validateRows } from './validate-view.js';

/**
 * "Validate a drive" (issue 29, R2v3 Appendix B): the attached drives (never the boot medium),
 * whether the erasure service picked each one for validation, and for a picked drive the
 * operator chose, a full read against what its erasure left and the outcome in plain words.
 * Reads only; the technical findings are behind Details.
 */
export function ValidateScreen() {
  const actions = useActions();
  const desk = useKiosk((s) => s.agent.snapshot?.validation);
  const [error, setError] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const look = async () => {
    setAsking(true);
    const res = await actions.validate({ type: 'validate_drive', step: 'look' });
    setAsking(false);
    setError(res.ok ? undefined : res.error);
  };
  const read = async (device: string) => {
    const res = await actions.validate({ type: 'validate_drive', step: 'read', device });
    setError(res.ok ? undefined : res.error);
  };
  // Every opening asks again: drives may have been swapped, or validated elsewhere, since.
  useEffect(() => void look(), []);
  const rows = desk ? validateRows(desk) : [];
  return (
    <section className="validate">
      <p className="muted">
        The erasure service picks some erased drives of each lot to be checked again, independently of the erasure. Reading a picked drive checks every sector against what its erasure left and looks for file signatures. Nothing is written to any drive.
      </p>
      {desk?.outcome && <Outcome outcome={desk.outcome} drive={rows.find((r) => r.device === desk.outcome?.device)?.title ?? desk.outcome.device} />}
      {desk?.reading && <Reading reading={desk.reading} />}
      {!desk && <p className="muted">Looking for drives…</p>}
      {desk && rows.length === 0 && <p>No drives found.</p>}
      <ul className="drive-list" aria-label="Drives to validate">
        {rows.map((row) => (
          <li key={row.device} className="drive" data-testid="validate-drive" data-device={row.device}>
            <p className="drive-title">
              {row.title} <span className="muted">{row.facts}</span>
            </p>
            <p className={`verdict ${row.tone}`} data-testid="validate-verdict">
              <strong>{row.verdict}</strong>
            </p>
            <p className="small" data-testid="validate-note">
              {row.note}
            </p>
            {row.canRead && (
              <button type="button" className="primary" onClick={() => void read(row.device)}>
                Read and validate this drive
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p className="error" role="alert">
          The agent refused: {error}
        </p>
      )}
      <div className="row">
        <button type="button" onClick={() => void look()} disabled={asking || desk?.reading !== undefined}>
          Ask again
        </button>
        <button type="button" onClick={() => actions.goTo('drives')}>
          Back to Drives
        </button>
      </div>
    </section>
  );
}

function Reading({ reading }: { reading: NonNullable<ValidationDeskView['reading']> }) {
  return (
    <div className="validate-reading" role="status" data-testid="validate-reading">
      <p>
        Reading {reading.device}: {reading.percent}% ({formatBytes(reading.bytes_done)} of {formatBytes(reading.bytes_total)})
      </p>
      <progress max={100} value={reading.percent} />
    </div>
  );
}

function Outcome({ outcome, drive }: { outcome: NonNullable<ValidationDeskView['outcome']>; drive: string }) {
  const tone = outcome.result === 'approved' ? 'ok' : 'bad';
  return (
    <div className={`banner ${tone}`} role="status" data-testid="validate-outcome" data-result={outcome.result}>
      <p className="validate-headline">
        <strong>{outcome.headline}</strong>
      </p>
      <p className="small">
        {drive} · certificate {outcome.certificate_number} ·{' '}
        {outcome.reported ? 'recorded by the erasure service' : `not recorded by the erasure service${outcome.report_error ? `: ${outcome.report_error}` : ''}`}
      </p>
      {outcome.findings && (
        <details>
          <summary>Details</summary>
          <p className="small">{outcome.findings}</p>
        </details>
      )}
    </div>
  );
}
