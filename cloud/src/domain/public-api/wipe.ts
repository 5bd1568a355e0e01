import type { PublicWipe } from '@erasure/shared';
import type { WipeGridRow } from '../../adapters/db/wipes-grid.js';
import { toWipeView } from '../wipes/grid.js';

/**
 * One wipe result for `GET /api/v1/wipes` (issue 31 item 5): the grid's row (vendor, media type,
 * source, duration, status, health grade derived once, in domain/wipes/grid.ts) in the public
 * API's words, with its certificate as the pipeline stands.
 */
export function toPublicWipe(row: WipeGridRow, accountPublicId: string): PublicWipe {
  const view = toWipeView(row);
  const source: PublicWipe['source'] =
    view.source.kind === 'asset'
      ? { kind: 'asset', asset_id: view.source.asset_id }
      : view.source.kind === 'hotswap'
        ? { kind: 'hotswap', ...(view.source.bay ? { bay: view.source.bay } : {}), ...(view.source.chassis ? { chassis: view.source.chassis } : {}) }
        : { kind: 'none' };
  const status = row.cert_status === 'complete' ? 'complete' : (row.certificate_status ?? 'pending');
  return {
    id: row.public_id,
    account_id: accountPublicId,
    job_id: row.job_id,
    drive_serial: row.drive_serial,
    drive_model: row.drive_model,
    drive_vendor: view.vendor,
    drive_capacity_gb: row.drive_capacity_gb,
    media_type: view.media_type,
    wipe_method: row.wipe_method,
    passes_completed: row.passes_completed,
    started_at: row.started_at,
    completed_at: row.completed_at,
    duration_seconds: view.duration_seconds,
    wipe_status: view.status,
    validation: row.validation,
    source,
    technician: row.user_email,
    customer: row.customer,
    lot_reference: row.lot_reference,
    asset_tag: row.asset_tag ?? null,
    certificate: row.certifiable === 1 ? { status, id: row.cert_public_id, number: row.cert_number } : null,
    health_grade: view.health_grade,
    health_reasons: view.health_reasons,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
  };
}
