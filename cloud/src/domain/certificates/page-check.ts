import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFObject,
  type PDFPageLeaf,
} from 'pdf-lib';
import { BRANDING_JSON_NAME, readBrandingAttachment, type Branding } from '../branding/branding.js';
import type { CertificateContent } from './certificate-content.js';
import { embeddedFiles } from './embedded-certificate.js';
import type { FontSource } from './fonts.js';
import { paintPages } from './pdf-document.js';
import { layoutCertificatePage } from './render-certificate.js';
import { rememberedStreamDigests } from './stream-digest.js';

/** One memory for the process: a lot's certificates share their font files. */
const decodedDigest = rememberedStreamDigests();
import { LANGUAGES } from './i18n/wording.js';
import { REV1_LAYOUT_SCHEMAS } from './certificate-content.js';

/*
 * Issue 28: the page a person reads must be the page the signed record renders to. Checking that
 * each signed fact appears somewhere in the extracted text is not enough: a forger draws the genuine
 * facts in 2-pt white text under a page of their own. So the certificate's page is regenerated
 * from the signed record with the same generator, and the file's page must draw exactly that:
 * the same content stream (every text, font, size, colour and position, in order) with the same
 * fonts and resources. Hidden, off-page, covered or clipped text, a white box over a value, or a
 * font whose glyphs draw other letters all change what is compared, so all of them fail.
 */

/** Why a file's pages differ from the genuine pages, or null when they are the same drawing. */
export type PageDifference = string | null;

/**
 * Compares the pages of the Certificate of Sanitization `file` with the page its signed record
 * `content` and `signature` render to. Needs the fonts the deployment renders with.
 */
export async function certificatePageDifference(
  file: Uint8Array,
  content: CertificateContent,
  signature: string,
  fonts: FontSource,
): Promise<PageDifference> {
  const actual = await PDFDocument.load(file, { updateMetadata: false });
  // An account's branding (issue 31 item 7) is not in the record: the page is redrawn with the
  // branding the file carries, which the PDF signature (checked before this) vouches for.
  let branding: Branding | null = null;
  const attached = embeddedFiles(actual).get(BRANDING_JSON_NAME);
  if (attached) {
    // Records before v3 do not name the PDF signer, so nothing would vouch for a branding on them.
    if (content.schema === 'erasure-certificate/v1' || content.schema === 'erasure-certificate/v2') return 'the PDF carries a branding, which certificates of its record version never had';
    const read = readBrandingAttachment(attached);
    if (!read.ok) return `the branding attached to the PDF cannot be read (${read.error})`;
    branding = read.value;
  }
  // The page may be drawn in any supported language (issue 31 item 7 part B); the record is the
  // same in each, so the page must be exactly one language's drawing of it. English first: most
  // pages are English, and v1-v3 pages were only ever drawn in English.
  const languages = REV1_LAYOUT_SCHEMAS.includes(content.schema) ? (['en'] as const) : LANGUAGES;
  let first: PageDifference = null;
  for (const language of languages) {
    let frame;
    try {
      frame = layoutCertificatePage(content, { fonts, signature, branding, language });
    } catch {
      continue; // a record too long for one page in this language was never drawn in it
    }
    const genuine = await PDFDocument.create({ updateMetadata: false });
    await paintPages(genuine, frame, content.certificate_number);
    // Through save and load, so both sides are read by the same parser.
    const expected = await PDFDocument.load(await genuine.save({ useObjectStreams: false }), { updateMetadata: false });
    const difference = pagesDifference(actual, expected);
    if (difference === null) return null;
    first ??= difference;
  }
  // Fail closed: a page that is no language's drawing of the record is refused, with the first reason.
  first ??= 'the signed record does not fit one page in any language';
  return languages.length > 1 ? `${first} in any of its languages (${languages.join(', ')})` : first;
}

/** Page by page: the same drawing, the same resources, and no annotation that could draw. */
export function pagesDifference(actual: PDFDocument, expected: PDFDocument): PageDifference {
  const pages = actual.getPages();
  const genuine = expected.getPages();
  if (pages.length !== genuine.length) return `the PDF has ${pages.length} pages where the signed record renders ${genuine.length}`;
  for (let i = 0; i < pages.length; i++) {
    const where = pages.length > 1 ? ` on page ${i + 1}` : '';
    const page = pages[i]!.node;
    const expectedPage = genuine[i]!.node;
    const drawable = drawingAnnotation(page);
    if (drawable) return `the page carries an annotation that draws over it (${drawable})${where}`;
    let drawing: string;
    let attributes: string;
    try {
      drawing = pageDrawing(page);
      attributes = canonical(pageAttributes(page), page.context);
    } catch {
      return `the page's drawing cannot be read${where}`;
    }
    if (drawing !== pageDrawing(expectedPage)) return `the page does not draw what the signed record renders to${where}`;
    if (attributes !== canonical(pageAttributes(expectedPage), expectedPage.context)) {
      return `the page's fonts, resources or size differ from those the signed record renders with${where}`;
    }
  }
  return null;
}

/** The decoded content streams of a page, in order: every drawing operation it makes. */
function pageDrawing(page: PDFPageLeaf): string {
  const contents = page.lookup(PDFName.of('Contents'));
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => page.context.lookup(ref)) : [contents];
  return streams
    .map((stream) => {
      if (!(stream instanceof PDFRawStream)) throw new Error('page content is not a stream');
      return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    })
    .join('\n');
}

/** Inheritable attributes resolve through the page tree: a /Rotate on the parent turns the page too. */
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;
/** What a page dictionary holds that is not drawing: links in the tree, content (compared apart), annotations (checked apart). */
const NOT_COMPARED = new Set(['Parent', 'Contents', 'Annots']);

function pageAttributes(page: PDFPageLeaf): Map<string, PDFObject | undefined> {
  const out = new Map<string, PDFObject | undefined>();
  for (const [key, value] of page.entries()) if (!NOT_COMPARED.has(key.decodeText())) out.set(key.decodeText(), value);
  for (const name of INHERITED) out.set(name, page.getInheritableAttribute(PDFName.of(name)));
  return out;
}

/**
 * Names an annotation that can put something on the page. The deployment's PDFs carry one: the
 * signature field's widget, whose rectangle is empty, so it draws nothing.
 */
function drawingAnnotation(page: PDFPageLeaf): string | null {
  const annots = page.lookup(PDFName.of('Annots'));
  if (annots === undefined) return null;
  if (!(annots instanceof PDFArray)) return 'malformed /Annots';
  for (const item of annots.asArray()) {
    const annot = item instanceof PDFRef ? page.context.lookup(item) : item;
    if (!(annot instanceof PDFDict)) return 'malformed annotation';
    const subtype = annot.lookup(PDFName.of('Subtype'));
    const kind = subtype instanceof PDFName ? subtype.decodeText() : 'unknown';
    const rect = annot.lookup(PDFName.of('Rect'));
    const numbers = rect instanceof PDFArray ? rect.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN)) : [];
    const [x1, y1, x2, y2] = numbers;
    const empty = numbers.length === 4 && numbers.every(Number.isFinite) && (x1 === x2 || y1 === y2);
    if (kind !== 'Widget' || !empty) return kind;
  }
  return null;
}

/**
 * A PDF object as text, references resolved and streams decoded (then hashed), so two objects
 * compare equal exactly when they say the same thing wherever they sit in their files.
 */
function canonical(value: PDFObject | Map<string, PDFObject | undefined> | undefined, context: PDFPageLeaf['context'], depth = 0): string {
  if (depth > 24) throw new Error('PDF object nests too deep');
  if (value instanceof Map) return `{${[...value.keys()].sort().map((k) => `${k}:${canonical(value.get(k), context, depth + 1)}`).join(',')}}`;
  if (value === undefined) return 'undefined';
  if (value instanceof PDFRef) return canonical(context.lookup(value), context, depth + 1);
  if (value instanceof PDFRawStream) {
    const encoding = `${canonical(value.dict.get(PDFName.of('Filter')), context, depth + 1)},${canonical(value.dict.get(PDFName.of('DecodeParms')), context, depth + 1)}`;
    return `stream(${canonical(withoutEncoding(value.dict), context, depth + 1)},${decodedDigest(value, encoding)})`;
  }
  if (value instanceof PDFDict) {
    return `{${[...value.entries()]
      .map(([k, v]) => [k.decodeText(), v] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}:${canonical(v, context, depth + 1)}`)
      .join(',')}}`;
  }
  if (value instanceof PDFArray) return `[${value.asArray().map((v) => canonical(v, context, depth + 1)).join(',')}]`;
  if (value instanceof PDFName) return `/${value.decodeText()}`;
  if (value instanceof PDFNumber) return String(value.asNumber());
  if (value instanceof PDFString || value instanceof PDFHexString) return `(${Buffer.from(value.asBytes()).toString('hex')})`;
  if (value instanceof PDFBool) return String(value.asBoolean());
  if (value === PDFNull) return 'null';
  return `?${value.constructor.name}`;
}

/** A stream's dictionary without how its bytes are packed: the decoded bytes are compared instead. */
function withoutEncoding(dict: PDFDict): Map<string, PDFObject | undefined> {
  const out = new Map<string, PDFObject | undefined>();
  for (const [key, value] of dict.entries()) if (!['Length', 'Filter', 'DecodeParms', 'Length1'].includes(key.decodeText())) out.set(key.decodeText(), value);
  return out;
}
