import { useEffect, useState } from 'react';
import { getJson } from '../api.js';
import { ErrorNote, PageHeader, Pager } from '../components/ui.js';
import { formatDateTime, formatMemory } from '../format.js';
import { Link, navigate, useQueryState } from '../router.js';
import type { AssetSummary, Page } from '../types.js';

type AssetsData = Page & { assets: AssetSummary[] };

/** `/assets`: the account's machines, searched on the server (an account can hold many). */
export function AssetsPage() {
  const [params, setParams] = useQueryState();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(q);
  const [data, setData] = useState<AssetsData | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Debounced: the query goes to the server, not one request per keystroke.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (search !== q) setParams({ q: search, page: null });
    }, 250);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    getJson<AssetsData>(`/app/api/assets?page=${page}&q=${encodeURIComponent(q)}`).then(
      (value) => {
        setData(value);
        setError(null);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [q, page]);

  return (
    <>
      <PageHeader title="Assets" subtitle={data ? `${data.count} machine${data.count === 1 ? '' : 's'} · most recently changed first` : 'Loading…'} />
      <ErrorNote message={error} />
      <div className="toolbar">
        <input
          type="search"
          className="input search"
          placeholder="Search serial, model, manufacturer, asset tag, CPU, drive serial…"
          aria-label="Search assets"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <div className="table-wrap">
        <table className="table" data-testid="assets-table">
          <thead>
            <tr>
              <th>Machine</th>
              <th>Serial</th>
              <th>Asset tag</th>
              <th>CPU</th>
              <th className="num">Memory</th>
              <th>Storage</th>
              <th className="num">Battery</th>
              <th>Technician</th>
              <th>Last audit</th>
            </tr>
          </thead>
          <tbody>
            {data?.assets.map((asset) => (
              <tr key={asset.id} className="clickable" onClick={() => navigate(`/assets/${asset.id}`)}>
                <td className="strong">
                  <Link href={`/assets/${asset.id}`}>{[asset.manufacturer, asset.model].filter(Boolean).join(' ') || asset.id}</Link>
                </td>
                <td className="mono">{asset.serial_number ?? '—'}</td>
                <td>{asset.asset_tag ?? '—'}</td>
                <td className="clip" title={asset.cpu_model ?? ''}>
                  {asset.cpu_model ?? '—'}
                </td>
                <td className="num">{formatMemory(asset.memory_total_bytes)}</td>
                <td className="clip" title={asset.storage_summary ?? ''}>
                  {asset.storage_summary ?? '—'}
                </td>
                <td className="num">{asset.battery_health_pct === null ? '—' : `${asset.battery_health_pct}%`}</td>
                <td>{asset.technician ?? '—'}</td>
                <td className="nowrap">{formatDateTime(asset.audited_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.assets.length === 0 && <p className="empty">{q ? 'No machines match this search.' : 'No machines reported yet.'}</p>}
      </div>
      <div className="table-footer">
        <span />
        {data && <Pager page={data.page} pages={data.pages} onPage={(p) => setParams({ page: p === 1 ? null : String(p) })} />}
      </div>
    </>
  );
}
