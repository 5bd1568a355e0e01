import type { WipeView } from '../types.js';
import { Badge } from './ui.js';

/** A wipe's certificate (spec 4.5 rule 3): its number and Erasure Report links once issued, else its state. */
export function CertificateCell({ row }: { row: WipeView }) {
  const cell = row.certificate;
  if (cell.kind === 'issued') {
    return (
      <span className="cert">
        <a href={`/certificates/${encodeURIComponent(cell.id)}`} target="_blank" rel="noopener" data-testid="certificate-link">
          {cell.number}
        </a>
        <a href={`/certificates/${encodeURIComponent(cell.id)}?document=report`} target="_blank" rel="noopener" className="muted-link">
          Erasure report
        </a>
      </span>
    );
  }
  if (cell.kind === 'badge') return <Badge tone={cell.label === 'Failed' ? 'fail' : 'info'}>{cell.label}</Badge>;
  // Why not, in plain words; the stored reason (the API's `uncertified_reason`) under Details.
  return (
    <span className="not-issued" data-testid="not-issued">
      <span className="muted">Not issued</span>
      <span className="small" data-testid="not-issued-reason">{cell.reason}</span>
      {cell.detail && (
        <details className="inline-details">
          <summary>Details</summary>
          <code className="small">uncertified_reason: {cell.detail}</code>
        </details>
      )}
    </span>
  );
}
