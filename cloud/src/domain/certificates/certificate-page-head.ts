import type { Branding } from '../branding/branding.js';
import { drawBrandingBlock } from './branding-block.js';
import type { CertificateContent } from './certificate-content.js';
import { formatTimestamp } from './format.js';
import { ENGLISH, type Wording } from './i18n/wording.js';
import { ACCENT, clampLines, contentWidth, currentPage, drawText, lineHeight, MUTED, textWidth, TINT, wrapText, type Frame, type TextStyle } from './layout.js';

/*
 * The top of a Certificate of Sanitization page, shared by the Rev. 1 layout (v1-v3 records) and
 * the Rev. 2 one (v4): the header with the number and statement, the summary band, the
 * verification result as printed, and the customer clause. Kept apart so neither layout imports
 * the other's module.
 */

/** The Rev. 1-worded statement under the title of a v1-v3 certificate. */
const rev1Statement = (content: CertificateContent) =>
  `This certifies that the storage device described below, processed by ${content.account_name}${customerClause(content)}, was sanitized ` +
  `to the NIST SP 800-88 ${content.wipe.nist_category} level and that the result was verified as recorded. ` +
  'This record is digitally signed; its authenticity can be checked with the QR code below.';

export function drawHeader(frame: Frame, content: CertificateContent, statement = rev1Statement(content), branding: Branding | null = null, w: Wording = ENGLISH): void {
  const page = currentPage(frame);
  page.push({ kind: 'rect', x: 0, y: frame.height - 10, width: frame.width, height: 10, fill: ACCENT });
  const top = frame.y;
  const label: TextStyle = { role: 'regular', size: 7.5, color: MUTED };
  const number: TextStyle = { role: 'bold', size: 20, color: ACCENT };
  if (branding) {
    // The account's own logo and details in the product's place; the signature block below still
    // names the deployment as the signer.
    const numberWidth = Math.max(textWidth(frame.fonts, w.t('cert.numberLabel'), label), textWidth(frame.fonts, content.certificate_number, number));
    drawBrandingBlock(frame, branding, frame.left, top + 4, frame.right - numberWidth - 16, { width: 110, height: 36 });
  } else {
    drawText(frame, w.t('cert.productName'), { role: 'bold', size: 10, color: ACCENT }, frame.left, top);
    drawText(frame, w.t('cert.productLine'), { role: 'regular', size: 8, color: MUTED }, frame.left, top - 14);
  }

  drawText(frame, w.t('cert.numberLabel'), label, frame.right - textWidth(frame.fonts, w.t('cert.numberLabel'), label), top);
  drawText(frame, content.certificate_number, number, frame.right - textWidth(frame.fonts, content.certificate_number, number), top - 11);

  frame.y = top - 46;
  drawText(frame, w.t('cert.title'), { role: 'bold', size: 24 }, frame.left, frame.y);
  frame.y -= 32;
  const style: TextStyle = { role: 'regular', size: 9, color: MUTED };
  for (const line of clampLines(frame.fonts, wrapText(frame.fonts, statement, style, contentWidth(frame)), 3, style, contentWidth(frame))) {
    drawText(frame, line, style, frame.left, frame.y);
    frame.y -= lineHeight(style);
  }
  frame.y -= 8;
}

/** How the summary band is drawn: v1-v3 pages keep theirs to the point; v4 pages draw a slimmer one. */
export interface BandStyle {
  readonly levelLabel: string;
  readonly height: number;
  readonly gap: number;
  readonly levelSize: number;
  readonly valueSize: number;
  /** How far below the band's top the level and the other values are drawn. */
  readonly levelY: number;
  readonly valueY: number;
}

const REV1_BAND: BandStyle = { levelLabel: 'NIST 800-88 category', height: 42, gap: 14, levelSize: 15, valueSize: 11, levelY: 19, valueY: 21 };

/** The four facts a reader looks for first, in a tinted band. */
export function drawSummaryBand(frame: Frame, content: CertificateContent, band: BandStyle = REV1_BAND, w: Wording = ENGLISH): void {
  const cells: [label: string, value: string, share: number][] = [
    [band.levelLabel, content.wipe.nist_category.toUpperCase(), 0.24],
    [w.t('cert.band.serial'), content.drive.serial ?? '—', 0.4],
    [w.t('field.completed'), formatTimestamp(content.wipe.completed_at, false, w) ?? '—', 0.36],
  ];
  const height = band.height;
  currentPage(frame).push({ kind: 'rect', x: frame.left, y: frame.y - height, width: contentWidth(frame), height, fill: TINT });
  currentPage(frame).push({ kind: 'rect', x: frame.left, y: frame.y - height, width: 3, height, fill: ACCENT });
  let x = frame.left + 14;
  cells.forEach(([label, value, share], i) => {
    const width = share * contentWidth(frame) - 14;
    const style: TextStyle = i === 0 ? { role: 'bold', size: band.levelSize, color: ACCENT } : { role: 'bold', size: band.valueSize };
    const line = clampLines(frame.fonts, wrapText(frame.fonts, value, style, width), 1, style, width)[0] ?? '';
    drawText(frame, label.toUpperCase(), { role: 'regular', size: 7, color: MUTED }, x, frame.y - 8);
    drawText(frame, line, style, x, frame.y - (i === 0 ? band.levelY : band.valueY));
    x += width + 14;
  });
  frame.y -= height + band.gap;
}

const RESULT_STYLE: TextStyle = { role: 'regular', size: 9.5 };

/**
 * The verification result as printed: whole when it fits its lines across the page, otherwise
 * cut at a word with a pointer to the Erasure Report, which always prints it in full.
 */
export function verificationText(frame: Frame, result: string | null, limit: number, w: Wording = ENGLISH): string | null {
  if (result === null) return null;
  const width = contentWidth(frame);
  const lines = wrapText(frame.fonts, result, RESULT_STYLE, width);
  if (lines.length <= limit) return result;
  const more = w.t('cert.resultContinued');
  const kept = lines.slice(0, limit);
  let last = kept[limit - 1] ?? '';
  while (last.includes(' ') && textWidth(frame.fonts, last + more, RESULT_STYLE) > width) last = last.slice(0, last.lastIndexOf(' '));
  kept[limit - 1] = last + more;
  return kept.join(' ');
}

/** `, for customer X (lot L)` when the token or machine named a customer or lot. */
export function customerClause(content: CertificateContent, w: Wording = ENGLISH): string {
  const customer = content.customer ?? null;
  const lot = content.lot_reference ?? null;
  if (customer && lot) return w.t('cert.customerAndLot', { customer, lot });
  if (customer) return w.t('cert.customerOnly', { customer });
  if (lot) return w.t('cert.lotOnly', { lot });
  return '';
}
