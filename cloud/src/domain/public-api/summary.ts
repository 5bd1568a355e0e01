import type { AssetDetail, AssetSummary, DriveHealthSummary, PublicAccount } from '@erasure/shared';
import type { AssetDetailRow, AssetSummaryRow } from '../../adapters/db/asset-reads.js';
import type { WipeGridRow } from '../../adapters/db/wipes-grid.js';
import { healthCells } from '../wipes/grid.js';

/** Stored JSON object text as an object; anything unreadable or not an object reads as `fallback`. */
function jsonObject<T>(text: string | null, fallback: T): Record<string, unknown> | T {
  if (text === null) return fallback;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : fallback;
  } catch {
    return fallback;
  }
}

/** A stored asset row as the public summary (spec 2): `secure_boot` 0/1 becomes a boolean. */
export function toAssetSummary(row: AssetSummaryRow, accountPublicId: string): AssetSummary {
  return {
    id: row.public_id,
    account_id: accountPublicId,
    record_id: row.record_id,
    manufacturer: row.manufacturer,
    model: row.model,
    serial_number: row.serial_number,
    asset_tag: row.asset_tag,
    cpu_model: row.cpu_model,
    memory_total_bytes: row.memory_total_bytes,
    storage_summary: row.storage_summary,
    storage_serials: row.storage_serials,
    battery_health_pct: row.battery_health_pct,
    tpm_version: row.tpm_version,
    firmware_mode: row.firmware_mode,
    secure_boot: row.secure_boot === null ? null : row.secure_boot === 1,
    bios_version: row.bios_version,
    engine_version: row.engine_version,
    technician: row.technician,
    notes: row.notes,
    test_results: jsonObject(row.test_results, {}),
    first_seen_at: row.first_seen_at,
    audited_at: row.audited_at,
    updated_at: row.updated_at,
  };
}

export function toAssetDetail(row: AssetDetailRow, accountPublicId: string, wipes: readonly WipeGridRow[] = []): AssetDetail {
  return { ...toAssetSummary(row, accountPublicId), fingerprint: jsonObject(row.fingerprint, null), drive_health: driveHealth(wipes) };
}

/** Each drive's newest wipe (the rows come newest first) with its grade and reasons (issue 30 item 6). */
export function driveHealth(wipes: readonly WipeGridRow[]): DriveHealthSummary[] {
  const seen = new Set<string>();
  const out: DriveHealthSummary[] = [];
  for (const w of wipes) {
    const serial = (w.drive_serial ?? '').trim().toUpperCase();
    if (seen.has(serial)) continue;
    seen.add(serial);
    const { health_grade, health_reasons } = healthCells(w);
    out.push({ drive_serial: w.drive_serial, drive_model: w.drive_model, wipe_result_id: w.public_id, completed_at: w.completed_at, health_grade, health_reasons });
  }
  return out;
}

export function toPublicAccount(account: {
  id: number;
  publicId: string;
  name: string;
  active: boolean;
  subscriptionStatus: string;
  currentPeriodEnd: string | null;
  createdAt: string;
}): PublicAccount {
  return {
    id: account.publicId,
    numeric_id: account.id,
    name: account.name,
    active: account.active,
    subscription_status: account.subscriptionStatus,
    current_period_end: account.currentPeriodEnd,
    created_at: account.createdAt,
  };
}
