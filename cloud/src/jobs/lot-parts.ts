import type { Clock } from '../adapters/clock.js';
import { findCertificateByPublicId } from '../adapters/db/certificates.js';
import { lotsOfWipes } from '../adapters/db/validation.js';
import type { WipeGridReader, WipeGridRow } from '../adapters/db/wipes-grid.js';
import type { SqlRunner } from '../adapters/sql/database.js';
import type { LotDrive, LotValidation } from '../domain/certificates/lot.js';
import { statusBadge } from '../domain/wipes/grid.js';

/*
 * What a lot file is made of, read from the store: the grid rows of the selection, each drive's
 * line and its certificate's object keys. Shared by the background lot export; the in-request
 * route (http/routes/app-certificate-lots.ts) reads the same fields the same way.
 */

/** byPublicIds reads this many ids per query: one IN list, well under both stores' limits. */
const IDS_PER_QUERY = 500;

/** The account's grid rows of `ids`, in the order given; unknown ids (or another account's) left out. */
export async function rowsOfIds(grid: WipeGridReader, accountId: number, ids: readonly string[]): Promise<WipeGridRow[]> {
  const rows: WipeGridRow[] = [];
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
    const part = ids.slice(at, at + IDS_PER_QUERY);
    const found = new Map((await grid.byPublicIds(accountId, part)).map((row) => [row.public_id, row]));
    for (const id of part) if (found.has(id)) rows.push(found.get(id)!);
  }
  return rows;
}

/** A certified row's stored documents: its number and the two PDFs' object keys. */
export async function documentsOf(db: SqlRunner, row: WipeGridRow): Promise<{ number: string; certificate: string; report: string } | undefined> {
  if (!row.cert_public_id || row.cert_status !== 'complete') return undefined;
  const cert = await findCertificateByPublicId(db, row.cert_public_id);
  if (!cert?.certificate_key || !cert.report_key) return undefined;
  return { number: cert.certificate_number, certificate: cert.certificate_key, report: cert.report_key };
}

/** The drive's line on the summary, with its certificate PDF when the lot document attaches it. */
export function driveOf(row: WipeGridRow, certificatePdf?: Uint8Array): LotDrive {
  return {
    certificateNumber: row.cert_status === 'complete' ? row.cert_number : null,
    model: row.drive_model,
    serial: row.drive_serial,
    capacityGb: row.drive_capacity_gb,
    method: row.wipe_method,
    status: statusBadge(row.wipe_status).label,
    completedAt: row.completed_at,
    certificatePdf,
  };
}

/** The validation sample of each lot the wipes belong to, as the summary states it. */
export async function validationOf(db: SqlRunner, accountId: number, rows: readonly WipeGridRow[]): Promise<LotValidation[]> {
  return (await lotsOfWipes(db, accountId, rows.map((row) => row.public_id))).map((lot) => ({
    name: [lot.customer, lot.lot_reference].filter(Boolean).join(' · '),
    ratePercent: lot.rate_percent,
    certified: lot.certified,
    sampleSize: lot.picked,
    passed: lot.passed,
    failed: lot.failed,
    needsAttention: lot.needs_attention === 1,
  }));
}

export const isoAt = (clock: Clock, plusMs = 0): string => new Date(clock.now().getTime() + plusMs).toISOString();
