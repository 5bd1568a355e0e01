import type { VerifyAnswer } from '../../domain/certificates/tamper-check.js';
import { formatCapacityGb } from '../../domain/certificates/format.js';
import { ENGLISH, LANGUAGES, type Language, type Wording } from '../../domain/certificates/i18n/wording.js';

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

/** The page's language and where each other language's page is (its `?lang=` address). */
export interface PageLanguage {
  readonly wording: Wording;
  readonly hrefOf?: (language: Language) => string;
}

const ENGLISH_PAGE: PageLanguage = { wording: ENGLISH };

/** Each language named in itself, for the switch at the foot of the page. */
const NATIVE_NAMES: Readonly<Record<Language, string>> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };

/** The "Processed by" cell: the account's name, and its own logo and details when it set them. */
function issuerCell(account: string, issuer: VerifyPageExtras['issuer'], w: Wording): string {
  const label = escape(w.t('field.processedBy'));
  if (!issuer) return `<tr><th scope="row">${label}</th><td>${escape(account)}</td></tr>`;
  // The logo is inlined: the page makes no request of its own to the account's files.
  const logo = issuer.logo
    ? `<img class="logo" data-testid="issuer-logo" alt="${escape(w.t('verify.logoAlt', { name: issuer.companyName ?? account }))}" src="data:image/${issuer.logo.type};base64,${Buffer.from(issuer.logo.bytes).toString('base64')}">`
    : '';
  const lines = [issuer.companyName, ...issuer.addressLines, issuer.contact].filter((l): l is string => Boolean(l));
  const details = lines.map((l, i) => (i === 0 && issuer.companyName ? `<strong>${escape(l)}</strong>` : escape(l))).join('<br>');
  return `<tr><th scope="row">${label}</th><td><div class="issuer" data-testid="issuer">${logo}<div>${escape(account)}${details ? `<div class="issuer-details">${details}</div>` : ''}</div></div></td></tr>`;
}

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const row = (label: string, value: string | null | undefined) => `<tr><th scope="row">${escape(label)}</th><td>${value ? escape(value) : '—'}</td></tr>`;

/** Links to the same page in the other languages; the current one is named, not linked. */
export function languageSwitch({ wording, hrefOf }: PageLanguage): string {
  if (!hrefOf) return '';
  const items = LANGUAGES.map((l) =>
    l === wording.language ? `<span aria-current="true" lang="${l}">${NATIVE_NAMES[l]}</span>` : `<a href="${escape(hrefOf(l))}" hreflang="${l}" lang="${l}">${NATIVE_NAMES[l]}</a>`,
  );
  return `<nav class="languages" aria-label="${escape(wording.t('verify.languages'))}" data-testid="languages">${items.join(' · ')}</nav>`;
}

/**
 * The page a person sees when they scan a certificate's QR code (the same URL answers JSON to
 * API clients). The verdict first, in one glance; then what was erased, how, when and by whom.
 * In the certificate's own language: the words are translated, the facts (method, technique, the
 * engine's verification words, NIST and IEEE names and levels) are shown as recorded.
 */
export function verifyPage(answer: VerifyAnswer, extras: VerifyPageExtras, language: PageLanguage = ENGLISH_PAGE): string {
  const w = language.wording;
  const verdict = extras.rejection
    ? { tone: 'invalid', title: w.t('verify.rejected.title'), text: w.t('verify.rejected.text', { reason: extras.rejection.reason ?? w.t('verify.notStated') }) }
    : answer.valid
      ? { tone: 'valid', title: w.t('verify.valid.title'), text: w.t('verify.valid.text') }
      : { tone: 'invalid', title: w.t('verify.invalid.title'), text: w.t('verify.invalid.text') };
  const downloads = extras.downloads.length
    ? `<p class="downloads">${extras.downloads.map((d) => `<a class="button" href="${escape(d.href)}">${escape(d.label)}</a>`).join(' ')}</p>`
    : '';
  const validation = extras.rejection
    ? row(w.t('verify.validation'), w.t('verify.validationFailed', { date: w.timestamp(extras.rejection.validatedAt) ?? extras.rejection.validatedAt, reason: extras.rejection.reason ?? w.t('verify.noReason') }))
    : '';
  return page(
    `${verdict.title} · ${answer.certificate_number}`,
    `<div class="verdict ${verdict.tone}" data-testid="verdict"><span class="mark" aria-hidden="true">${answer.valid ? '✓' : '✗'}</span>
<div><h1>${escape(verdict.title)}</h1><p>${escape(verdict.text)}</p></div></div>
<h2>${escape(w.t('verify.heading', { number: answer.certificate_number }))}</h2>
<table>
${row(w.t('verify.drive'), [answer.drive_model, answer.drive_serial ? w.t('verify.driveSerial', { serial: answer.drive_serial }) : null].filter(Boolean).join(' · '))}
${row(w.t('field.capacity'), formatCapacityGb(answer.drive_capacity_gb, w))}
${row(w.t('verify.method'), answer.wipe_method)}
${row(w.t('verify.technique'), extras.technique)}
${row(w.t('verify.level'), extras.category)}
${row(w.t('verify.verification'), extras.verification ?? null)}
${row(w.t('verify.passes'), answer.passes_completed === null ? null : w.number(answer.passes_completed))}
${row(w.t('verify.erased'), w.timestamp(answer.completed_at))}
${row(w.t('verify.signed'), w.timestamp(answer.signed_at))}
${issuerCell(answer.account, extras.issuer, w)}
${validation}
</table>
${downloads}
<p class="muted">${escape(w.t('verify.footnote'))}</p>
${languageSwitch(language)}`,
    w.language,
  );
}

export function notFoundPage(language: PageLanguage = ENGLISH_PAGE): string {
  const w = language.wording;
  return page(
    w.t('verify.notFound.pageTitle'),
    `<div class="verdict invalid" data-testid="verdict"><span class="mark" aria-hidden="true">✗</span>
<div><h1>${escape(w.t('verify.notFound.title'))}</h1><p>${escape(w.t('verify.notFound.text'))}</p></div></div>
${languageSwitch(language)}`,
    w.language,
  );
}

export function page(title: string, body: string, language: Language = 'en'): string {
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
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
.languages{margin-top:18px;font-size:14px;color:#5b6675}.languages a{color:#1f4e8c}
.issuer{display:flex;flex-direction:column;gap:8px;align-items:flex-start}.logo{max-width:160px;max-height:56px;object-fit:contain}.issuer-details{color:#5b6675;font-size:14px}
</style></head><body>
${body}
</body></html>`;
}
