import { PDFDocument } from 'pdf-lib';

/*
 * pdf-lib (what `verify-pdf` reads a PDF with) ignores the cross-reference table: it parses the
 * objects in file order, and when an object number is defined twice the later definition wins.
 * PDF readers (poppler, pdf.js, Acrobat) follow the cross-reference table instead. A forger can so
 * define a page's content stream twice, the forged one first with the table pointing at it and the
 * genuine one last: the page check compares the genuine page while every reader shows the forged
 * one. So before anything is compared, every object pdf-lib parsed must be the very object the
 * newest cross-reference section points at, and the other way round.
 *
 * Certificates and Erasure Reports are saved by pdf-lib without object streams (classic `xref`
 * tables), the PDF signature filled into a placeholder in place. Incremental updates (`/Prev`
 * chains, newest wins) are followed; cross-reference streams and object streams are refused, as
 * is anything this check cannot parse (fail closed).
 */

/** An object header `N G obj` as found in the file, at the offset of its first digit. */
interface Header {
  num: number;
  gen: number;
  offset: number;
}

/** Where the newest cross-reference section puts an object number. */
interface XrefEntry {
  gen: number;
  offset: number;
  inUse: boolean;
}

const DUPLICATE = 'the file defines an object more than once, so readers and this check could see different pages';

/** PDF white-space and comments (each to its line's end, as pdf-lib skips them) between a header's tokens. */
const SEP = String.raw`(?:[\0\t\n\f\r ]|%[^\r\n]*(?=[\r\n]|$))+`;
/** Zero-width, so overlapping candidates are all found: one cannot hide the header inside it. */
const HEADER = new RegExp(String.raw`(?<![0-9])(?=(\d+)${SEP}(\d+)${SEP}obj(?![A-Za-z0-9_]))`, 'g');

/**
 * Why the objects pdf-lib reads from `pdf` may differ from those a PDF reader shows, or null when
 * they are the same: each is the one the newest cross-reference section points at.
 */
export async function xrefInconsistency(pdf: Uint8Array): Promise<string | null> {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const xref = readCrossReference(text);
  if (typeof xref === 'string') return xref;

  // Every object header, in file order (a superset of what pdf-lib parses: a false match inside a
  // stream only makes the check refuse, never accept).
  const headers: Header[] = [...text.matchAll(HEADER)].map((m) => ({ num: Number(m[1]), gen: Number(m[2]), offset: m.index }));
  const last = new Map<number, Header>();
  for (const h of headers) last.set(h.num, h);

  // Within one revision (up to its cross-reference section) an object number is defined once.
  const ends = [...xref.sections].sort((a, b) => a - b);
  const seen = new Set<string>();
  for (const h of headers) {
    const revision = ends.findIndex((end) => h.offset < end);
    const key = `${revision}:${h.num}`;
    if (seen.has(key)) return DUPLICATE;
    seen.add(key);
  }

  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch {
    return 'not a readable PDF';
  }
  const parsed = new Set<string>();
  for (const [ref] of doc.context.enumerateIndirectObjects()) {
    const entry = xref.entries.get(ref.objectNumber);
    const header = last.get(ref.objectNumber);
    parsed.add(`${ref.objectNumber} ${ref.generationNumber}`);
    // pdf-lib keeps the last definition in the file: it must be the one the table points at.
    if (!entry?.inUse || entry.gen !== ref.generationNumber || header?.offset !== entry.offset || header.gen !== entry.gen) {
      return DUPLICATE;
    }
  }
  // And every object the table points at (readers see it) is one pdf-lib parsed, where the table
  // says; an object pdf-lib did not keep (an object or cross-reference stream) is refused too.
  for (const [num, entry] of xref.entries) {
    if (!entry.inUse) continue;
    if (!parsed.has(`${num} ${entry.gen}`) || last.get(num)?.offset !== entry.offset) {
      return 'the cross-reference table points at objects this check does not read';
    }
  }
  for (const h of headers) {
    if (!parsed.has(`${h.num} ${h.gen}`)) return 'the file holds objects this check does not read (an object or cross-reference stream)';
  }
  return null;
}

/**
 * The newest entry for each object number over the chain of classic `xref` sections from the last
 * `startxref` (following `/Prev`), and where those sections start; or why it cannot be read.
 */
function readCrossReference(text: string): { entries: Map<number, XrefEntry>; sections: number[] } | string {
  const starts = [...text.matchAll(/startxref[\0\t\n\f\r ]+(\d+)/g)];
  const start = starts.at(-1);
  if (!start) return 'the file has no cross-reference table';
  const entries = new Map<number, XrefEntry>();
  const sections: number[] = [];
  let at: number | undefined = Number(start[1]);
  while (at !== undefined) {
    if (sections.includes(at) || sections.length >= 64) return 'the cross-reference sections form a loop';
    sections.push(at);
    const section = readSection(text, at);
    if (typeof section === 'string') return section;
    // Walking from the newest section back: an entry already set is newer.
    for (const [num, entry] of section.entries) if (!entries.has(num)) entries.set(num, entry);
    at = section.prev;
  }
  return { entries, sections };
}

function readSection(text: string, offset: number): { entries: Map<number, XrefEntry>; prev?: number } | string {
  if (!Number.isSafeInteger(offset) || text.slice(offset, offset + 4) !== 'xref') {
    return 'the cross-reference table is not a classic xref table where the file says';
  }
  const entries = new Map<number, XrefEntry>();
  const ws = /[\0\t\n\f\r ]*/y;
  let pos = offset + 4;
  const skip = () => {
    ws.lastIndex = pos;
    ws.exec(text);
    pos = ws.lastIndex;
  };
  const subsection = /(\d+)[ ]+(\d+)/y;
  const entry = /(\d{10})[ ]+(\d{5})[ ]+([nf])/y;
  for (;;) {
    skip();
    if (text.startsWith('trailer', pos)) break;
    subsection.lastIndex = pos;
    const sub = subsection.exec(text);
    if (!sub) return 'the cross-reference table cannot be read';
    pos = subsection.lastIndex;
    const first = Number(sub[1]);
    const count = Number(sub[2]);
    for (let i = 0; i < count; i++) {
      skip();
      entry.lastIndex = pos;
      const e = entry.exec(text);
      if (!e) return 'the cross-reference table cannot be read';
      pos = entry.lastIndex;
      const num = first + i;
      if (entries.has(num)) return DUPLICATE;
      entries.set(num, { offset: Number(e[1]), gen: Number(e[2]), inUse: e[3] === 'n' });
    }
  }
  const end = text.indexOf('startxref', pos);
  if (end < 0) return 'the cross-reference table has no trailer';
  const trailer = text.slice(pos, end);
  if (/\/XRefStm\b/.test(trailer)) return 'the file refers to a cross-reference stream, which this check does not read';
  const prev = /\/Prev[\0\t\n\f\r ]+(\d+)/.exec(trailer);
  return { entries, prev: prev ? Number(prev[1]) : undefined };
}
