import { useEffect, useState, type FormEvent } from 'react';
import { getJson, sendJson } from '../api.js';
import { Badge, ErrorNote, PageHeader } from '../components/ui.js';
import { formatDateTime } from '../format.js';

interface ValidationLot {
  id: string;
  customer: string | null;
  lot_reference: string;
  rate_percent: number;
  closed_at: string | null;
  needs_attention: boolean;
  certified: number;
  sample_size: number;
  passed: number;
  failed: number;
  awaiting: number;
}

interface ValidationSample {
  lot_id: string | null;
  wipe_result_id: string;
  certificate_number: string | null;
  certificate_id: string | null;
  drive_serial: string | null;
  drive_model: string | null;
  picked_at: string;
  outcome: 'approved' | 'rejected' | null;
  reason: string | null;
  findings: string | null;
  validated_at: string | null;
}

interface ValidationData {
  rate_percent: number;
  rate_source: 'account' | 'default';
  bounds: { min: number; max: number };
  can_edit: boolean;
  lots: ValidationLot[];
  samples: ValidationSample[];
}

/** "3 of 60 drives picked at 5 %: 2 passed, 1 failed", the lot's summary in one line. */
export function lotSummary(lot: ValidationLot): string {
  const parts = [`${lot.sample_size} of ${lot.certified} certified drive${lot.certified === 1 ? '' : 's'} picked at ${lot.rate_percent} %`];
  const results = [`${lot.passed} passed`, lot.failed > 0 ? `${lot.failed} failed` : null, lot.awaiting > 0 ? `${lot.awaiting} awaiting validation` : null];
  return `${parts[0]}: ${results.filter(Boolean).join(', ')}`;
}

const lotName = (lot: ValidationLot) => [lot.customer, lot.lot_reference].filter(Boolean).join(' · ');

function Outcome({ sample }: { sample: ValidationSample }) {
  if (sample.outcome === 'approved') return <Badge tone="pass">Passed</Badge>;
  if (sample.outcome === 'rejected') return <Badge tone="fail">Failed</Badge>;
  return <Badge tone="neutral">To validate</Badge>;
}

/**
 * `/validation` (issue 29, R2v3 Appendix B): the drives picked at random from each lot for an
 * independent check, with their certificate numbers and serials, what each check found, and
 * each lot's sample size, passes and rate. Admins set the rate and close lots.
 */
export function ValidationPage() {
  const [data, setData] = useState<ValidationData | null>(null);
  const [rate, setRate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const load = () =>
    getJson<ValidationData>('/app/api/validation').then(
      (value) => {
        setData(value);
        setRate(String(value.rate_percent));
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  useEffect(() => {
    void load();
  }, []);

  const saveRate = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await sendJson('PUT', '/app/api/validation/rate', { rate_percent: Number(rate) });
      setSaved(true);
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const close = async (lot: ValidationLot) => {
    if (!window.confirm(`Close lot ${lotName(lot)}? Its sample is completed to ${lot.rate_percent} % now (at least one drive).`)) return;
    setError(null);
    try {
      await sendJson('POST', `/app/api/validation/lots/${encodeURIComponent(lot.id)}/close`);
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const lots = new Map((data?.lots ?? []).map((lot) => [lot.id, lot]));
  return (
    <>
      <PageHeader
        title="Validation"
        subtitle={data ? `Drives picked at random from each lot for an independent check, ${data.rate_percent} % of each lot (at least one drive)` : 'Loading…'}
      />
      <ErrorNote message={error} />
      {data?.can_edit && (
        <section className="card" data-testid="validation-rate">
          <h2>Validation rate</h2>
          <p className="muted">
            The share of each lot’s certified drives picked for validation. A drive is picked each time a lot grows by enough drives; closing a lot
            completes its sample, rounded up, with at least one drive.
            {data.rate_source === 'default' && ' Your account uses the default of 5 % until you save your own.'}
          </p>
          <form className="form-row" onSubmit={(e) => void saveRate(e)}>
            <label>
              Percent of each lot
              <input
                className="input"
                type="number"
                min={data.bounds.min}
                max={data.bounds.max}
                step={1}
                required
                value={rate}
                onChange={(e) => setRate(e.target.value)}
                data-testid="validation-rate-input"
              />
            </label>
            <button type="submit" className="button button-primary" data-testid="validation-rate-save">
              Save rate
            </button>
          </form>
          {saved && !error && <p className="note note-ok">Saved: open lots now sample {data.rate_percent} %.</p>}
        </section>
      )}
      <h2>Lots</h2>
      <div className="table-wrap">
        <table className="table dense" data-testid="validation-lots">
          <thead>
            <tr>
              <th>Lot</th>
              <th>Summary</th>
              <th>State</th>
              {data?.can_edit && <th />}
            </tr>
          </thead>
          <tbody>
            {data?.lots.map((lot) => (
              <tr key={lot.id} data-lot={lot.id}>
                <td className="strong">{lotName(lot)}</td>
                <td data-testid="lot-summary">{lotSummary(lot)}</td>
                <td>
                  {lot.needs_attention ? (
                    <Badge tone="fail">Needs attention</Badge>
                  ) : lot.closed_at ? (
                    <Badge tone="neutral">Closed {formatDateTime(lot.closed_at)}</Badge>
                  ) : (
                    <Badge tone="info">Open</Badge>
                  )}
                </td>
                {data.can_edit && (
                  <td className="actions">
                    {!lot.closed_at && (
                      <button type="button" className="button button-small" onClick={() => void close(lot)}>
                        Close lot
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.lots.length === 0 && (
          <p className="empty">No lots yet. Drives are sampled per lot: give a device token a customer and a lot when you mint it.</p>
        )}
      </div>
      <h2>Drives to validate</h2>
      <div className="table-wrap">
        <table className="table dense" data-testid="validation-samples">
          <thead>
            <tr>
              <th>Certificate</th>
              <th>Drive serial</th>
              <th>Model</th>
              <th>Lot</th>
              <th>Picked</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {data?.samples.map((sample) => {
              const lot = sample.lot_id ? lots.get(sample.lot_id) : undefined;
              return (
                <tr key={sample.wipe_result_id} data-wipe={sample.wipe_result_id}>
                  <td className="mono">
                    {sample.certificate_id ? (
                      <a href={`/certificates/${sample.certificate_id}/verify`} target="_blank" rel="noreferrer">
                        {sample.certificate_number}
                      </a>
                    ) : (
                      sample.certificate_number ?? '—'
                    )}
                  </td>
                  <td className="mono">{sample.drive_serial ?? '—'}</td>
                  <td>{sample.drive_model ?? '—'}</td>
                  <td>{lot ? lotName(lot) : '—'}</td>
                  <td className="nowrap">{formatDateTime(sample.picked_at)}</td>
                  <td>
                    <Outcome sample={sample} />
                    {sample.reason && <div className="small">{sample.reason}</div>}
                    {sample.findings && (
                      <details className="more">
                        <summary>Details</summary>
                        <div className="small">{sample.findings}</div>
                      </details>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {data && data.samples.length === 0 && <p className="empty">No drives picked yet.</p>}
      </div>
    </>
  );
}
