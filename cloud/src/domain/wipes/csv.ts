import { formatCapacityGb } from '../certificates/format.js';
import type { WipeView } from './grid.js';

/**
 * The wipes CSV (spec 4.5's grid as a file; issue 31 item 2 streams it from the cloud): one line
 * per wipe, the columns as the grid shows them. Systems import these columns by name and
 * position: new ones are appended at the end, none is moved or renamed.
 */

export function certificateText(row: WipeView): string {
  const cell = row.certificate;
  return cell.kind === 'issued' ? cell.number : cell.kind === 'badge' ? cell.label : 'Not issued';
}

/** The Source cell as text (search, CSV): a hotswap wipe with its bay, e.g. `Hotswap · Bay 3`. */
export function sourceText(row: WipeView): string {
  if (row.source.kind === 'hotswap') return ['Hotswap', row.source.bay].filter(Boolean).join(' · ');
  return row.source.kind === 'asset' ? row.source.label : '';
}

const CSV_COLUMNS: readonly [string, (row: WipeView) => string | number | null][] = [
  ['Wipe ID', (r) => r.id],
  ['Vendor', (r) => r.vendor],
  ['Model', (r) => r.model],
  ['Serial', (r) => r.serial],
  ['Capacity (GB)', (r) => r.capacity_gb],
  ['Media Type', (r) => r.media_type],
  ['Method', (r) => r.method],
  // As the grid shows it: the machine's model · serial, or the hotswap bay. Its id is last, for systems.
  ['Source', (r) => sourceText(r) || null],
  ['Duration (s)', (r) => r.duration_seconds],
  ['Status', (r) => r.status_label],
  ['Technician', (r) => r.technician],
  ['Customer', (r) => r.customer],
  ['Lot / Job Reference', (r) => r.lot_reference],
  ['Started', (r) => r.started_at],
  ['Completed', (r) => r.completed_at],
  ['Certificate', (r) => certificateText(r)],
  ['Asset ID', (r) => (r.source.kind === 'asset' ? r.source.asset_id : null)],
  // Issue 30 item 6, appended so existing imports keep their columns: the resale grade and its reasons.
  ['health_grade', (r) => r.health_grade],
  ['health_reasons', (r) => (r.health_reasons.length ? r.health_reasons.join('; ') : null)],
  // Issue 31 item 4, appended likewise: why no certificate (plain words, then the stored wording),
  // the exact size in bytes when the machine reported it, and the capacity as the grid shows it.
  ['Not Issued Reason', (r) => (r.certificate.kind === 'not_issued' ? r.certificate.reason : null)],
  ['uncertified_reason', (r) => (r.certificate.kind === 'not_issued' ? r.certificate.detail : null)],
  ['capacity_bytes', (r) => capacityBytes(r)],
  ['Capacity', (r) => (r.capacity_gb === null && r.capacity_bytes === null ? null : formatCapacityGb(r.capacity_gb ?? Math.floor(r.capacity_bytes! / 1e9)))],
  // Issue 31 item 6, appended likewise: the asset tag typed or scanned at the kiosk.
  ['Asset Tag', (r) => r.asset_tag],
];

/**
 * The exact size when the machine reported it; else the wire's whole gigabytes in bytes, except
 * for the 0 a drive under 1 GB arrives as, which is no size at all.
 */
function capacityBytes(row: WipeView): number | null {
  if (row.capacity_bytes !== null) return row.capacity_bytes;
  return row.capacity_gb !== null && row.capacity_gb >= 1 ? row.capacity_gb * 1_000_000_000 : null;
}

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let cell = String(value);
  // A leading = + - @ would run as a formula in a spreadsheet: a drive model is not code.
  if (/^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The header line, CRLF-terminated. */
export const csvHeader = (): string => `${CSV_COLUMNS.map(([name]) => csvCell(name)).join(',')}\r\n`;

/** One wipe's line, CRLF-terminated. */
export const csvLine = (row: WipeView): string => `${CSV_COLUMNS.map(([, get]) => csvCell(get(row))).join(',')}\r\n`;

/** CSV of exactly these rows, in this order, with a header line. */
export function toCsv(rows: readonly WipeView[]): string {
  return csvHeader() + rows.map(csvLine).join('');
}
