import { useEffect, useState } from 'react';
import { getJson } from '../api.js';
import { Badge, ErrorNote, PageHeader, type Tone } from '../components/ui.js';
import { CertificateCell } from '../components/certificate-cell.js';
import { formatCapacityGb, formatDateTime, formatMemory, readableName, titleize } from '../format.js';
import { Link } from '../router.js';
import type { AssetDetail, WipeView } from '../types.js';
import { Fields, isObject, Rows, Section, show, StorageTable } from './fingerprint-view.js';

/** Sections shown in their own cards, in this order; any other section goes under "More hardware". */
const OWN_SECTIONS = ['system', 'baseboard', 'bios', 'firmware', 'tpm', 'cpu', 'memory', 'storage', 'batteries', 'displays'];

const TEST_TONES: Record<string, Tone> = { passed: 'pass', failed: 'fail', detected: 'info', not_applicable: 'neutral', not_started: 'neutral' };

/** The web app's asset: the public shape plus the bay map when the asset is a station's chassis. */
type AppAssetDetail = AssetDetail & {
  wipes: WipeView[];
  customer: string | null;
  lot_reference: string | null;
  /** The asset tag typed or scanned at the kiosk (issue 31 item 6), beside the firmware's `asset_tag`. */
  job_asset_tag: string | null;
  chassis_map: { id: string; name: string; updated_at: string; bays: { lane: string; label: string; connector?: Record<string, unknown> }[] } | null;
  tests_latest: Record<string, LatestTest>;
  tests_history: { record_id: string; submitted_at: string; tests: Record<string, { status: string; detail?: string }> }[];
};

/** The latest result of one test across boots, with when it was taken. */
interface LatestTest {
  status: string;
  detail?: string;
  taken_at: string;
  record_id: string;
}

/**
 * The latest result of each test across boots, with when it was taken; each boot's own snapshot
 * behind a Details disclosure (issue 28, item 14).
 */
function HardwareTests({ latest, history }: { latest: Record<string, LatestTest>; history: AppAssetDetail['tests_history'] }) {
  const tests = Object.entries(latest);
  if (tests.length === 0) return <p className="muted">No tests run.</p>;
  return (
    <>
      <ul className="tests">
        {tests.map(([name, result]) => (
          <li key={name} data-test={name}>
            <span>{readableName(name)}</span>
            <span className="test-result">
              <span>
                <Badge tone={TEST_TONES[result.status] ?? 'neutral'}>{titleize(result.status)}</Badge>
                {result.detail && <span className="muted test-detail"> {result.detail}</span>}
              </span>
              <span className="muted small">{result.status === 'not_started' ? 'not run yet' : `taken ${formatDateTime(result.taken_at)}`}</span>
            </span>
          </li>
        ))}
      </ul>
      <details className="more" data-testid="tests-history">
        <summary>Details: each boot&rsquo;s results ({history.length})</summary>
        {history.map((run) => (
          <div key={run.record_id} className="test-run">
            <p className="small">
              <strong>{formatDateTime(run.submitted_at)}</strong> <span className="mono muted">{run.record_id}</span>
            </p>
            <ul className="tests compact">
              {Object.entries(run.tests).map(([name, result]) => (
                <li key={name}>
                  <span>{readableName(name)}</span>
                  <span>
                    {titleize(result.status)}
                    {result.detail && <span className="muted test-detail"> {result.detail}</span>}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </details>
    </>
  );
}

/** A hotswap station's chassis: its bays as the mapping wizard labelled them. */
function BayMap({ map }: { map: NonNullable<AppAssetDetail['chassis_map']> }) {
  return (
    <Section title={`Bay map · ${map.name}`} testId="section-bay-map">
      <p className="muted">
        {map.bays.length} bays, saved {formatDateTime(map.updated_at)} by the station&rsquo;s mapping wizard.
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>Bay</th>
            <th>Lane</th>
            <th>Connection</th>
          </tr>
        </thead>
        <tbody>
          {map.bays.map((b) => (
            <tr key={b.lane}>
              <td>{b.label}</td>
              <td className="mono">{b.lane}</td>
              <td>{typeof b.connector?.transport === 'string' ? b.connector.transport.toUpperCase() : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

const STATUS_TONES: Record<WipeView['status_tone'], Tone> = { pass: 'pass', fail: 'fail', neutral: 'neutral' };

/** Each drive wiped in this machine (for a station's chassis, in its bays too), newest first, with its outcome and certificate. */
function Wipes({ wipes }: { wipes: WipeView[] }) {
  return (
    <Section title="Drive wipes and certificates" testId="section-wipes">
      {wipes.length === 0 ? (
        <p className="muted">No drive of this machine has been wiped yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Drive</th>
              <th>Capacity</th>
              <th>Status</th>
              <th>Method</th>
              <th>Completed</th>
              <th>Certificate</th>
            </tr>
          </thead>
          <tbody>
            {wipes.map((w) => (
              <tr key={w.id} data-wipe-id={w.id}>
                <td>
                  <strong>{w.model ?? 'Unknown drive'}</strong>
                  {w.serial && <div className="mono small">{w.serial}</div>}
                  {w.source.kind === 'hotswap' && w.source.bay && <div className="small muted">{w.source.bay}</div>}
                  {w.asset_tag && <div className="small muted">Asset tag <span className="mono">{w.asset_tag}</span></div>}
                </td>
                <td className="num">{formatCapacityGb(w.capacity_gb)}</td>
                <td>
                  <Badge tone={STATUS_TONES[w.status_tone]}>{w.status_label}</Badge>
                </td>
                <td>{w.method ?? '—'}</td>
                <td className="nowrap">{formatDateTime(w.completed_at)}</td>
                <td>
                  <CertificateCell row={w} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** `/assets/:id`: one machine, its fingerprint rendered by section. */
export function AssetDetailPage({ id }: { id: string }) {
  const [asset, setAsset] = useState<AppAssetDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJson<AppAssetDetail>(`/app/api/assets/${encodeURIComponent(id)}`).then(setAsset, (e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  }, [id]);

  if (error) return <ErrorNote message={error} />;
  if (!asset) return <div className="loading">Loading…</div>;
  const fp = asset.fingerprint ?? {};
  const section = (name: string) => (isObject(fp[name]) ? (fp[name] as Record<string, unknown>) : undefined);
  const list = (name: string) => (Array.isArray(fp[name]) ? (fp[name] as unknown[]) : []);
  const others = Object.keys(fp).filter((k) => !OWN_SECTIONS.includes(k));
  const title = [asset.manufacturer, asset.model].filter(Boolean).join(' ') || asset.id;

  return (
    <>
      <p className="crumbs">
        <Link href="/assets">Assets</Link> / <span>{asset.serial_number ?? asset.id}</span>
      </p>
      <PageHeader title={title} subtitle={<span className="mono">{asset.id}</span>} />
      <section className="card summary-grid" data-testid="asset-summary">
        <Fields
          doc={{
            serial_number: asset.serial_number,
            // The technician's tag (issue 31 item 6) first; the firmware's kept beside it when it differs.
            asset_tag: asset.job_asset_tag ?? asset.asset_tag,
            ...(asset.job_asset_tag && asset.asset_tag && asset.asset_tag !== asset.job_asset_tag ? { firmware_asset_tag: asset.asset_tag } : {}),
            ...(asset.customer ? { customer: asset.customer } : {}),
            ...(asset.lot_reference ? { lot___job_reference: asset.lot_reference } : {}),
            record_id: asset.record_id,
            engine_version: asset.engine_version,
            technician: asset.technician,
            first_seen: formatDateTime(asset.first_seen_at),
            last_audit: formatDateTime(asset.audited_at),
            updated: formatDateTime(asset.updated_at),
          }}
        />
      </section>
      {asset.chassis_map && <BayMap map={asset.chassis_map} />}
      <Wipes wipes={asset.wipes} />
      <div className="grid-2">
        <Section title="System" testId="section-system">
          <Fields
            doc={{
              ...(section('system') ?? {}),
              firmware_mode: asset.firmware_mode,
              secure_boot: asset.secure_boot,
              bios_version: asset.bios_version,
              tpm_version: asset.tpm_version,
            }}
          />
        </Section>
        <div className="stack">
          <Section title="CPU" testId="section-cpu">
            {section('cpu') ? <Fields doc={section('cpu')!} /> : <p className="muted">{show(asset.cpu_model)}</p>}
          </Section>
          <Section title="Memory" testId="section-memory">
            <p className="big">{formatMemory(asset.memory_total_bytes)}</p>
            {section('memory') && <Fields doc={section('memory')!} skip={['total_bytes']} quiet />}
          </Section>
        </div>
      </div>
      <Section title="Storage and SMART health" testId="section-storage">
        <StorageTable drives={list('storage')} />
      </Section>
      <div className="grid-2">
        <Section title="Batteries" testId="section-batteries">
          {list('batteries').length > 0 ? <Rows items={list('batteries')} /> : <p className="muted">No batteries reported.</p>}
        </Section>
        <Section title="Displays" testId="section-displays">
          {list('displays').length > 0 ? <Rows items={list('displays')} /> : <p className="muted">No displays reported.</p>}
        </Section>
      </div>
      <div className="grid-2">
        <Section title="Hardware tests" testId="section-tests">
          <HardwareTests latest={asset.tests_latest} history={asset.tests_history} />
        </Section>
        <Section title="Notes" testId="section-notes">
          {asset.notes ? <p className="notes">{asset.notes}</p> : <p className="muted">No operator notes.</p>}
        </Section>
      </div>
      {others.length > 0 && (
        <Section title="More hardware">
          {others.map((name) => (
            <details key={name} className="more">
              <summary>{readableName(name)}</summary>
              {Array.isArray(fp[name]) ? <Rows items={fp[name] as unknown[]} /> : isObject(fp[name]) ? <Fields doc={fp[name] as Record<string, unknown>} /> : <p>{show(fp[name])}</p>}
            </details>
          ))}
        </Section>
      )}
    </>
  );
}
