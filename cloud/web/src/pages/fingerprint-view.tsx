import type { ReactNode } from 'react';
import { formatBytes, formatMemory, titleize } from '../format.js';

type Doc = Record<string, unknown>;

const isObject = (value: unknown): value is Doc => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A scalar as text; nested values as compact JSON (sections are open-ended, spec 9). */
export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return JSON.stringify(value);
}

const first = (doc: Doc, ...keys: string[]): unknown => {
  for (const key of keys) if (doc[key] !== undefined && doc[key] !== null) return doc[key];
  return undefined;
};

/** A field name as a column or label heading: `health_pct` reads "Health %". */
export const label = (key: string) => titleize(key).replace(/\bPct\b/, '%').replace(/\bPx\b/, '(px)');

/** Key/value pairs of one section object; `quiet` renders nothing rather than "Nothing reported". */
export function Fields({ doc, skip = [], quiet = false }: { doc: Doc; skip?: string[]; quiet?: boolean }) {
  const entries = Object.entries(doc).filter(([key]) => !skip.includes(key));
  if (entries.length === 0) return quiet ? null : <p className="muted">Nothing reported.</p>;
  return (
    <dl className="fields">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{label(key)}</dt>
          <dd>{key.endsWith('_bytes') && typeof value === 'number' ? formatBytes(value) : show(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** An array of section objects as a table over the union of their keys. */
export function Rows({ items, columns }: { items: unknown[]; columns?: string[] }) {
  const objects = items.filter(isObject);
  if (objects.length === 0) return <p className="muted">Nothing reported.</p>;
  const keys = columns ?? [...new Set(objects.flatMap((o) => Object.keys(o)))].slice(0, 10);
  return (
    <div className="table-wrap">
      <table className="table compact">
        <thead>
          <tr>
            {keys.map((key) => (
              <th key={key}>{label(key)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {objects.map((o, i) => (
            <tr key={i}>
              {keys.map((key) => (
                <td key={key}>{key.endsWith('_bytes') && typeof o[key] === 'number' ? formatBytes(o[key] as number) : show(o[key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * SMART health per drive. The agent's field names are read tolerantly (snake or camel case,
 * flat or under `smart`): fingerprint fields beyond model and serial are not fixed by the spec.
 */
export function StorageTable({ drives }: { drives: unknown[] }) {
  const rows = drives.filter(isObject).map((drive) => {
    const smart = isObject(drive.smart) ? { ...drive, ...drive.smart } : drive;
    const passed = first(smart, 'passed', 'smart_passed', 'healthy');
    const health = first(smart, 'health', 'overall_health', 'smart_status', 'status');
    return {
      model: show(drive.model),
      serial: show(drive.serial),
      size: typeof drive.size_bytes === 'number' ? formatBytes(drive.size_bytes) : '—',
      media: show(first(drive, 'media_type', 'type')),
      transport: show(drive.transport),
      hours: show(first(smart, 'power_on_hours', 'powerOnHours')),
      wear: (() => {
        const wear = first(smart, 'percentage_used', 'wear_pct', 'wear_percent', 'percent_used', 'wear');
        return typeof wear === 'number' ? `${wear}%` : show(wear);
      })(),
      reallocated: show(first(smart, 'reallocated_sectors', 'reallocatedSectors')),
      temperature: (() => {
        const t = first(smart, 'temperature_c', 'temperatureC', 'temperature');
        return typeof t === 'number' ? `${t} °C` : show(t);
      })(),
      health: typeof passed === 'boolean' ? (passed ? 'Passed' : 'Failed') : show(health),
    };
  });
  if (rows.length === 0) return <p className="muted">No internal drives reported.</p>;
  return (
    <div className="table-wrap">
      <table className="table compact" data-testid="storage-table">
        <thead>
          <tr>
            <th>Model</th>
            <th>Serial</th>
            <th className="num">Size</th>
            <th>Media</th>
            <th>Transport</th>
            <th className="num">Power-on hours</th>
            <th className="num">Wear</th>
            <th className="num">Reallocated</th>
            <th className="num">Temperature</th>
            <th>SMART</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td className="strong">{r.model}</td>
              <td className="mono">{r.serial}</td>
              <td className="num">{r.size}</td>
              <td>{r.media}</td>
              <td>{r.transport}</td>
              <td className="num">{r.hours}</td>
              <td className="num">{r.wear}</td>
              <td className="num">{r.reallocated}</td>
              <td className="num">{r.temperature}</td>
              <td>
                <span className={r.health === 'Failed' ? 'text-fail' : r.health === 'Passed' ? 'text-pass' : undefined}>{r.health}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="card" data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export { formatMemory, isObject };
