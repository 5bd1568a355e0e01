import type { PublicCertificate } from '@erasure/shared';
import type { CertificateRow } from '../../adapters/db/certificates.js';
import { verifyUrl } from '../certificates/build-content.js';

/** The public API's address of a certificate (by its number) and of its two PDFs, under the deployment's base URL. */
export function certificateApiUrl(base: string, number: string, document?: 'pdf' | 'report'): string {
  return `${base.replace(/\/+$/, '')}/api/v1/certificates/${encodeURIComponent(number)}${document ? `/${document}` : ''}`;
}

/**
 * One certificate for `GET /api/v1/certificates/{number}` (issue 31 item 5): its record as the
 * pipeline stands, the verify URL printed on it, and the links to its PDFs once they exist.
 */
export function toPublicCertificate(row: CertificateRow & { wipe_public_id: string }, accountPublicId: string, base: string): PublicCertificate {
  const complete = row.status === 'complete';
  return {
    number: row.certificate_number,
    id: row.public_id,
    wipe_id: row.wipe_public_id,
    account_id: accountPublicId,
    status: row.status,
    issued_at: complete ? row.generated_at : null,
    verify_url: verifyUrl(base, row.public_id),
    certificate_pdf_url: complete && row.certificate_key ? certificateApiUrl(base, row.certificate_number, 'pdf') : null,
    report_pdf_url: complete && row.report_key ? certificateApiUrl(base, row.certificate_number, 'report') : null,
    certificate_sha256: complete ? row.certificate_sha256 : null,
    report_sha256: complete ? row.report_sha256 : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
