import { ENGLISH } from '../../domain/certificates/i18n/wording.js';
import { statusWord, validationSentence, type LotValidation } from '../../domain/certificates/lot.js';
import { lotFacts, type LotSummary } from '../../domain/certificates/lot-document.js';
import { languageSwitch, page, type PageLanguage } from './verify-page.js';

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

/** What the page needs beyond the answer: its language, and the validation samples as facts when the row kept them. */
export interface LotVerifyPageExtras {
  readonly language?: PageLanguage;
  /** The lot's validation samples, each drawn as a sentence in the page's language; else the stored English sentences. */
  readonly validation?: readonly LotValidation[] | undefined;
}

/**
 * The page a person sees when they scan a lot certificate's QR code: the verdict for the whole
 * lot, what it covers, then each certificate with its own verdict and a link to its verify page.
 * In the lot document's language (the one its pages were drawn in), or the one asked for.
 */
export function lotVerifyPage(answer: LotVerifyAnswer, extras: LotVerifyPageExtras = {}): string {
  const language = extras.language ?? { wording: ENGLISH };
  const w = language.wording;
  const count = answer.certificates.length;
  const failing = answer.certificates.filter((c) => !c.valid).length;
  const verdict = answer.valid
    ? { tone: 'valid', title: w.t('lotVerify.valid.title'), text: w.t('lotVerify.valid.text', { count }) }
    : { tone: 'invalid', title: w.t('verify.invalid.title'), text: count === 0 ? w.t('lotVerify.empty.text') : w.t('lotVerify.failing.text', { failing, count }) };
  const s = answer.summary;
  const validation = extras.validation ? extras.validation.map((v) => validationSentence(v, w)) : (s.validation ?? []);
  const items = answer.certificates
    .map((c) => `<tr data-testid="lot-certificate"><td><a href="/certificates/${encodeURIComponent(c.certificate_id)}/verify">${escape(c.certificate_number)}</a></td>
<td>${escape([c.drive_model, c.drive_serial].filter(Boolean).join(' · ') || '—')}</td><td class="${c.valid ? 'ok' : 'bad'}">${c.valid ? `✓ ${escape(w.t('lotVerify.certificateValid'))}` : `✗ ${escape(w.t('lotVerify.certificateInvalid'))}`}</td></tr>`)
    .join('\n');
  const others = answer.uncertified
    .map((d) => `<tr><td>${escape(w.t('lotVerify.noCertificate'))}</td><td>${escape([d.drive_model, d.drive_serial].filter(Boolean).join(' · ') || '—')}</td><td>${escape(statusWord(d.status, w))}</td></tr>`)
    .join('\n');
  // The document's hash sits in a <code> inside the translated sentence: the sentence is escaped first.
  const HASH = '\u0000sha256\u0000';
  const footnote = escape(w.t('lotVerify.footnote', { sha256: HASH })).replace(HASH, `<code style="overflow-wrap:anywhere">${escape(answer.document_sha256)}</code>`);
  return page(
    w.t('lotVerify.pageTitle', { title: verdict.title, id: answer.lot_document_id }),
    `<div class="verdict ${verdict.tone}" data-testid="verdict"><span class="mark" aria-hidden="true">${answer.valid ? '✓' : '✗'}</span>
<div><h1>${escape(verdict.title)}</h1><p>${escape(verdict.text)}</p></div></div>
<h2>${escape(w.t('lotVerify.covers'))}</h2>
<table>
${lotFacts(s, answer.account, answer.generated_at, w).map(([label, value]) => row(label, value)).join('\n')}
${validation.map((sentence) => row(w.t('lotVerify.validationSample'), sentence)).join('\n')}
</table>
<h2>${escape(w.t('lotVerify.certificates'))}</h2>
<table data-testid="lot-certificates"><thead><tr><th>${escape(w.t('lot.col.certificate'))}</th><th>${escape(w.t('lot.col.drive'))}</th><th>${escape(w.t('lotVerify.check'))}</th></tr></thead><tbody>
${items}
${others}
</tbody></table>
<p class="muted">${footnote}</p>
${languageSwitch(language)}
<style>.ok{color:#17683b;font-weight:600}.bad{color:#a3261c;font-weight:600}thead th{width:auto}</style>`,
    w.language,
  );
}

export function lotNotFoundPage(language: PageLanguage = { wording: ENGLISH }): string {
  const w = language.wording;
  return page(
    w.t('lotVerify.notFound.pageTitle'),
    `<div class="verdict invalid" data-testid="verdict"><span class="mark" aria-hidden="true">✗</span>
<div><h1>${escape(w.t('lotVerify.notFound.title'))}</h1><p>${escape(w.t('lotVerify.notFound.text'))}</p></div></div>
${languageSwitch(language)}`,
    w.language,
  );
}
