import type { VerifyAnswer } from '../../domain/certificates/tamper-check.js';
import { formatCapacityGb, formatTimestamp } from '../../domain/certificates/format.js';

/** What the page shows beside the spec's verify fields. */
export interface VerifyPageExtras {
  /** NIST SP 800-88 category of the method, when known. */
  category: string | null;
  /** How the drive was erased, in the engine's words (e.g. "NVMe Sanitize (crypto erase)"). */
  technique: string | null;
  /** The engine's per-drive verification outcome (`verification_result`), in its words. */
  verification?: string | null;
  /** The PDFs, for a signed-in user of the account that owns the certificate; none for anyone else. */
  downloads: { label: string; href: string }[];
  /** A failed independent validation of the drive (issue 29): the certificate is not to be relied on. */
  rejection?: { reason: string | null; validatedAt: string } | null;
  /** The issuing account's logo and company details (issue 31 item 7), beside its name. */
  issuer?: { companyName: string | null; addressLines: readonly string[]; contact: string | null; logo: { type: 'png' | 'jpeg'; bytes: Uint8Array } | null } | null;
}

/** The "Processed by" cell: the account's name, and its own logo and details when it set them. */
function issuerCell(account: string, issuer: VerifyPageExtras['issuer']): string {
  if (!issuer) return `<tr><th scope="row">Processed by</th><td>${escape(account)}</td></tr>`;
  // The logo is inlined: the page makes no request of its own to the account's files.
  const logo = issuer.logo
    ? `<img class="logo" data-testid="issuer-logo" alt="${escape(issuer.companyName ?? account)} logo" src="data:image/${issuer.logo.type};base64,${Buffer.from(issuer.logo.bytes).toString('base64')}">`
    : '';
  const lines = [issuer.companyName, ...issuer.addressLines, issuer.contact].filter((l): l is string => Boolean(l));
  const details = lines.map((l, i) => (i === 0 && issuer.companyName ? `<strong>${escape(l)}</strong>` : escape(l))).join('<br>');
  return `<tr><th scope="row">Processed by</th><td><div class="issuer" data-testid="issuer">${logo}<div>${escape(account)}${details ? `<div class="issuer-details">${details}</div>` : ''}</div></div></td></tr>`;
}

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const row = (label: string, value: string | null | undefined) => `<tr><th scope="row">${escape(label)}</th><td>${value ? escape(value) : '—'}</td></tr>`;

/**
 * The page a person sees when they scan a certificate's QR code (the same URL answers JSON to
 * API clients). The verdict first, in one glance; then what was erased, how, when and by whom.
 */
export function verifyPage(answer: VerifyAnswer, extras: VerifyPageExtras): string {
  const verdict = extras.rejection
    ? {
        tone: 'invalid',
        title: 'Not valid: failed validation',
        text: `An independent check of this drive after its erasure found data that should not be there, so this certificate must not be relied on. The drive is held for review. What the check found: ${extras.rejection.reason ?? 'not stated'}.`,
      }
    : answer.valid
    ? { tone: 'valid', title: 'Valid certificate', text: 'This certificate was issued by the erasure service, and nothing in it has changed since it was signed.' }
    : {
        tone: 'invalid',
        title: 'Not valid',
        text: 'This certificate does not match what the erasure service issued, or it is not complete. Do not rely on it; ask the company that processed the device.',
      };
  const downloads = extras.downloads.length
    ? `<p class="downloads">${extras.downloads.map((d) => `<a class="button" href="${escape(d.href)}">${escape(d.label)}</a>`).join(' ')}</p>`
    : '';
  return page(
    `${verdict.title} · ${answer.certificate_number}`,
    `<div class="verdict ${verdict.tone}" data-testid="verdict"><span class="mark" aria-hidden="true">${answer.valid ? '✓' : '✗'}</span>
<div><h1>${escape(verdict.title)}</h1><p>${escape(verdict.text)}</p></div></div>
<h2>Certificate ${escape(answer.certificate_number)}</h2>
<table>
${row('Drive', [answer.drive_model, answer.drive_serial ? `serial ${answer.drive_serial}` : null].filter(Boolean).join(' · '))}
${row('Capacity', formatCapacityGb(answer.drive_capacity_gb))}
${row('Erasure method', answer.wipe_method)}
${row('Technique (IEEE 2883-2022)', extras.technique)}
${row('Sanitization level (NIST SP 800-88 Rev. 2)', extras.category)}
${row('Verification (the technique completed as intended)', extras.verification ?? null)}
${row('Passes', answer.passes_completed === null ? null : String(answer.passes_completed))}
${row('Erased', formatTimestamp(answer.completed_at))}
${row('Signed', formatTimestamp(answer.signed_at))}
${issuerCell(answer.account, extras.issuer)}
${extras.rejection ? row('Validation', `Failed on ${formatTimestamp(extras.rejection.validatedAt) ?? extras.rejection.validatedAt}: ${extras.rejection.reason ?? 'no reason given'}`) : ''}
</table>
${downloads}
<p class="muted">Under NIST SP 800-88 Rev. 2, verification confirms on each drive that the sanitization technique completed as intended; validation is a separate, independent check of the outcome. Checked just now against the erasure service's records. API clients get this answer as JSON from the same address.</p>`,
  );
}

export function notFoundPage(): string {
  return page(
    'Certificate not found',
    `<div class="verdict invalid" data-testid="verdict"><span class="mark" aria-hidden="true">✗</span>
<div><h1>No such certificate</h1><p>The erasure service has no certificate at this address. Check that the link or QR code was copied whole; a certificate that cannot be found cannot be relied on.</p></div></div>`,
  );
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:640px;padding:20px;color:#1c2430;background:#f6f7f9}
.verdict{display:flex;gap:14px;align-items:center;padding:16px;border-radius:10px;color:#fff}
.verdict h1{margin:0;font-size:24px}.verdict p{margin:4px 0 0}.mark{font-size:44px;line-height:1}
.valid{background:#17683b}.invalid{background:#a3261c}
h2{font-size:18px;margin:24px 0 8px}table{width:100%;border-collapse:collapse;background:#fff;border-radius:8px}
th,td{padding:10px 12px;border-bottom:1px solid #e3e7ec;text-align:left;vertical-align:top}th{width:38%;color:#5b6675;font-weight:600}
td{overflow-wrap:anywhere}.button{display:inline-block;margin:14px 8px 0 0;padding:10px 14px;background:#1f4e8c;color:#fff;border-radius:6px;text-decoration:none}
.muted{color:#5b6675;font-size:14px;margin-top:18px}
.issuer{display:flex;flex-direction:column;gap:8px;align-items:flex-start}.logo{max-width:160px;max-height:56px;object-fit:contain}.issuer-details{color:#5b6675;font-size:14px}
</style></head><body>
${body}
</body></html>`;
}
