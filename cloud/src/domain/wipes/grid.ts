import { stationBayOf } from '@erasure/shared';
import type { WipeGridRow } from '../../adapters/db/wipes-grid.js';
import { notIssuedInWords } from './not-issued.js';
import { driveVendor, mediaKind } from './vendor.js';

/** The certificate cell of spec 4.5 rule 3. */
export type CertificateCell =
  | { kind: 'issued'; id: string; number: string }
  | { kind: 'badge'; label: 'Pending' | 'Generating' | 'Complete' | 'Failed' }
  /** Why, in plain words (`reason`), and the stored `uncertified_reason` for Details (issue 31 item 4). */
  | { kind: 'not_issued'; reason: string; detail: string | null };

/** Where the wiped drive came from (spec 4.5 rule 2); a hotswap wipe names its bay and chassis map when the station sent them. */
export type SourceCell = { kind: 'asset'; asset_id: string; label: string } | { kind: 'hotswap'; bay?: string; chassis?: string } | { kind: 'none' };

/** One grid row, derived once on the server; the page only sorts, filters and renders it. */
export interface WipeView {
  id: string;
  job_id: string;
  vendor: string | null;
  model: string | null;
  serial: string | null;
  capacity_gb: number | null;
  /** The drive's exact size when the machine it sat in reported it (fingerprint storage); else null. */
  capacity_bytes: number | null;
  media_type: 'SSD' | 'HDD' | null;
  method: string | null;
  passes_completed: number | null;
  source: SourceCell;
  started_at: string | null;
  completed_at: string | null;
  duration_seconds: number | null;
  /** Stored status; absent reads as `completed` (legacy devices). */
  status: string;
  status_label: string;
  status_tone: 'pass' | 'fail' | 'neutral';
  technician: string | null;
  /** Set per device token (issue 23); null when none was set. */
  customer: string | null;
  lot_reference: string | null;
  /** Typed or scanned at the kiosk (issue 31 item 6); null when none was. */
  asset_tag: string | null;
  certificate: CertificateCell;
  /** The resale grade (issue 30 item 6) and each rule's reason; null and [] when the drive was not graded. */
  health_grade: 'A' | 'B' | 'C' | 'F' | null;
  health_reasons: string[];
}

const titleize = (value: string) =>
  value
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');

/** Pass (green) for completed, Fail (red) for failed, the titleized status in grey otherwise. */
export function statusBadge(status: string | null): { status: string; label: string; tone: WipeView['status_tone'] } {
  const value = status === null || status.trim() === '' ? 'completed' : status.trim().toLowerCase();
  if (value === 'completed') return { status: value, label: 'Pass', tone: 'pass' };
  if (value === 'failed') return { status: value, label: 'Fail', tone: 'fail' };
  return { status: value, label: titleize(value), tone: 'neutral' };
}

/** Seconds between start and completion, or null when either is missing or they are out of order. */
export function durationSeconds(startedAt: string | null, completedAt: string | null): number | null {
  if (!startedAt || !completedAt) return null;
  const ms = Date.parse(completedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : null;
}

export function certificateCell(
  row: Pick<WipeGridRow, 'certifiable' | 'certificate_status' | 'cert_public_id' | 'cert_number' | 'cert_status'> & Partial<Pick<WipeGridRow, 'uncertified_reason'>>,
): CertificateCell {
  if (row.certifiable !== 1) {
    const stored = row.uncertified_reason?.trim() || null;
    return { kind: 'not_issued', reason: notIssuedInWords(stored), detail: stored };
  }
  const status = row.cert_status === 'complete' ? 'complete' : (row.certificate_status ?? 'pending');
  if (status === 'complete' && row.cert_public_id && row.cert_number) {
    return { kind: 'issued', id: row.cert_public_id, number: row.cert_number };
  }
  const label = ({ pending: 'Pending', generating: 'Generating', complete: 'Complete', failed: 'Failed' } as const)[status];
  return { kind: 'badge', label };
}

/**
 * Spec 4.5 rule 2: a hotswap-station wipe shows Hotswap, whatever machine its serial matches. A
 * station's drives only pass through its bays, so a match is no answer to where the drive was
 * erased: it is the chassis itself when the drive sat in a bay at boot (its asset report listed
 * it), or a machine the drive once came out of. A station wipe is one reported by a hotswap
 * token, or one whose tool_components names its bay (`serve --station` on an engine token; the
 * Erasure Report prints the same bay). Only other wipes are matched to a machine.
 */
export function sourceCell(row: Pick<WipeGridRow, 'asset_public_id' | 'asset_model' | 'asset_serial' | 'product' | 'tool_components' | 'station'>): SourceCell {
  const station = stationBayOf(row.tool_components);
  // The store's reading when it gave one, so the Source filter (SQL) and this cell always agree.
  const isStation = row.station === undefined ? row.product === 'hotswap' || station !== undefined : row.station === 1;
  if (isStation) return { kind: 'hotswap', ...station };
  if (row.asset_public_id) {
    const label = [row.asset_model, row.asset_serial].filter((part) => part !== null && part !== '').join(' · ');
    return { kind: 'asset', asset_id: row.asset_public_id, label: label || row.asset_public_id };
  }
  return { kind: 'none' };
}

export function toWipeView(row: WipeGridRow): WipeView {
  const badge = statusBadge(row.wipe_status);
  return {
    id: row.public_id,
    job_id: row.job_id,
    vendor: driveVendor(row.drive_model),
    model: row.drive_model,
    serial: row.drive_serial,
    capacity_gb: row.drive_capacity_gb,
    capacity_bytes: typeof row.drive_size_bytes === 'number' && Number.isFinite(row.drive_size_bytes) && row.drive_size_bytes >= 0 ? row.drive_size_bytes : null,
    media_type: mediaKind(row.media_type),
    method: row.wipe_method,
    passes_completed: row.passes_completed,
    source: sourceCell(row),
    started_at: row.started_at,
    completed_at: row.completed_at,
    duration_seconds: durationSeconds(row.started_at, row.completed_at),
    status: badge.status,
    status_label: badge.label,
    status_tone: badge.tone,
    technician: row.user_email,
    customer: row.customer,
    lot_reference: row.lot_reference,
    asset_tag: row.asset_tag ?? null,
    certificate: certificateCell(row),
    ...healthCells(row),
  };
}

const GRADES = new Set(['A', 'B', 'C', 'F']);

/** The grade and reasons of a stored health object; a damaged one reads as not graded rather than failing the grid. */
export function healthCells(row: Pick<WipeGridRow, 'health_grade' | 'health_json'>): Pick<WipeView, 'health_grade' | 'health_reasons'> {
  const grade = row.health_grade !== null && GRADES.has(row.health_grade) ? (row.health_grade as WipeView['health_grade']) : null;
  let reasons: string[] = [];
  try {
    const parsed: unknown = row.health_json ? JSON.parse(row.health_json) : null;
    const list = (parsed as { reasons?: unknown } | null)?.reasons;
    if (Array.isArray(list)) reasons = list.filter((r): r is string => typeof r === 'string');
  } catch {
    reasons = [];
  }
  return { health_grade: grade, health_reasons: grade ? reasons : [] };
}
