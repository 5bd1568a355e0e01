import { formatBytes } from '../../format.js';
import { useKiosk } from '../../store/use-kiosk.js';
import { NextStep } from '../shell/next-step.js';
import { machineFacts } from './machine-facts.js';

/** What this machine is: the agent's fingerprint when its state carries one, and the drives it found. */
export function MachineScreen() {
  const fingerprint = useKiosk((s) => s.agent.snapshot?.fingerprint);
  const drives = useKiosk((s) => s.agent.snapshot?.drives);
  const assetId = useKiosk((s) => s.agent.snapshot?.boot.asset_id);
  const recordId = useKiosk((s) => s.agent.snapshot?.record_id);
  return (
    <section aria-label="Machine summary">
      {fingerprint ? (
        <dl className="facts">
          {machineFacts(fingerprint).map(([label, value]) => (
            <div key={label} className="fact">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        // The agent adds the summary once its hardware collection finished (it runs beside the boot checks).
        <p className="banner info">Reading this machine’s hardware… the drives found so far are below.</p>
      )}
      <h2 className="section-title">Drives found</h2>
      <dl className="facts">
        {(drives ?? []).map((d) => (
          <div key={d.device} className="fact">
            <dt>{d.internal ? 'Internal drive' : 'External drive'}</dt>
            <dd>
              {d.model ?? d.device} · {formatBytes(d.size_bytes)}
              {d.media_type ? ` ${d.media_type}` : ''}
              {d.serial ? ` · S/N ${d.serial}` : ''}
            </dd>
          </div>
        ))}
      </dl>
      <p className="muted small" data-testid="report-status">{assetId ? 'Hardware report received by the service.' : 'The hardware report has not been received by the service yet.'}</p>
      {(assetId || recordId) && (
        <details className="machine-details">
          <summary>Details</summary>
          <dl>
            {assetId && (
              <div>
                <dt>Asset id</dt>
                <dd>{assetId}</dd>
              </div>
            )}
            {recordId && (
              <div>
                <dt>Boot record</dt>
                <dd>{recordId}</dd>
              </div>
            )}
          </dl>
        </details>
      )}
      <NextStep to="tests" />
    </section>
  );
}
