import type { Branding } from '../branding/branding.js';
import { REV1_LAYOUT_SCHEMAS, signatureFingerprint, type CertificateContent } from './certificate-content.js';
import { drawRev2Header, drawRev2Sections, REV2_BAND } from './certificate-page-rev2.js';
import type { FontSource } from './fonts.js';
import { formatCapacityGb, formatTimestamp, formatYesNo, titleize } from './format.js';
import { drawFieldGrid, drawSectionHeading, type Field } from './layout-blocks.js';
import {
  ACCENT,
  clampLines,
  contentWidth,
  createFrame,
  currentPage,
  drawText,
  lineHeight,
  MUTED,
  RULE,
  textWidth,
  wrapText,
  type Frame,
  type TextStyle,
} from './layout.js';
import { drawHeader, drawSummaryBand, verificationText } from './certificate-page-head.js';
import { paintDocument } from './pdf-document.js';
import type { PdfSigner } from './pdf-signing-certificate.js';
import { driveVendor } from '../wipes/vendor.js';
import { qrCodeOps } from './qr-code.js';
import { ENGLISH, wordingFor, type Language, type Wording } from './i18n/wording.js';

/** What the certificate renderer needs besides the content. */
export interface CertificateRenderDeps {
  readonly fonts: FontSource;
  /** Base64 Ed25519 signature of the canonical content, from `signContent`. */
  readonly signature: string;
  /** Printed as "Signed by"; defaults to the service name. */
  readonly signer?: string;
  /** Signs the PDF file itself (PAdES), as PDF readers check it. */
  readonly pdfSigner: PdfSigner;
  /** The issuing account's logo and company details (issue 31 item 7); none: the product's header. */
  readonly branding?: Branding | null;
  /**
   * The language the page is drawn in (issue 31 item 7 part B); default English. The signed record
   * is the same in every language. v1-v3 records keep the English page they were issued with.
   */
  readonly language?: Language;
}

const SIGNATURE_BLOCK_HEIGHT = 126;
const FOOTER_HEIGHT = 22;
const MARGIN = { top: 40, bottom: 36, side: 50 };

/**
 * Renders the one-page Certificate of Sanitization. The signed content is attached to the PDF,
 * so the paper can be verified offline as well as through the QR code's public page.
 * Throws if the layout would need a second page, which the value clamping is there to prevent.
 */
export async function renderCertificatePdf(content: CertificateContent, deps: CertificateRenderDeps): Promise<Uint8Array> {
  const frame = layoutCertificatePage(content, deps);
  const standard = REV1_LAYOUT_SCHEMAS.includes(content.schema) ? 'NIST SP 800-88' : 'NIST SP 800-88 Rev. 2 / IEEE 2883-2022';
  return paintDocument(frame, content, deps.signature, {
    title: `Certificate of Sanitization ${content.certificate_number}`,
    subject: `${standard} ${content.wipe.nist_category} of drive ${content.drive.serial ?? 'unknown serial'}`,
    keywords: [content.certificate_number, content.certificate_id, 'NIST SP 800-88', content.wipe.nist_category],
  }, deps.pdfSigner, deps.branding);
}

/**
 * The certificate's one page as drawing operations, from the signed record and its signature
 * alone: what `verify-pdf` regenerates to compare a file's page with (page-check.ts). The record's
 * schema picks the layout: v1-v3 records draw the Rev. 1-worded page they were issued with, to
 * the operation, and v4 records the NIST SP 800-88 Rev. 2 / IEEE 2883 page.
 */
export function layoutCertificatePage(content: CertificateContent, deps: Omit<CertificateRenderDeps, 'pdfSigner'>): Frame {
  // Values get two lines each and the verification result four, across the page. When that
  // overflows, the result gives up lines first (the Erasure Report prints it whole), and only
  // then do the other values drop to one line each.
  const w = REV1_LAYOUT_SCHEMAS.includes(content.schema) ? ENGLISH : wordingFor(deps.language ?? 'en');
  let frame: Frame | undefined;
  for (const [maxLines, resultLines, capPinned] of REV1_LAYOUT_SCHEMAS.includes(content.schema) ? LAYOUT_ATTEMPTS : REV2_LAYOUT_ATTEMPTS) {
    frame = layoutBody(content, deps.fonts, maxLines, resultLines, deps.branding ?? null, w, capPinned === true);
    if (frame.pages.length === 1) break;
  }
  if (!frame || frame.pages.length !== 1) throw new Error(`certificate ${content.certificate_number} does not fit on one page`);
  drawSignatureBlock(frame, content, deps, w);
  drawFooter(frame, content, w);
  return frame;
}

/**
 * `[lines per value, lines of the verification result, pinned values cut too]`, tried in order
 * until the page fits.
 */
type LayoutAttempt = readonly [number, number, boolean?];
const LAYOUT_ATTEMPTS: readonly LayoutAttempt[] = [[2, 4], [2, 3], [2, 2], [1, 2], [1, 1]];
/**
 * v4 on: the verification result (Rev. 2's per-drive verification) keeps its lines before the
 * other values do. Last, for a long technique or standard beside crypto-erase evidence, the
 * values that keep two lines give one up too; the Erasure Report prints them whole. Pages that
 * fit before it are drawn as they always were, so verify-pdf redraws every issued page the same.
 */
const REV2_LAYOUT_ATTEMPTS: readonly LayoutAttempt[] = [[2, 4], [1, 4], [2, 3], [1, 3], [1, 2], [1, 1], [1, 1, true]];

function layoutBody(content: CertificateContent, fonts: FontSource, maxLines: number, resultLines: number, branding: Branding | null, w: Wording, capPinned: boolean): Frame {
  // The flowing part stops above the signature block, which is pinned to the foot of the page.
  const frame = createFrame(fonts, { ...MARGIN, bottom: MARGIN.bottom + FOOTER_HEIGHT + SIGNATURE_BLOCK_HEIGHT + 4 });
  frame.capPinnedLines = capPinned;
  if (REV1_LAYOUT_SCHEMAS.includes(content.schema)) {
    drawHeader(frame, content, undefined, branding);
    drawSummaryBand(frame, content);
    drawSections(frame, content, maxLines, resultLines);
    return frame;
  }
  frame.fillClamped = content.schema !== 'erasure-certificate/v4';
  drawRev2Header(frame, content, branding, w);
  drawSummaryBand(frame, content, { ...REV2_BAND, levelLabel: w.t('cert.band.level') }, w);
  drawRev2Sections(frame, content, maxLines, resultLines, w);
  return frame;
}


function drawSections(frame: Frame, content: CertificateContent, maxLines: number, resultLines: number): void {
  const { drive, wipe, tool, verification } = content;
  const section = (title: string, fields: readonly Field[]) => {
    drawSectionHeading(frame, title);
    drawFieldGrid(frame, fields, 4, maxLines);
    frame.y -= 4;
  };
  // Customer and lot are optional (per device token); a row of two dashes would only take space.
  const forCustomer = content.customer || content.lot_reference;
  section('Processing', [
    { label: 'Processed by', value: content.account_name, span: 2 },
    { label: 'Operator', value: content.operator, span: 2 },
    ...(forCustomer
      ? [
          { label: 'Customer', value: content.customer ?? null, span: 2 },
          { label: 'Lot / job reference', value: content.lot_reference ?? null, span: 2 },
        ]
      : []),
  ]);
  section('Storage device', [
    { label: 'Manufacturer', value: drive.manufacturer ?? driveVendor(drive.model) },
    { label: 'Model', value: drive.model },
    { label: 'Serial number', value: drive.serial, mono: true, span: 2 },
    { label: 'Capacity', value: formatCapacityGb(drive.capacity_gb) },
    { label: 'Media type', value: drive.media_type },
    { label: 'Markings removed', value: formatYesNo(content.markings_removed) },
    { label: 'Disposition', value: titleize(content.disposition) },
  ]);
  section('Sanitization', [
    { label: 'Method', value: wipe.method, span: 2 },
    { label: 'Technique', value: wipe.technique, span: 2 },
    { label: 'NIST 800-88 category', value: wipe.nist_category },
    { label: 'Passes completed', value: wipe.passes_completed === null ? 'n/a (firmware erase)' : String(wipe.passes_completed) },
    { label: 'Started (UTC)', value: formatTimestamp(wipe.started_at, false) },
    { label: 'Completed (UTC)', value: formatTimestamp(wipe.completed_at, false) },
    { label: 'Tool', value: [tool.name, tool.version].filter(Boolean).join(' ') || null, span: 2 },
    { label: 'Tool components', value: tool.components, span: 2 },
  ]);
  section('Verification', [
    { label: 'Verification method', value: verification.method, span: 2 },
    { label: 'Verification hash (SHA-256)', value: verification.hash, mono: true, span: 2 },
    { label: 'Result', value: verificationText(frame, verification.result, resultLines), span: 4, maxLines: resultLines },
  ]);
  const machine = content.source_machine;
  section('Source machine', [
    { label: 'Machine', value: [machine?.manufacturer, machine?.model].filter(Boolean).join(' ') || null },
    { label: 'Serial number', value: machine?.serial ?? null, mono: true },
    // Two columns: an asset id is one token and must not break in the middle.
    { label: 'Asset ID', value: machine?.asset_id ?? null, mono: true, span: 2 },
  ]);
}


function drawSignatureBlock(frame: Frame, content: CertificateContent, deps: Omit<CertificateRenderDeps, 'pdfSigner'>, w: Wording): void {
  const page = currentPage(frame);
  const top = MARGIN.bottom + FOOTER_HEIGHT + SIGNATURE_BLOCK_HEIGHT;
  const qrSize = 104;
  page.push({ kind: 'rect', x: frame.left, y: top - SIGNATURE_BLOCK_HEIGHT, width: contentWidth(frame), height: SIGNATURE_BLOCK_HEIGHT, stroke: RULE, lineWidth: 0.8 });
  page.push(...qrCodeOps(content.verify_url, frame.right - qrSize - 8, top - 8, qrSize));

  const x = frame.left + 14;
  const textRight = frame.right - qrSize - 22;
  const label: TextStyle = { role: 'regular', size: 7, color: MUTED };
  const value: TextStyle = { role: 'bold', size: 10 };
  const mono: TextStyle = { role: 'mono', size: 8 };
  let y = top - 12;
  drawText(frame, w.t('cert.sig.title'), { role: 'bold', size: 9, color: ACCENT }, x, y);
  y -= 18;
  const half = (textRight - x) / 2;
  drawText(frame, w.t('cert.sig.by'), label, x, y);
  drawText(frame, w.t('cert.sig.at'), label, x + half, y);
  drawText(frame, deps.signer ?? 'Erasure Cloud', value, x, y - 10);
  drawText(frame, formatTimestamp(content.signed_at, true, w) ?? content.signed_at, value, x + half, y - 10);
  y -= 30;
  drawText(frame, w.t('cert.sig.fingerprint'), label, x, y);
  drawText(frame, signatureFingerprint(deps.signature), mono, x, y - 10);
  y -= 28;
  drawText(frame, w.t('cert.sig.verifyAt'), label, x, y);
  y -= 10;
  for (const line of clampLines(frame.fonts, wrapText(frame.fonts, content.verify_url, mono, textRight - x), 2, mono, textRight - x)) {
    drawText(frame, line, { ...mono, color: ACCENT }, x, y);
    y -= lineHeight(mono);
  }
  const caption: TextStyle = { role: 'regular', size: 6.5, color: MUTED };
  const scan = w.t('cert.sig.scan');
  drawText(frame, scan, caption, frame.right - 8 - qrSize / 2 - textWidth(frame.fonts, scan, caption) / 2, top - qrSize - 10);
}

function drawFooter(frame: Frame, content: CertificateContent, w: Wording): void {
  const y = MARGIN.bottom + 12;
  const style: TextStyle = { role: 'regular', size: 7, color: MUTED };
  currentPage(frame).push({ kind: 'line', x1: frame.left, y1: y + 4, x2: frame.right, y2: y + 4, color: RULE, width: 0.5 });
  drawText(frame, `${content.certificate_number} · ${content.certificate_id}`, style, frame.left, y);
  const note = w.t('cert.footer');
  drawText(frame, note, style, frame.right - textWidth(frame.fonts, note, style), y);
}
