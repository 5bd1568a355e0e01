import { PDFDocument } from 'pdf-lib';
import type { FontSource } from './fonts.js';
import { formatCapacityGb, formatTimestamp } from './format.js';
import { drawSectionHeading, drawTable, NOT_RECORDED, type Column } from './layout-blocks.js';
import { ACCENT, createFrame, drawText, lineHeight, MUTED, wrapText, contentWidth, type Frame, type TextStyle } from './layout.js';
import { ENGLISH, type Wording } from './i18n/wording.js';
import { paintPages } from './pdf-document.js';

/*
 * The summary of a lot's certificates for the refurbisher's customer: every drive in the order
 * the grid showed them. The ZIP download opens with it; the signed lot certificate
 * (lot-document.ts) draws the same rows.
 */

/** One drive of the lot, as the grid shows it, with its certificate's PDF when there is one. */
export interface LotDrive {
  readonly certificateNumber: string | null;
  readonly model: string | null;
  readonly serial: string | null;
  readonly capacityGb: number | null;
  readonly method: string | null;
  readonly status: string;
  readonly completedAt: string | null;
  /** The Certificate of Sanitization, when it is complete (attached to the lot certificate). */
  readonly certificatePdf?: Uint8Array | undefined;
}

export interface LotFacts {
  readonly accountName: string;
  /** When the lot file was made (ISO timestamp). */
  readonly generatedAt: string;
  /** Where each certificate can be checked, e.g. the cloud's public address. */
  readonly verifyHint: string;
  /** The validation sampling of the lots these drives belong to (issue 29); none: no section. */
  readonly validation?: readonly LotValidation[] | undefined;
}

/** One lot's validation sample (R2v3 Appendix B), as the summary states it. */
export interface LotValidation {
  /** "Customer · lot reference". */
  readonly name: string;
  readonly ratePercent: number;
  readonly certified: number;
  readonly sampleSize: number;
  readonly passed: number;
  readonly failed: number;
  readonly needsAttention: boolean;
}

/** One lot's sampling in one sentence: the sample size, how many passed, and the rate set (in the page's language). */
export function validationSentence(v: LotValidation, w: Wording = ENGLISH): string {
  const awaiting = v.sampleSize - v.passed - v.failed;
  const results = [
    w.t('lot.validation.passed', { count: v.passed }),
    v.failed > 0 ? w.t('lot.validation.failed', { count: v.failed }) : null,
    awaiting > 0 ? w.t('lot.validation.awaiting', { count: awaiting }) : null,
  ].filter(Boolean).join(', ');
  const sentence = w.t(v.certified === 1 ? 'lot.validation.one' : 'lot.validation.many', {
    name: v.name,
    sample: v.sampleSize,
    certified: v.certified,
    rate: w.number(v.ratePercent, 6),
    results,
  });
  return `${sentence}${v.needsAttention ? w.t('lot.validation.attention') : ''}`;
}

/** The result label the grid gives (statusBadge) in the page's language; one it does not know is printed as given. */
export function statusWord(label: string, w: Wording = ENGLISH): string {
  const key = ({ Pass: 'lot.status.pass', Fail: 'lot.status.fail', Cancelled: 'lot.status.cancelled' } as const)[label];
  return key ? w.t(key) : label;
}

const TITLE: TextStyle = { role: 'bold', size: 16, color: ACCENT };
const BODY: TextStyle = { role: 'regular', size: 9 };
const NOTE: TextStyle = { role: 'regular', size: 8, color: MUTED };

const COLUMNS: readonly Column[] = [
  { header: '#', width: 0.05 },
  { header: 'Certificate', width: 0.14, bold: true },
  { header: 'Drive', width: 0.25 },
  { header: 'Serial', width: 0.18, mono: true },
  { header: 'Capacity', width: 0.1 },
  { header: 'Method', width: 0.16 },
  { header: 'Result', width: 0.12 },
];

function paragraph(frame: Frame, text: string, style: TextStyle): void {
  for (const line of wrapText(frame.fonts, text, style, contentWidth(frame))) {
    drawText(frame, line, style, frame.left, frame.y);
    frame.y -= lineHeight(style);
  }
}

/**
 * A table cell wraps at spaces, and a number broken there reads as two (`2 TB (2` / `000 GB)`):
 * languages that group digits with a space (French) lose the space inside a number in a cell.
 */
const keepNumbersWhole = (text: string | null): string | null => text?.replace(/(\d)\s(?=\d{3}\b)/gu, '$1') ?? null;

/** The summary's text rows, in the given order: what a customer checks against the devices they received. */
export function summaryRows(drives: readonly LotDrive[], w: Wording = ENGLISH): string[][] {
  return drives.map((d, i) => [
    String(i + 1),
    d.certificateNumber ?? w.t('lot.noCertificate'),
    d.model ?? NOT_RECORDED,
    d.serial ?? NOT_RECORDED,
    keepNumbersWhole(formatCapacityGb(d.capacityGb, w)) ?? NOT_RECORDED,
    d.method ?? NOT_RECORDED,
    // The date alone: every language's date part is the first ten characters (2026-11-22 · 22.11.2026 · 22/11/2026).
    `${statusWord(d.status, w)}${d.completedAt ? `, ${formatTimestamp(d.completedAt, false, w)?.slice(0, 10)}` : ''}`,
  ]);
}

/**
 * The summary page(s) alone (the ZIP's `000 summary.pdf`). Signed pages are never copied in:
 * copied, their signatures no longer cover the file (the lot certificate attaches them instead).
 */
export async function renderLotPdf(fonts: FontSource, drives: readonly LotDrive[], facts: LotFacts): Promise<Uint8Array> {
  const frame = createFrame(fonts, { top: 56, bottom: 48, side: 48 });
  drawText(frame, 'Certificates of Sanitization', TITLE, frame.left, frame.y);
  frame.y -= lineHeight(TITLE) + 4;
  const certified = drives.filter((d) => d.certificateNumber).length;
  paragraph(
    frame,
    `${facts.accountName} · ${drives.length} drive${drives.length === 1 ? '' : 's'}, ${certified} with a certificate · made ${formatTimestamp(facts.generatedAt)}`,
    BODY,
  );
  frame.y -= 10;
  drawSectionHeading(frame, 'Drives in this lot');
  drawTable(frame, COLUMNS, summaryRows(drives));
  frame.y -= 10;
  paragraph(
    frame,
    `Each certificate and its Erasure Report are in this download, numbered in this order. They are signed; check any of them at ${facts.verifyHint} by scanning its QR code. A drive listed without a certificate was not certified (for example, its erasure failed).`,
    NOTE,
  );

  if (facts.validation && facts.validation.length > 0) {
    frame.y -= 10;
    drawSectionHeading(frame, 'Validation sampling (R2v3 Appendix B)');
    for (const lot of facts.validation) paragraph(frame, validationSentence(lot), BODY);
  }

  const doc = await PDFDocument.create({ updateMetadata: false });
  await paintPages(doc, frame, `lot-${facts.generatedAt}`);
  const when = new Date(facts.generatedAt);
  doc.setTitle(`Certificates of Sanitization · ${facts.accountName}`, { showInWindowTitleBar: true });
  doc.setAuthor(facts.accountName);
  doc.setCreator('Erasure Cloud');
  doc.setProducer('Erasure Cloud certificate renderer (pdf-lib)');
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  return doc.save({ useObjectStreams: false });
}

/** A file name that sorts in grid order and says what it is: `001 CW-000012 certificate.pdf`. */
export function lotFileName(index: number, certificateNumber: string, document: 'certificate' | 'erasure report'): string {
  return `${String(index + 1).padStart(3, '0')} ${certificateNumber.replace(/[^\w-]/g, '_')} ${document}.pdf`;
}
