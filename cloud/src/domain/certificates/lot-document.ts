import { createHash } from 'node:crypto';
import { AFRelationship, PDFDocument } from 'pdf-lib';
import type { FontSource } from './fonts.js';
import { formatTimestamp } from './format.js';
import { drawSectionHeading, drawTable, type Column } from './layout-blocks.js';
import { ACCENT, contentWidth, createFrame, currentPage, drawText, lineHeight, MUTED, textWidth, wrapText, type Frame, type TextStyle } from './layout.js';
import { ENGLISH, wordingFor, type Language, type Wording } from './i18n/wording.js';
import { statusWord, summaryRows, validationSentence, type LotDrive, type LotValidation } from './lot.js';
import { paintPages } from './pdf-document.js';
import { addSignaturePlaceholder, signPlaceholder } from './pdf-signature.js';
import type { PdfSigner } from './pdf-signing-certificate.js';
import { qrCodeOps } from './qr-code.js';

/*
 * The lot certificate (issue 31 item 3): one new PDF, signed once (PAdES, the single
 * certificates' signer and code path), whose pages summarise the lot and list every drive, and
 * which carries each drive's signed certificate PDF as an attachment, byte for byte. Copying the
 * signed pages into a new file (what the merged PDF did before) breaks every signature in it;
 * attached, each certificate still verifies on its own once extracted.
 *
 * A plain function of its inputs: served directly today, run as a background job for big lots
 * later (issue 31 item 2) without change.
 */

/** The manifest attached to a lot document: which attachment is which certificate. */
export const LOT_MANIFEST_NAME = 'lot.json';
export const LOT_MANIFEST_SCHEMA = 'erasure-lot/v1';

export interface LotManifest {
  schema: typeof LOT_MANIFEST_SCHEMA;
  lot_document_id: string;
  verify_url: string;
  account: string;
  generated_at: string;
  certificates: { file: string; certificate_number: string; certificate_id: string; sha256: string }[];
}

/** A drive of the lot with what the document needs of its certificate. */
export interface LotDocumentDrive extends LotDrive {
  readonly certificateId?: string | null | undefined;
  readonly customer?: string | null | undefined;
  readonly lotReference?: string | null | undefined;
}

export interface LotDocumentInput {
  /** The lot document's public id (`lotdoc_…`), as its verify URL names it. */
  readonly lotDocumentId: string;
  readonly verifyUrl: string;
  readonly accountName: string;
  /** When the document was made (ISO timestamp): its /M and signing time. */
  readonly generatedAt: string;
  readonly drives: readonly LotDocumentDrive[];
  readonly validation?: readonly LotValidation[] | undefined;
  /** The language its pages are drawn in: the account's certificate language when the lot is made. Default English. */
  readonly language?: Language | undefined;
}

export interface LotDocumentDeps {
  readonly fonts: FontSource;
  readonly pdfSigner: PdfSigner;
}

/** What the lot covers, as the summary page, the stored row and the verify page state it. */
export interface LotSummary {
  customers: string[];
  lots: string[];
  /** Earliest and latest completion among the drives (ISO), null when none has one. */
  from: string | null;
  to: string | null;
  drives: number;
  certified: number;
  /** Result label → drives, e.g. `{Pass: 3, Fail: 1}`, in first-seen order. */
  by_status: Record<string, number>;
  /** Method → drives; drives without one count under "not recorded". */
  by_method: Record<string, number>;
  /** The validation sample of each lot, one sentence each, as the summary page states it (stored rows only). */
  validation?: string[];
}

/**
 * The summary as the lot document's row stores it: the JSON answer's summary (validation in
 * English sentences), plus what the verify page needs to speak the document's language, the
 * language its pages were drawn in and the validation samples as facts. Rows from before have neither.
 */
export interface StoredLotSummary extends LotSummary {
  language?: Language;
  validation_facts?: LotValidation[];
}

export function storedLotSummary(drives: readonly LotDocumentDrive[], validation: readonly LotValidation[], language: Language): StoredLotSummary {
  return { ...lotSummary(drives), validation: validation.map((v) => validationSentence(v)), language, validation_facts: [...validation] };
}

/**
 * What the lot covers, label and value, in the page's language: the lot PDF's first page and the
 * lot's verify page state the same facts.
 */
export function lotFacts(summary: LotSummary, accountName: string, generatedAt: string, w: Wording): [string, string][] {
  // The date part alone: the first ten characters in every language (2026-11-22 · 22.11.2026 · 22/11/2026).
  const day = (iso: string | null) => formatTimestamp(iso, false, w)?.slice(0, 10);
  const range = summary.from ? w.t('lot.range', { from: day(summary.from) ?? '', to: day(summary.to) ?? '' }) : w.t('lot.notRecorded');
  // Counts ungrouped, as the English page always printed them (a lot holds at most a few thousand drives).
  const drivesValue = w.t('lot.drivesValue', { drives: summary.drives, statuses: countsText(summary.by_status, (s) => statusWord(s, w)), certified: summary.certified });
  return [
    [w.t('lot.processedBy'), accountName],
    [w.t('lot.customer'), summary.customers.join(', ') || w.t('lot.notSet')],
    [w.t('lot.lot'), summary.lots.join(', ') || w.t('lot.notSet')],
    [w.t('lot.erased'), range],
    [w.t('lot.drives'), drivesValue],
    [w.t('lot.methods'), methodCountsText(summary.by_method, (m) => (m === NO_METHOD ? w.t('lot.notRecorded') : m))],
    [w.t('lot.made'), formatTimestamp(generatedAt, true, w) ?? generatedAt],
  ];
}

export function lotSummary(drives: readonly LotDocumentDrive[]): LotSummary {
  const distinct = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => !!v && v.trim() !== ''))];
  const times = drives.map((d) => d.completedAt).filter((t): t is string => !!t && !Number.isNaN(Date.parse(t))).sort((a, b) => Date.parse(a) - Date.parse(b));
  const count = (keys: string[]) => keys.reduce<Record<string, number>>((acc, key) => ({ ...acc, [key]: (acc[key] ?? 0) + 1 }), {});
  return {
    customers: distinct(drives.map((d) => d.customer)),
    lots: distinct(drives.map((d) => d.lotReference)),
    from: times[0] ?? null,
    to: times[times.length - 1] ?? null,
    drives: drives.length,
    certified: drives.filter((d) => d.certificatePdf && d.certificateNumber).length,
    by_status: count(drives.map((d) => d.status)),
    by_method: count(drives.map((d) => d.method ?? NO_METHOD)),
  };
}

/** `10 Pass, 2 Fail`; `word` names each key in the page's language (the stored summary keeps the English keys). */
export const countsText = (counts: Record<string, number>, word: (key: string) => string = (key) => key): string =>
  Object.entries(counts)
    .map(([key, n]) => `${n} ${word(key)}`)
    .join(', ');

/** `NIST 800-88 R2 Purge: 9 · Clear: 3` (a method's name may end in a number). */
export const methodCountsText = (counts: Record<string, number>, word: (key: string) => string = (key) => key): string =>
  Object.entries(counts)
    .map(([key, n]) => `${word(key)}: ${n}`)
    .join(' · ');

/** The key lotSummary counts drives without a method under, as stored and as the verify page shows it. */
const NO_METHOD = 'not recorded';

/** The attachment name of a drive's certificate: sorts in the summary's order. */
export function lotAttachmentName(index: number, certificateNumber: string): string {
  return `${String(index + 1).padStart(3, '0')} ${certificateNumber.replace(/[^\w-]/g, '_')} certificate.pdf`;
}

const TITLE: TextStyle = { role: 'bold', size: 16, color: ACCENT };
const LABEL: TextStyle = { role: 'bold', size: 9 };
const BODY: TextStyle = { role: 'regular', size: 9 };
const NOTE: TextStyle = { role: 'regular', size: 8, color: MUTED };
const QR_SIZE = 96;

/** The drive table's columns, headed in the page's language. */
export const lotColumns = (w: Wording): readonly Column[] => [
  { header: '#', width: 0.05 },
  { header: w.t('lot.col.certificate'), width: 0.15, bold: true },
  { header: w.t('lot.col.drive'), width: 0.24 },
  { header: w.t('lot.col.serial'), width: 0.18, mono: true },
  { header: w.t('lot.col.capacity'), width: 0.1 },
  { header: w.t('lot.col.method'), width: 0.16 },
  { header: w.t('lot.col.result'), width: 0.12 },
];

function paragraph(frame: Frame, text: string, style: TextStyle, width = contentWidth(frame)): void {
  for (const line of wrapText(frame.fonts, text, style, width)) {
    drawText(frame, line, style, frame.left, frame.y);
    frame.y -= lineHeight(style);
  }
}

/** `Label: value` lines beside the QR code. */
function facts(frame: Frame, rows: [string, string][], width: number): void {
  const labelWidth = 92;
  for (const [label, value] of rows) {
    drawText(frame, label, LABEL, frame.left, frame.y);
    const lines = wrapText(frame.fonts, value, BODY, width - labelWidth);
    for (const line of lines) {
      drawText(frame, line, BODY, frame.left + labelWidth, frame.y);
      frame.y -= lineHeight(BODY);
    }
  }
}

/** The summary pages: title and QR code, what the lot covers, its counts and sample, one line per drive. */
export function layoutLotSummary(input: LotDocumentInput, fonts: FontSource): Frame {
  const w = input.language ? wordingFor(input.language) : ENGLISH;
  const footer: TextStyle = { role: 'regular', size: 7, color: MUTED };
  const frame = createFrame(fonts, { top: 48, bottom: 52, side: 48 }, (f) => {
    drawText(f, w.t('lot.footer', { id: input.lotDocumentId, account: input.accountName, page: f.pages.length }), footer, f.left, f.bottom - 20);
    return f.top;
  });
  const summary = lotSummary(input.drives);
  const qrLeft = frame.right - QR_SIZE;
  const top = frame.y;
  currentPage(frame).push(...qrCodeOps(input.verifyUrl, qrLeft, top + 6, QR_SIZE));
  const scan = w.t('lot.scan');
  drawText(frame, scan, NOTE, qrLeft + QR_SIZE / 2 - textWidth(fonts, scan, NOTE) / 2, top - QR_SIZE + 2);
  const textWidthBeside = contentWidth(frame) - QR_SIZE - 12;

  drawText(frame, w.t('lot.title'), TITLE, frame.left, frame.y);
  frame.y -= lineHeight(TITLE) + 4;
  facts(frame, lotFacts(summary, input.accountName, input.generatedAt, w), textWidthBeside);
  frame.y = Math.min(frame.y, top - QR_SIZE - 14);
  paragraph(frame, w.t('lot.verifyAt', { url: input.verifyUrl }), NOTE);
  frame.y -= 8;

  if (input.validation && input.validation.length > 0) {
    drawSectionHeading(frame, w.t('lot.validationHeading'));
    for (const lot of input.validation) paragraph(frame, validationSentence(lot, w), BODY);
    frame.y -= 8;
  }
  drawSectionHeading(frame, w.t('lot.tableHeading'));
  drawTable(frame, lotColumns(w), summaryRows(input.drives, w));
  frame.y -= 10;
  paragraph(frame, w.t('lot.closing'), NOTE);
  return frame;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The lot document: summary pages, the certificates attached unchanged with a manifest, one PAdES signature. */
export async function buildLotDocument(input: LotDocumentInput, deps: LotDocumentDeps): Promise<Uint8Array> {
  const when = new Date(input.generatedAt);
  if (Number.isNaN(when.getTime())) throw new RangeError(`generatedAt is not a timestamp: ${input.generatedAt}`);
  const doc = await PDFDocument.create({ updateMetadata: false });
  await paintPages(doc, layoutLotSummary(input, deps.fonts), input.lotDocumentId);
  const w = input.language ? wordingFor(input.language) : ENGLISH;
  // The reader's window title is seen too; subject, keywords and attachment descriptions stay English (metadata, not the page).
  doc.setTitle(`${w.t('lot.title')} ${input.lotDocumentId}`, { showInWindowTitleBar: true });
  doc.setSubject(`Certificates of Sanitization of ${input.drives.length} drive${input.drives.length === 1 ? '' : 's'}, ${input.accountName}`);
  doc.setAuthor(input.accountName);
  doc.setKeywords([input.lotDocumentId, 'NIST SP 800-88', 'lot']);
  doc.setCreator('Erasure Cloud');
  doc.setProducer('Erasure Cloud certificate renderer (pdf-lib)');
  doc.setLanguage(w.language);
  doc.setCreationDate(when);
  doc.setModificationDate(when);

  const manifest: LotManifest = {
    schema: LOT_MANIFEST_SCHEMA,
    lot_document_id: input.lotDocumentId,
    verify_url: input.verifyUrl,
    account: input.accountName,
    generated_at: input.generatedAt,
    certificates: [],
  };
  const dates = { creationDate: when, modificationDate: when };
  for (const [index, drive] of input.drives.entries()) {
    if (!drive.certificatePdf || !drive.certificateNumber || !drive.certificateId) continue;
    const file = lotAttachmentName(index, drive.certificateNumber);
    await doc.attach(drive.certificatePdf, file, {
      ...dates,
      mimeType: 'application/pdf',
      description: `Certificate of Sanitization ${drive.certificateNumber}, as issued and signed`,
      afRelationship: AFRelationship.Source,
    });
    manifest.certificates.push({ file, certificate_number: drive.certificateNumber, certificate_id: drive.certificateId, sha256: sha256(drive.certificatePdf) });
  }
  await doc.attach(new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`), LOT_MANIFEST_NAME, {
    ...dates,
    mimeType: 'application/json',
    description: 'Which attachment is which certificate, with its SHA-256',
    afRelationship: AFRelationship.Data,
  });
  addSignaturePlaceholder(doc, { name: 'Erasure Cloud', reason: `Lot Certificate of Sanitization ${input.lotDocumentId}`, signingTime: when });
  return signPlaceholder(await doc.save({ useObjectStreams: false }), deps.pdfSigner);
}
