import {
  ACCENT,
  addPage,
  clampLines,
  contentWidth,
  currentPage,
  drawRule,
  drawText,
  ensureSpace,
  lineHeight,
  MUTED,
  RULE,
  TINT,
  wrapText,
  type Frame,
  type TextStyle,
} from './layout.js';

/*
 * The few building blocks both documents are made of: section headings, a label/value field
 * grid (the certificate's form look) and a paginating table (the report's bulk).
 */

/** Printed for a value the record does not carry, so a blank never reads as "forgotten". */
export const NOT_RECORDED = '—';

const HEADING: TextStyle = { role: 'bold', size: 9, color: ACCENT };
const LABEL: TextStyle = { role: 'regular', size: 7, color: MUTED };
const VALUE: TextStyle = { role: 'regular', size: 9.5 };
const VALUE_MONO: TextStyle = { role: 'mono', size: 8.5 };

/**
 * An accent-coloured, upper-case section title with a rule under it. `keepWith` points of the
 * following content must fit too, so a heading is never orphaned at the foot of a page.
 */
export function drawSectionHeading(frame: Frame, title: string, keepWith = 40): void {
  const lh = lineHeight(HEADING);
  ensureSpace(frame, lh + 5 + keepWith);
  drawText(frame, title.toUpperCase(), HEADING, frame.left, frame.y);
  frame.y -= lh;
  drawRule(frame, ACCENT, 0.8);
  frame.y -= 5;
}

/** One cell of a field grid. */
export interface Field {
  readonly label: string;
  readonly value: string | null;
  /** Hashes, serials and URLs read better (and wrap predictably) in monospace. */
  readonly mono?: boolean;
  /** How many grid columns the field spans; 1 when omitted. */
  readonly span?: number;
  /** Overrides the grid's line limit for a value that must be read in full (the verification result). */
  readonly maxLines?: number;
}

/**
 * Fields laid out left to right in `columns` equal columns: a small grey label over the value.
 * Values wrap inside their cell and are clamped to `maxLines` so a 2,000-character free-text
 * field cannot push a one-page certificate onto a second page.
 */
export function drawFieldGrid(frame: Frame, fields: readonly Field[], columns: number, maxLines = 3): void {
  const gap = 14;
  const colWidth = (contentWidth(frame) - gap * (columns - 1)) / columns;
  let row: Field[] = [];
  let used = 0;
  const flush = () => {
    if (row.length > 0) drawFieldRow(frame, row, colWidth, gap, maxLines);
    row = [];
    used = 0;
  };
  for (const field of fields) {
    const span = Math.min(field.span ?? 1, columns);
    if (used + span > columns) flush();
    row.push(field);
    used += span;
  }
  flush();
}

function drawFieldRow(frame: Frame, row: readonly Field[], colWidth: number, gap: number, maxLines: number): void {
  const cells = row.map((field) => {
    const span = field.span ?? 1;
    const width = colWidth * span + gap * (span - 1);
    const style = field.mono ? VALUE_MONO : VALUE;
    const text = field.value === null || field.value.trim() === '' ? NOT_RECORDED : field.value;
    const lineLimit = frame.capPinnedLines ? Math.min(field.maxLines ?? maxLines, maxLines) : (field.maxLines ?? maxLines);
    return { field, width, style, lines: clampLines(frame.fonts, wrapText(frame.fonts, text, style, width), lineLimit, style, width, frame.fillClamped) };
  });
  const labelH = lineHeight(LABEL);
  const height = Math.max(...cells.map((c) => labelH + c.lines.length * lineHeight(c.style))) + 6;
  ensureSpace(frame, height);
  let x = frame.left;
  for (const cell of cells) {
    drawText(frame, cell.field.label.toUpperCase(), LABEL, x, frame.y);
    let top = frame.y - labelH;
    for (const line of cell.lines) {
      drawText(frame, line, cell.style, x, top);
      top -= lineHeight(cell.style);
    }
    x += cell.width + gap;
  }
  frame.y -= height;
}

/** A table column; `width` is a fraction of the content width. */
export interface Column {
  readonly header: string;
  readonly width: number;
  readonly mono?: boolean;
  readonly bold?: boolean;
}

export const CELL: TextStyle = { role: 'regular', size: 8.5 };
const CELL_MONO: TextStyle = { role: 'mono', size: 8 };
const CELL_BOLD: TextStyle = { role: 'bold', size: 8.5 };
export const HEADER: TextStyle = { role: 'bold', size: 7.5, color: MUTED };
export const PAD_X = 5;
const PAD_Y = 4;

/**
 * A table that wraps every cell and paginates between rows, splitting a row across pages only
 * when it is taller than what is left (a 4,000-character test detail); the header repeats on
 * every page the table touches.
 */
export function drawTable(frame: Frame, columns: readonly Column[], rows: readonly (readonly string[])[]): void {
  const total = contentWidth(frame);
  const widths = columns.map((c) => c.width * total);
  const styles = columns.map((c) => (c.mono ? CELL_MONO : c.bold ? CELL_BOLD : CELL));
  const lh = lineHeight(CELL);
  const header = () => drawTableHeader(frame, columns, widths);
  ensureSpace(frame, lineHeight(HEADER) + 2 * PAD_Y + lh + 2 * PAD_Y);
  header();
  for (const row of rows) {
    const lines = columns.map((_, i) => {
      const style = styles[i] ?? CELL;
      const text = row[i]?.trim() ? (row[i] ?? '') : NOT_RECORDED;
      return wrapText(frame.fonts, text, style, (widths[i] ?? 0) - 2 * PAD_X);
    });
    const count = Math.max(1, ...lines.map((l) => l.length));
    let start = 0;
    while (start < count) {
      const fit = Math.floor((frame.y - frame.bottom - 2 * PAD_Y) / lh);
      // Keep short rows whole: move to the next page rather than split a row of three lines.
      if (fit < 1 || (fit < count - start && count - start <= 3)) {
        addPage(frame);
        header();
        continue;
      }
      const take = Math.min(fit, count - start);
      let x = frame.left;
      lines.forEach((cellLines, i) => {
        cellLines.slice(start, start + take).forEach((line, k) => {
          drawText(frame, line, styles[i] ?? CELL, x + PAD_X, frame.y - PAD_Y - k * lh);
        });
        x += widths[i] ?? 0;
      });
      frame.y -= take * lh + 2 * PAD_Y;
      drawRule(frame, RULE, 0.5);
      start += take;
      if (start < count) {
        addPage(frame);
        header();
      }
    }
  }
  frame.y -= 10;
}

function drawTableHeader(frame: Frame, columns: readonly Column[], widths: readonly number[]): void {
  const height = lineHeight(HEADER) + 2 * PAD_Y;
  currentPage(frame).push({ kind: 'rect', x: frame.left, y: frame.y - height, width: contentWidth(frame), height, fill: TINT });
  let x = frame.left;
  columns.forEach((column, i) => {
    drawText(frame, column.header.toUpperCase(), HEADER, x + PAD_X, frame.y - PAD_Y);
    x += widths[i] ?? 0;
  });
  frame.y -= height;
}
