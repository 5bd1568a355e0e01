import { measureRun, splitRuns, type FontFace, type FontRole, type FontSource } from './fonts.js';

/*
 * Layout first, paint second: pages are built as plain display lists measured with the parsed
 * fonts, so pagination (and "page n of N") is decided before pdf-lib sees anything, and only the
 * faces a document really uses get embedded.
 */

export type Rgb = readonly [number, number, number];

/** A font run with its measured advance, so painting never re-measures. */
export interface PlacedRun {
  readonly face: FontFace;
  readonly text: string;
  readonly width: number;
}

/** One drawing instruction in PDF points, origin bottom-left as in PDF. */
export type DrawOp =
  | { kind: 'text'; x: number; y: number; size: number; color: Rgb; runs: readonly PlacedRun[] }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; fill?: Rgb; stroke?: Rgb; lineWidth?: number }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; color: Rgb; width: number }
  /** Many same-colour filled rectangles as one path: a QR code is hundreds of them. */
  | { kind: 'rects'; fill: Rgb; rects: readonly (readonly [number, number, number, number])[] }
  /** An account's logo (issue 31 item 7), PNG or JPEG bytes as checked on upload. */
  | { kind: 'image'; x: number; y: number; width: number; height: number; image: { readonly type: 'png' | 'jpeg'; readonly bytes: Uint8Array } };

export interface TextStyle {
  readonly role: FontRole;
  readonly size: number;
  readonly color?: Rgb;
}

/** A4 portrait; the documents also fit Letter's width, and A4 is the norm for most buyers. */
export const A4 = { width: 595.28, height: 841.89 } as const;

export const INK: Rgb = [0.11, 0.12, 0.14];
export const MUTED: Rgb = [0.42, 0.45, 0.5];
export const ACCENT: Rgb = [0.09, 0.24, 0.45];
export const RULE: Rgb = [0.82, 0.84, 0.87];
export const TINT: Rgb = [0.95, 0.96, 0.98];

/** A paginating cursor: `y` is the top of the free space on the current page. */
export interface Frame {
  readonly fonts: FontSource;
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly pages: DrawOp[][];
  y: number;
  /**
   * Values cut short keep as much of their text as fits on their last line (record v5 on): a
   * model that wraps at a space stays readable, "SAMSUNG MZVLB512…", not "SAMSUNG…". Older
   * records keep the word-wrapped cut they were drawn with, since verify-pdf redraws their page.
   */
  fillClamped?: boolean;
  /**
   * The last resort of a crowded one-page certificate: values that otherwise keep lines of their
   * own (`Field.maxLines`) give them up down to the grid's lines too, so the page still fits.
   */
  capPinnedLines?: boolean;
  /** Draws running headers on each new page and returns the y where content starts. */
  readonly onNewPage: (frame: Frame) => number;
}

/** A frame with one empty page; `margin` is in points. */
export function createFrame(
  fonts: FontSource,
  margin: { top: number; bottom: number; side: number },
  onNewPage: (frame: Frame) => number = (f) => f.top,
): Frame {
  const frame: Frame = {
    fonts,
    width: A4.width,
    height: A4.height,
    left: margin.side,
    right: A4.width - margin.side,
    top: A4.height - margin.top,
    bottom: margin.bottom,
    pages: [],
    y: 0,
    onNewPage,
  };
  addPage(frame);
  return frame;
}

/** The ops of the page being filled. */
export function currentPage(frame: Frame): DrawOp[] {
  const page = frame.pages[frame.pages.length - 1];
  if (!page) throw new Error('frame has no page');
  return page;
}

export function addPage(frame: Frame): void {
  frame.pages.push([]);
  frame.y = frame.top;
  frame.y = frame.onNewPage(frame);
}

/** Starts a new page unless `height` points still fit; true when it broke the page. */
export function ensureSpace(frame: Frame, height: number): boolean {
  if (frame.y - height >= frame.bottom) return false;
  addPage(frame);
  return true;
}

export function contentWidth(frame: Frame): number {
  return frame.right - frame.left;
}

/** Distance between baselines; 1.3 keeps CJK and Arabic marks from touching the next line. */
export function lineHeight(style: TextStyle): number {
  return style.size * 1.3;
}

/** Shapes and measures `text` for drawing; returns the op (top at `top`) and its width. */
export function textOp(fonts: FontSource, text: string, style: TextStyle, x: number, top: number) {
  const runs = splitRuns(text, fonts[style.role]).map((r) => ({ ...r, width: measureRun(r, style.size) }));
  const width = runs.reduce((sum, r) => sum + r.width, 0);
  // Baseline sits one ascent below the top; 0.8 em matches DejaVu/Droid closely enough.
  const op: DrawOp = { kind: 'text', x, y: top - style.size * 0.8 - (lineHeight(style) - style.size) / 2, size: style.size, color: style.color ?? INK, runs };
  return { op, width };
}

/** Draws one line on the current page with its top at `top`; returns its width. */
export function drawText(frame: Frame, text: string, style: TextStyle, x: number, top: number): number {
  const { op, width } = textOp(frame.fonts, text, style, x, top);
  currentPage(frame).push(op);
  return width;
}

/** Width of `text` in a style, as it will be drawn. */
export function textWidth(fonts: FontSource, text: string, style: TextStyle): number {
  return textOp(fonts, text, style, 0, 0).width;
}

// Ideographs, kana and Hangul may break between any two characters; everything else breaks at spaces.
const BREAK_ANYWHERE = '\\u2E80-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF\\uFF00-\\uFFEF';
const TOKEN = new RegExp(`\\s+|[${BREAK_ANYWHERE}]|[^\\s${BREAK_ANYWHERE}]+`, 'gu');

/**
 * Greedy line breaking within `maxWidth`. Explicit newlines are kept; a word wider than the line
 * (a hash, a URL, a serial) is broken between characters so nothing ever runs off the page.
 */
export function wrapText(fonts: FontSource, text: string, style: TextStyle, maxWidth: number): string[] {
  const width = (s: string) => textWidth(fonts, s, style);
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    let lineWidth = 0;
    let space = false;
    for (const token of paragraph.match(TOKEN) ?? []) {
      if (/^\s/u.test(token)) {
        space = line !== '';
        continue;
      }
      const sep = space ? ' ' : '';
      const tokenWidth = width(token);
      const candidate = lineWidth + (space ? width(' ') : 0) + tokenWidth;
      if (candidate <= maxWidth) {
        line += sep + token;
        lineWidth = candidate;
      } else if (tokenWidth <= maxWidth) {
        if (line) lines.push(line);
        line = token;
        lineWidth = tokenWidth;
      } else {
        // Too long for any line: fill the current line, then continue character by character.
        for (const ch of sep + token) {
          const w = width(line + ch);
          if (w > maxWidth && line) {
            lines.push(line);
            line = ch.trim() ? ch : '';
          } else line += ch;
        }
        lineWidth = width(line);
      }
      space = false;
    }
    lines.push(line);
  }
  return lines;
}

/** Keeps at most `max` lines, marking the cut with an ellipsis that still fits the width. */
export function clampLines(fonts: FontSource, lines: string[], max: number, style: TextStyle, maxWidth: number, fill = false): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  // Filling starts from the rest of the text, cut to what a line could hold (twice the wrapped
  // line's length is more than fits), then gives back a character at a time as before.
  const rest = [...lines.slice(max - 1).join(' ')].slice(0, 2 * (kept[max - 1]?.length ?? 0) + 8).join('');
  let last = `${fill ? rest : (kept[max - 1] ?? '')}…`;
  while (last.length > 1 && textWidth(fonts, last, style) > maxWidth) last = `${[...last].slice(0, -2).join('')}…`;
  kept[max - 1] = last;
  return kept;
}

/**
 * A wrapped paragraph that flows across pages line by line, so arbitrarily long operator notes
 * paginate instead of overflowing.
 */
export function drawParagraph(frame: Frame, text: string, style: TextStyle, x = frame.left, maxWidth = frame.right - x): void {
  const lh = lineHeight(style);
  for (const line of wrapText(frame.fonts, text, style, maxWidth)) {
    ensureSpace(frame, lh);
    if (line) drawText(frame, line, style, x, frame.y);
    frame.y -= lh;
  }
}

/** A horizontal rule across the content width at the cursor. */
export function drawRule(frame: Frame, color: Rgb = RULE, width = 0.6): void {
  currentPage(frame).push({ kind: 'line', x1: frame.left, y1: frame.y, x2: frame.right, y2: frame.y, color, width });
}
