import { formatTimestamp } from '../../domain/certificates/format.js';
import { countsText, methodCountsText, type LotSummary } from '../../domain/certificates/lot-document.js';
import { page } from './verify-page.js';

/** One certificate of the lot as the verify answer lists it. */
export interface LotVerifyCertificate {
  certificate_number: string;
  certificate_id: string;
  valid: boolean;
  verify_url: string;
  drive_serial: string | null;
  drive_model: string | null;
}

/** The JSON answer of `GET /lots/{id}/verify`. */
export interface LotVerifyAnswer {
  valid: boolean;
  lot_document_id: string;
  account: string;
  generated_at: string;
  document_sha256: string;
  summary: LotSummary;
  certificates: LotVerifyCertificate[];
  /** Drives listed in the lot without a certificate (not certified). */
  uncertified: { drive_serial: string | null; drive_model: string | null; status: string }[];
}

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const row = (label: string, value: string | null | undefined) => `<tr><th scope="row">${escape(label)}</th><td>${value ? escape(value) : '—'}</td></tr>`;

/**
 * The page a person sees when they scan a lot certificate's QR code: the verdict for the whole
 * lot, what it covers, then each certificate with its own verdict and a link to its verify page.
 */
export function lotVerifyPage(answer: LotVerifyAnswer): string {
  const failing = answer.certificates.filter((c) => !c.valid).length;
  const verdict = answer.valid
    ? { tone: 'valid', title: 'Valid lot certificate', text: `Issued by the erasure service. All ${answer.certificates.length} certificates in this lot were checked just now, and none has changed since it was signed.` }
    : {
        tone: 'invalid',
        title: 'Not valid',
        text: answer.certificates.length === 0
          ? 'This lot holds no certificate. Do not rely on it; ask the company that processed the devices.'
          : `${failing} of the ${answer.certificates.length} certificates in this lot do not match what the erasure service issued. Do not rely on them; ask the company that processed the devices.`,
      };
  const s = answer.summary;
  const range = s.from ? `${formatTimestamp(s.from, false)?.slice(0, 10)} to ${formatTimestamp(s.to, false)?.slice(0, 10)}` : null;
  const items = answer.certificates
    .map((c) => `<tr data-testid="lot-certificate"><td><a href="/certificates/${encodeURIComponent(c.certificate_id)}/verify">${escape(c.certificate_number)}</a></td>
<td>${escape([c.drive_model, c.drive_serial].filter(Boolean).join(' · ') || '—')}</td><td class="${c.valid ? 'ok' : 'bad'}">${c.valid ? '✓ Valid' : '✗ Not valid'}</td></tr>`)
    .join('\n');
  const others = answer.uncertified
    .map((d) => `<tr><td>No certificate</td><td>${escape([d.drive_model, d.drive_serial].filter(Boolean).join(' · ') || '—')}</td><td>${escape(d.status)}</td></tr>`)
    .join('\n');
  return page(
    `${verdict.title} · lot ${answer.lot_document_id}`,
    `<div class="verdict ${verdict.tone}" data-testid="verdict"><span class="mark" aria-hidden="true">${answer.valid ? '✓' : '✗'}</span>
<div><h1>${escape(verdict.title)}</h1><p>${escape(verdict.text)}</p></div></div>
<h2>What this lot covers</h2>
<table>
${row('Processed by', answer.account)}
${row('Customer', s.customers.join(', ') || null)}
${row('Lot', s.lots.join(', ') || null)}
${row('Erased', range)}
${row('Drives', `${s.drives} (${countsText(s.by_status)}); ${s.certified} with a certificate`)}
${row('Methods', methodCountsText(s.by_method))}
${row('Lot document made', formatTimestamp(answer.generated_at))}
${(s.validation ?? []).map((sentence) => row('Validation sample', sentence)).join('\n')}
</table>
<h2>Certificates</h2>
<table data-testid="lot-certificates"><thead><tr><th>Certificate</th><th>Drive</th><th>Check</th></tr></thead><tbody>
${items}
${others}
</tbody></table>
<p class="muted">Each certificate links to its own verify page. The lot document is one PDF signed by the erasure service, with each drive's signed certificate attached unchanged; its SHA-256 is <code style="overflow-wrap:anywhere">${escape(answer.document_sha256)}</code>. API clients get this answer as JSON from the same address.</p>
<style>.ok{color:#17683b;font-weight:600}.bad{color:#a3261c;font-weight:600}thead th{width:auto}</style>`,
  );
}

export function lotNotFoundPage(): string {
  return page(
    'Lot certificate not found',
    `<div class="verdict invalid" data-testid="verdict"><span class="mark" aria-hidden="true">✗</span>
<div><h1>No such lot certificate</h1><p>The erasure service has no lot certificate at this address. Check that the link or QR code was copied whole; a lot certificate that cannot be found cannot be relied on.</p></div></div>`,
  );
}
