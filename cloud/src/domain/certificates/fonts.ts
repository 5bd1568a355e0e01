import fontkit from '@pdf-lib/fontkit';
import type { Font } from '@pdf-lib/fontkit';

/** The three typefaces the documents use; each is a fallback chain, first match wins. */
export type FontRole = 'regular' | 'bold' | 'mono';

/** One font file, read and parsed once per process and shared by every document. */
export interface FontFace {
  /** Stable key, also used for the subset name inside the PDF. */
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly font: Font;
}

/** The fonts a renderer may use, per role, in fallback order (no single font covers every script). */
export type FontSource = Readonly<Record<FontRole, readonly FontFace[]>>;

/** Font file paths per role, in fallback order. */
export type FontFiles = Readonly<Record<FontRole, readonly string[]>>;

const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const DROID = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';
const SYMBOLA = '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf';

/**
 * Paths on Debian with `fonts-dejavu-core` (Latin, Greek, Cyrillic, Arabic, Hebrew, …),
 * `fonts-droid-fallback` (CJK as TrueType outlines) and `fonts-symbola` (emoji and symbols as
 * black outlines, last: user text with emoji drew empty boxes, issue 28 item 16). Noto CJK ships
 * only as CFF collections (.ttc), which pdf-lib can neither select from nor subset reliably, and
 * Noto Color Emoji only as colour bitmaps, which PDF text cannot carry, so neither is used.
 */
export const DEBIAN_FONT_FILES: FontFiles = {
  regular: [`${DEJAVU}/DejaVuSans.ttf`, DROID, SYMBOLA],
  bold: [`${DEJAVU}/DejaVuSans-Bold.ttf`, DROID, SYMBOLA],
  mono: [`${DEJAVU}/DejaVuSansMono.ttf`, `${DEJAVU}/DejaVuSans.ttf`, DROID, SYMBOLA],
};

/** A configured font file could not be read or parsed; rendering cannot start without it. */
export class FontUnavailableError extends Error {
  readonly code = 'font_unavailable';
  constructor(
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(
      `font file ${path} is unavailable; on Debian install fonts-dejavu-core, fonts-droid-fallback and fonts-symbola`,
      options,
    );
    this.name = 'FontUnavailableError';
  }
}

/**
 * Reads and parses every font once, at startup, so a missing package fails the process early
 * with a clear message instead of failing the first certificate job.
 */
export function loadFontSource(files: FontFiles, deps: { readFile(path: string): Uint8Array }): FontSource {
  const byPath = new Map<string, FontFace>();
  const load = (path: string): FontFace => {
    const known = byPath.get(path);
    if (known) return known;
    let face: FontFace;
    try {
      const bytes = deps.readFile(path);
      const font = fontkit.create(bytes);
      // A .ttc parses to a collection without glyph lookup; refuse it here, not mid-render.
      if (typeof font.hasGlyphForCodePoint !== 'function') throw new TypeError('font collections are not supported');
      padSubsetGlyphs(font);
      memoizeSubsetEncoding(font);
      memoizeLayout(font);
      face = { name: font.postscriptName || path, bytes, font };
    } catch (cause) {
      throw new FontUnavailableError(path, { cause });
    }
    byPath.set(path, face);
    return face;
  };
  const chain = (paths: readonly string[]): readonly FontFace[] => {
    if (paths.length === 0) throw new TypeError('every font role needs at least one file');
    return paths.map(load);
  };
  return { regular: chain(files.regular), bold: chain(files.bold), mono: chain(files.mono) };
}

/** The parts of fontkit's TrueType subset that {@link padSubsetGlyphs} touches. */
interface TtfSubsetInternals {
  glyf?: Uint8Array[];
  offset?: number;
  _addGlyph?: (gid: number) => number;
}

/**
 * @pdf-lib/fontkit 1.1.1 writes a short (offset/2) `loca` for small subsets but never pads glyph
 * records to even length, so every glyph after an odd-length one is garbled (blank CJK glyphs
 * from Droid Sans Fallback). Padding each record to an even length, as the OpenType spec asks,
 * fixes it; the patch sits on this font instance only, never on fontkit's prototypes.
 */
function padSubsetGlyphs(font: Font): void {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset() as unknown as TtfSubsetInternals;
    const addGlyph = subset._addGlyph?.bind(subset);
    if (!addGlyph) return subset as never; // CFF subsets have no loca: nothing to pad
    subset._addGlyph = (gid: number) => {
      const index = addGlyph(gid);
      const record = subset.glyf?.[index];
      if (record && record.length % 2 === 1 && subset.glyf && subset.offset !== undefined) {
        // Allocate through the record's own class: fontkit bundles a Buffer polyfill and its
        // encode stream rejects anything else, Node's Buffer included.
        const padded = (record.constructor as unknown as { alloc(size: number): Uint8Array }).alloc(record.length + 1);
        padded.set(record);
        subset.glyf[index] = padded;
        subset.offset += 1;
      }
      return index;
    };
    return subset as never;
  };
}

const SUBSET_CACHE_SIZE = 64;

/** What pdf-lib reads of a subset's encoder: a stream of 'data' chunks, then 'end'. */
interface SubsetStream {
  on(event: 'data' | 'end' | 'error', listener: (arg?: unknown) => void): SubsetStream;
}

/**
 * Encoding a subset (rebuilding glyf, loca, hmtx, cmap…) is the costliest step of saving a
 * document. Two documents whose subsets hold the same glyphs in the same order encode to the
 * same bytes, and certificates of one account mostly do (the renderer seeds each face with a
 * fixed character set first), so the bytes are memoized per font by the subset's glyph list.
 */
function memoizeSubsetEncoding(font: Font): void {
  const createSubset = font.createSubset.bind(font);
  const cache = new Map<string, Uint8Array>();
  font.createSubset = () => {
    const subset = createSubset() as unknown as { glyphs: number[]; encodeStream(): SubsetStream };
    const encodeStream = subset.encodeStream.bind(subset);
    subset.encodeStream = () => {
      const key = subset.glyphs.join(',');
      const known = cache.get(key);
      if (!known) {
        const parts: Uint8Array[] = [];
        return encodeStream()
          .on('data', (chunk) => parts.push(chunk as Uint8Array))
          .on('end', () => {
            if (cache.size >= SUBSET_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
            cache.set(key, Buffer.concat(parts));
          });
      }
      // Replays the memoized bytes with the stream's shape, asynchronously as fontkit does.
      const listeners: Record<string, ((arg?: unknown) => void)[]> = { data: [], end: [], error: [] };
      const stream: SubsetStream = {
        on(event, listener) {
          listeners[event]!.push(listener);
          return stream;
        },
      };
      process.nextTick(() => {
        for (const l of listeners.data!) l(new Uint8Array(known));
        for (const l of listeners.end!) l();
      });
      return stream;
    };
    return subset as never;
  };
}

const LAYOUT_CACHE_SIZE = 4000;

/**
 * Shaping (GSUB/GPOS) is the bulk of render time, and each string is shaped several times: to
 * wrap, to place, and again inside pdf-lib's encodeText. A bounded per-font memo makes that once,
 * and labels repeat across documents. Safe because neither we nor pdf-lib mutate a GlyphRun.
 */
function memoizeLayout(font: Font): void {
  const layout = font.layout.bind(font);
  const cache = new Map<string, ReturnType<Font['layout']>>();
  font.layout = (text: string, features?: Parameters<Font['layout']>[1]) => {
    if (features !== undefined) return layout(text, features);
    let run = cache.get(text);
    if (!run) {
      run = layout(text);
      if (cache.size >= LAYOUT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(text, run);
    }
    return run;
  };
}

/** A piece of text that one face draws. */
export interface TextRun {
  readonly face: FontFace;
  readonly text: string;
}

// Strong right-to-left letters (Hebrew, Arabic and their presentation forms): a run of them is
// shaped as one unit so fontkit's RTL handling orders the glyphs visually.
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
// Characters that take the face and direction of their neighbours: marks, joiners, spaces.
const FOLLOWER = /[\p{M}\p{Cf}\s]/u;
// Controls would be drawn as tofu or break the content stream's text operators.
const CONTROL = /[\p{Cc}]/gu;

/** Picks, per character, the first face in `chain` that has a glyph; splits text into runs. */
export function splitRuns(text: string, chain: readonly FontFace[]): TextRun[] {
  const primary = chain[0];
  if (!primary) throw new TypeError('empty font chain');
  const runs: { face: FontFace; rtl: boolean; text: string }[] = [];
  for (const ch of text.replace(CONTROL, ' ')) {
    const last = runs[runs.length - 1];
    if (last && FOLLOWER.test(ch)) {
      last.text += ch;
      continue;
    }
    const cp = ch.codePointAt(0) ?? 0;
    // Nothing covers it: the primary face draws its .notdef box, which is honest and never throws.
    const face = chain.find((f) => f.font.hasGlyphForCodePoint(cp)) ?? primary;
    const rtl = RTL.test(ch);
    if (last && last.face === face && last.rtl === rtl) last.text += ch;
    else runs.push({ face, rtl, text: ch });
  }
  // Spaces inside an RTL run are reordered with it, which is right between two RTL words but
  // would swap a trailing space to the wrong side of the word: split trailing ones off.
  const out: TextRun[] = [];
  for (const run of runs) {
    const trail = run.rtl ? (/\s+$/u.exec(run.text)?.[0] ?? '') : '';
    out.push({ face: run.face, text: run.text.slice(0, run.text.length - trail.length) });
    if (trail) out.push({ face: run.face, text: trail });
  }
  return out;
}

/** Advance width in points, measured the way pdf-lib will draw it (fontkit layout, kerning included). */
export function measureRun(run: TextRun, size: number): number {
  const { glyphs } = run.face.font.layout(run.text);
  let units = 0;
  for (const g of glyphs) units += g.advanceWidth;
  return (units / run.face.font.unitsPerEm) * size;
}

/** Width of `text` in the given chain at `size`, summed over its font runs. */
export function measureText(text: string, chain: readonly FontFace[], size: number): number {
  let width = 0;
  for (const run of splitRuns(text, chain)) width += measureRun(run, size);
  return width;
}

/**
 * A fontkit stand-in for `pdfDoc.registerFontkit`: it hands pdf-lib the already parsed font for
 * bytes we loaded, so each document subsets without re-parsing multi-megabyte CJK files.
 */
export function cachingFontkit(source: FontSource): { create(bytes: Uint8Array): Font } {
  const parsed = new Map<Uint8Array, Font>();
  for (const chain of Object.values(source)) for (const face of chain) parsed.set(face.bytes, face.font);
  return { create: (bytes) => parsed.get(bytes) ?? fontkit.create(bytes) };
}
