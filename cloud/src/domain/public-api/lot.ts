import type { PublicLot, PublicLotDetail } from '@erasure/shared';
import type { LotDocumentDriveRow, LotDocumentRow } from '../../adapters/db/lot-documents.js';
import type { LotSummary } from '../certificates/lot-document.js';
import { certificateApiUrl } from './certificate.js';

/**
 * A lot for the public API (issue 31 item 5): a lot document the account made (one signed lot
 * certificate, `lot_documents`), as its verify page (`verifyUrl`) states it. The stored summary is read field
 * by field, so the answer keeps the contract's shape whatever an older row held.
 */
export function toPublicLot(row: LotDocumentRow, accountPublicId: string, verifyUrl: string): PublicLot {
  const stored = JSON.parse(row.summary) as Partial<LotSummary>;
  return {
    id: row.public_id,
    account_id: accountPublicId,
    created_at: row.created_at,
    verify_url: verifyUrl,
    document_sha256: row.document_sha256,
    summary: {
      customers: stored.customers ?? [],
      lots: stored.lots ?? [],
      from: stored.from ?? null,
      to: stored.to ?? null,
      drives: stored.drives ?? 0,
      certified: stored.certified ?? 0,
      by_status: stored.by_status ?? {},
      by_method: stored.by_method ?? {},
      validation: stored.validation ?? [],
    },
  };
}

/** {@link toPublicLot} with the document's drives in its order, each with its certificate's API link. */
export function toPublicLotDetail(row: LotDocumentRow, accountPublicId: string, urls: { base: string; verifyUrl: string }): PublicLotDetail {
  const drives = (JSON.parse(row.drives) as LotDocumentDriveRow[]).map((drive) => ({
    certificate_number: drive.certificate_number,
    certificate_id: drive.certificate_id,
    certificate_url: drive.certificate_number ? certificateApiUrl(urls.base, drive.certificate_number) : null,
    drive_serial: drive.serial,
    drive_model: drive.model,
    status: drive.status,
  }));
  return { ...toPublicLot(row, accountPublicId, urls.verifyUrl), drives };
}
