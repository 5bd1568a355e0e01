import type { Branding } from '../branding/branding.js';
import { clampLines, currentPage, drawText, lineHeight, MUTED, wrapText, type Frame, type TextStyle } from './layout.js';

/*
 * The issuing account's logo and company details (issue 31 item 7), as one block drawn where the
 * product's name stood in the header. Only drawn for a branded account: an unbranded page is
 * operation for operation the page it always was, so certificates issued before still verify.
 */

const NAME: TextStyle = { role: 'bold', size: 9 };
const LINE: TextStyle = { role: 'regular', size: 7, color: MUTED };
const LOGO_GAP = 10;

/** The block's height when drawn with a logo of at most `logoHeight` points. */
export const brandingBlockHeight = (logoHeight: number) => Math.max(logoHeight, lineHeight(NAME) + 2 * lineHeight(LINE));

/**
 * Draws the logo scaled into `logoBox` (aspect kept) at `x`, `top`, and beside it the company
 * name, the address on one line and the contact, each clamped to the width left before `right`.
 */
export function drawBrandingBlock(frame: Frame, branding: Branding, x: number, top: number, right: number, logoBox: { width: number; height: number }): void {
  let textX = x;
  if (branding.logo) {
    const { width, height } = branding.logo;
    const scale = Math.min(logoBox.width / width, logoBox.height / height);
    const w = Math.round(width * scale * 100) / 100;
    const h = Math.round(height * scale * 100) / 100;
    currentPage(frame).push({ kind: 'image', x, y: top - h, width: w, height: h, image: { type: branding.logo.type, bytes: branding.logo.bytes } });
    textX = x + w + LOGO_GAP;
  }
  const details = branding.details;
  if (!details) return;
  const width = right - textX;
  const one = (text: string, style: TextStyle) => clampLines(frame.fonts, wrapText(frame.fonts, text, style, width), 1, style, width)[0] ?? '';
  let y = top;
  drawText(frame, one(details.company_name, NAME), NAME, textX, y);
  y -= lineHeight(NAME);
  for (const text of [details.address_lines.join(' · '), details.contact ?? '']) {
    if (!text) continue;
    drawText(frame, one(text, LINE), LINE, textX, y);
    y -= lineHeight(LINE);
  }
}
