import { useEffect, useRef, useState } from 'react';
import { getJson, sendJson } from '../api.js';
import { Badge, ErrorNote, PageHeader, Pager } from '../components/ui.js';
import { formatCapacityGb, formatDateTime, formatDuration } from '../format.js';
import { Link, useQueryState } from '../router.js';
import type { WipeView, WipesPage as WipesData } from '../types.js';
import { CertificateCell } from '../components/certificate-cell.js';
import { HealthGradeCell } from '../components/health-grade-cell.js';
import { PushSettings } from './push-settings.js';
import { LotExportMenu, LotExportStatus, useLotExport } from './lot-export.js';
import { apiQuery, filtersActive, headerText, lotUrl, rangeText, readViewState, SORTS } from './wipes-view.js';

const GENERATING_NOTICE = 'certificate-generating';
/** Typing in the search box asks the server once the typing pauses, not at every key. */
const SEARCH_PAUSE_MS = 250;

function SourceCell({ row }: { row: WipeView }) {
  if (row.source.kind === 'asset') {
    return (
      <Link href={`/assets/${encodeURIComponent(row.source.asset_id)}`} title={row.source.asset_id}>
        {row.source.label}
      </Link>
    );
  }
  if (row.source.kind === 'hotswap') {
    // The bay fits under the badge (the cell wraps); the chassis map's name is there on hover.
    return (
      <>
        <Badge tone="neutral">Hotswap</Badge>
        {row.source.bay && (
          <span className="muted small w-bay" title={row.source.chassis ? `${row.source.chassis}, ${row.source.bay}` : undefined}>
            {' '}
            {row.source.bay}
          </span>
        )}
      </>
    );
  }
  return <span className="muted">—</span>;
}

/**
 * "Download certificates": the selected rows, or every row the filters leave, as one ZIP of PDFs
 * or one signed lot certificate (PDF) with each certificate attached, in the grid's order. Plain links: the browser streams the attachment itself.
 */
function CertificatesMenu({ rows, selected }: { rows: readonly WipeView[]; selected: boolean }) {
  const which = `${rows.length} ${selected ? 'selected' : 'shown'}`;
  const menu = useRef<HTMLDetailsElement>(null);
  // A click anywhere else closes the menu, as any menu does.
  useEffect(() => {
    const close = (event: MouseEvent) => {
      if (menu.current && !menu.current.contains(event.target as Node)) menu.current.open = false;
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, []);
  if (rows.length === 0) {
    return (
      <button type="button" className="button" disabled>
        Download certificates
      </button>
    );
  }
  return (
    <details className="menu" ref={menu} data-testid="certificates-menu">
      <summary className="button" title={`The certificates of the ${which} rows, in the grid's order`}>
        Download certificates ({which}) ▾
      </summary>
      {/* Choosing one closes the menu; the download goes on in the browser. */}
      <div className="menu-items" onClick={() => menu.current && (menu.current.open = false)}>
        <a href={lotUrl(rows, 'zip')} download data-testid="certificates-zip">
          ZIP of PDFs
          <span className="muted small">A summary, then each certificate and Erasure Report</span>
        </a>
        <a href={lotUrl(rows, 'pdf')} download data-testid="certificates-pdf">
          Lot certificate (one signed PDF)
          <span className="muted small">A signed summary listing every drive, each certificate attached unchanged</span>
        </a>
      </div>
    </details>
  );
}

/**
 * "Export CSV": every wipe the filters match, in the grid's order, streamed by the cloud (issue 31
 * item 2). A plain link: the browser streams the file itself. Above the operator's cap the button
 * says why it cannot, rather than a file that stops short.
 */
function ExportCsv({ count, max, query }: { count: number; max: number; query: string }) {
  if (count > max) {
    return (
      <button type="button" className="button" disabled title={`${count} wipes match; one CSV holds at most ${max}. Narrow the filters.`} data-testid="csv-too-many">
        Export CSV
      </button>
    );
  }
  if (count === 0) {
    return (
      <button type="button" className="button" disabled>
        Export CSV
      </button>
    );
  }
  return (
    <a className="button" href={`/app/api/wipes.csv${query ? `?${query}` : ''}`} download data-testid="export-csv" title={`All ${count} matching wipes, in the grid's order`}>
      Export CSV
    </a>
  );
}

/**
 * `/wipes` (spec 4.5): one row per drive per wipe, 100 per page, the only certificate listing.
 * The cloud searches, filters, sorts and counts the whole history (issue 31 item 1); the view
 * state lives in the URL, each filter change its own history entry, so a link reproduces the view
 * and Back returns to the one before.
 */
export function WipesPage() {
  const [params, setParams] = useQueryState();
  const state = readViewState(params);
  const [data, setData] = useState<WipesData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [pushNote, setPushNote] = useState<{ tone: 'ok' | 'danger'; text: string } | null>(null);
  const [showSettings, setShowSettings] = useState(false);
  // What the search box shows: the URL's term, or what is being typed before the pause.
  const [typed, setTyped] = useState<string | null>(null);
  // Every match's certificates, made in the background (issue 31 item 2).
  const lotExport = useLotExport();
  const query = apiQuery(state);
  const latest = useRef('');

  const load = () => {
    latest.current = query;
    return getJson<WipesData>(`/app/api/wipes${query ? `?${query}` : ''}`).then(
      (value) => {
        // An answer to a query the user has already changed is dropped.
        if (latest.current !== query) return;
        setData(value);
        setError(null);
      },
      (e: unknown) => latest.current === query && setError(e instanceof Error ? e.message : String(e)),
    );
  };
  useEffect(() => {
    setSelected(new Set());
    void load();
  }, [query]);
  useEffect(() => {
    if (typed === null || typed === state.q) return;
    // A new search is a view of its own in the history; refining it is not.
    const timer = setTimeout(() => setParams({ q: typed, page: null }, { push: state.q === '' }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  // Once the URL holds what was typed, the box shows the URL again (Back, Forward, a link).
  useEffect(() => setTyped((current) => (current === state.q.trim() || current === state.q ? null : current)), [state.q]);

  /** A filter's new value: a view of its own in the history, from its first page. */
  const setFilter = (changes: Record<string, string | null>) => setParams({ ...changes, page: null }, { push: true });

  const rows = data?.rows ?? [];
  const statuses = data?.statuses ?? [];
  const facets = data?.facets ?? { customers: [], lots: [], methods: [] };
  const withCurrent = (values: readonly string[], current: string) => (current && !values.includes(current) ? [...values, current] : values);
  const selectedRows = rows.filter((r) => selected.has(r.id));
  const allVisibleSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allVisibleSelected ? new Set() : new Set(rows.map((r) => r.id)));

  const push = async () => {
    setPushNote(null);
    try {
      const result = await sendJson<{ ok: boolean; pushed?: number; error?: string }>('POST', '/app/api/wipes/push', {
        ids: selectedRows.map((r) => r.id),
      });
      setPushNote({ tone: 'ok', text: `Pushed ${result.pushed} row${result.pushed === 1 ? '' : 's'} to ${data?.push.url}.` });
    } catch (e) {
      setPushNote({ tone: 'danger', text: `Push failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  };

  const filtered = filtersActive(state);
  return (
    <>
      <PageHeader
        title="Wipes"
        subtitle={
          data ? (
            <span data-testid="grid-summary">{headerText(state, data.count)}</span>
          ) : (
            'Loading…'
          )
        }
        actions={
          <>
            <ExportCsv count={data?.count ?? 0} max={data?.csv_max_rows ?? 0} query={apiQuery(state, { page: false })} />
            {selectedRows.length === 0 && data && data.count > rows.length ? (
              <LotExportMenu count={data.count} query={apiQuery(state, { page: false })} onStart={(format, q) => void lotExport.start(format, q)} />
            ) : (
              <CertificatesMenu rows={selectedRows.length > 0 ? selectedRows : rows} selected={selectedRows.length > 0} />
            )}
            <button
              type="button"
              className="button button-primary"
              onClick={() => void push()}
              disabled={selectedRows.length === 0 || !data?.push.configured}
              title={data?.push.configured ? `Send the selected rows to ${data.push.url}` : 'No push integration is configured'}
            >
              Push {selectedRows.length > 0 ? `${selectedRows.length} selected` : 'selected'}
            </button>
            {data?.push.can_configure && (
              <button type="button" className="button button-ghost" onClick={() => setShowSettings((v) => !v)}>
                Push settings
              </button>
            )}
          </>
        }
      />
      {params.get('notice') === GENERATING_NOTICE && (
        <p className="note note-info" role="status">
          That certificate is still generating. It will be ready in a moment; try again shortly.
          <button type="button" className="link-button" onClick={() => setParams({ notice: null })}>
            Dismiss
          </button>
        </p>
      )}
      {showSettings && data && <PushSettings onSaved={() => void load()} />}
      {pushNote && <p className={`note note-${pushNote.tone}`}>{pushNote.text}</p>}
      <LotExportStatus lot={lotExport.current} error={lotExport.error} onDismiss={lotExport.dismiss} />
      {data && data.count > data.csv_max_rows && (
        <p className="note note-warning" role="status" data-testid="csv-cap-note">
          {data.count} wipes match, and one CSV export holds at most {data.csv_max_rows}. Narrow the filters (a date range, a customer) to export them in parts.
        </p>
      )}
      <ErrorNote message={error} />

      <div className="toolbar">
        <input
          type="search"
          className="input search"
          placeholder="Search model, serial, technician, certificate…"
          aria-label="Search"
          value={typed ?? state.q}
          onChange={(e) => setTyped(e.target.value)}
        />
        <select aria-label="Status" className="input" value={state.status} onChange={(e) => setFilter({ status: e.target.value })}>
          <option value="">All statuses</option>
          {statuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <select aria-label="Media type" className="input" value={state.media} onChange={(e) => setFilter({ media: e.target.value })}>
          <option value="">All media</option>
          <option value="SSD">SSD</option>
          <option value="HDD">HDD</option>
          <option value="unknown">Unknown</option>
        </select>
        <select aria-label="Source" className="input" value={state.source} onChange={(e) => setFilter({ source: e.target.value })}>
          <option value="">All sources</option>
          <option value="asset">Matched machine</option>
          <option value="hotswap">Hotswap</option>
          <option value="none">Unmatched</option>
        </select>
        {(facets.methods.length > 0 || state.method) && (
          <select aria-label="Method" className="input" value={state.method} onChange={(e) => setFilter({ method: e.target.value })}>
            <option value="">All methods</option>
            {withCurrent(facets.methods, state.method).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        )}
        <label className="date-range">
          <span className="muted">Completed</span>
          <input type="date" aria-label="Completed from" className="input" value={state.from} max={state.to || undefined} onChange={(e) => setFilter({ from: e.target.value })} />
          <span className="muted">to</span>
          <input type="date" aria-label="Completed to" className="input" value={state.to} min={state.from || undefined} onChange={(e) => setFilter({ to: e.target.value })} />
        </label>
        {(facets.customers.length > 0 || state.customer) && (
          <select aria-label="Customer" className="input" value={state.customer} onChange={(e) => setFilter({ customer: e.target.value })}>
            <option value="">All customers</option>
            {withCurrent(facets.customers, state.customer).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
        {(facets.lots.length > 0 || state.lot) && (
          <select aria-label="Lot" className="input" value={state.lot} onChange={(e) => setFilter({ lot: e.target.value })}>
            <option value="">All lots</option>
            {withCurrent(facets.lots, state.lot).map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        )}
        <select aria-label="Sort" className="input" value={state.sort} onChange={(e) => setFilter({ sort: e.target.value })}>
          {SORTS.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </select>
        {filtered && (
          <button
            type="button"
            className="link-button"
            onClick={() => setFilter({ q: null, status: null, media: null, source: null, method: null, from: null, to: null, customer: null, lot: null })}
          >
            Clear filters
          </button>
        )}
      </div>

      {state.from !== '' && state.to !== '' && state.from > state.to && (
        <p className="note note-warning" role="status" data-testid="date-range-hint">
          The range is reversed: {state.from} is after {state.to}, so no wipe can match.{' '}
          <button type="button" className="link-button" onClick={() => setFilter({ from: state.to, to: state.from })}>
            Swap the dates
          </button>
        </p>
      )}
      <div className="table-wrap">
        <table className="table dense" data-testid="wipes-table">
          <thead>
            <tr>
              <th className="check">
                <input type="checkbox" aria-label="Select all shown" checked={allVisibleSelected} onChange={toggleAll} />
              </th>
              <th>Vendor</th>
              <th>Model</th>
              <th>Serial</th>
              <th className="num">Capacity</th>
              <th>Media Type</th>
              <th>Method</th>
              <th>Source</th>
              <th className="num">Duration</th>
              <th>Status</th>
              <th className="w-grade" title="Health grade for resale: A like new, B used, good, C worn, F do not resell">Grade</th>
              <th>Technician</th>
              <th>Customer / lot</th>
              <th>Completed</th>
              <th className="pin-end">Certificate</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-wipe-id={row.id} className={selected.has(row.id) ? 'selected' : undefined}>
                <td className="check">
                  <input type="checkbox" aria-label={`Select ${row.serial ?? row.id}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
                </td>
                <td className="wrap">{row.vendor ?? <span className="muted">—</span>}</td>
                <td className="strong wrap w-model">{row.model ?? '—'}</td>
                <td className="mono">{row.serial ?? '—'}</td>
                <td className="num">{formatCapacityGb(row.capacity_gb)}</td>
                <td>{row.media_type ?? <span className="muted">—</span>}</td>
                <td className="wrap w-method">{row.method ?? '—'}</td>
                <td className="wrap w-source">
                  <SourceCell row={row} />
                  {/* Issue 31 item 6: the asset tag typed or scanned at the kiosk, under the source it labels. */}
                  {row.asset_tag && (
                    <div className="muted small" data-testid="asset-tag">
                      Asset tag <span className="mono nowrap">{row.asset_tag}</span>
                    </div>
                  )}
                </td>
                <td className="num">{formatDuration(row.duration_seconds)}</td>
                <td>
                  <Badge tone={row.status_tone}>{row.status_label}</Badge>
                </td>
                <td className="wrap w-grade" data-testid="health-grade">
                  <HealthGradeCell grade={row.health_grade} reasons={row.health_reasons} />
                </td>
                <td className="wrap w-technician">{row.technician ?? '—'}</td>
                <td className="wrap w-customer" data-testid="customer-lot">
                  {row.customer ?? <span className="muted">—</span>}
                  {row.lot_reference && <span className="muted small"> · {row.lot_reference}</span>}
                </td>
                <td className="wrap w-completed">{formatDateTime(row.completed_at)}</td>
                <td className="pin-end">
                  <CertificateCell row={row} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && rows.length === 0 && (
          <p className="empty">
            {filtersActive(state) ? 'No wipes match the filters.' : data.count === 0 ? 'No wipes yet. Results appear here as devices report them.' : 'No wipes on this page.'}
          </p>
        )}
      </div>
      <div className="table-footer">
        <span className="muted" data-testid="row-count">
          {data ? rangeText(data) : ''}
        </span>
        {data && <Pager page={data.page} pages={data.pages} onPage={(p) => setParams({ page: p === 1 ? null : String(p) }, { push: true })} />}
      </div>
    </>
  );
}
