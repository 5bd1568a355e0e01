import { createHash } from 'node:crypto';
import {
  AFRelationship,
  fill,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingColor,
  type PDFFont,
  type PDFImage,
} from 'pdf-lib';
import { BRANDING_JSON_NAME, brandingAttachment, type Branding } from '../branding/branding.js';
import {
  CERTIFICATE_JSON_NAME,
  CERTIFICATE_SIG_NAME,
  canonicalize,
  type CertificateContent,
} from './certificate-content.js';
import { cachingFontkit, type FontFace, type FontSource } from './fonts.js';
import type { DrawOp, Frame } from './layout.js';
import { addSignaturePlaceholder, signPlaceholder } from './pdf-signature.js';
import type { PdfSigner } from './pdf-signing-certificate.js';

/** Document-level facts written into the PDF's info dictionary. */
export interface DocumentInfo {
  readonly title: string;
  readonly subject: string;
  readonly keywords: readonly string[];
}

/**
 * Turns laid-out pages into PDF bytes: embeds (subsets of) only the faces actually drawn,
 * writes the info dictionary, attaches the signed certificate for offline verification, and signs
 * the whole file with `pdfSigner` (PAdES), so PDF readers show whether the pages were changed.
 * Every date comes from the content and the PDF signature is deterministic (RSA PKCS#1 v1.5), so
 * the same certificate always renders the same bytes with the same signer.
 */
export async function paintDocument(
  frame: Frame,
  content: CertificateContent,
  signature: string,
  info: DocumentInfo,
  pdfSigner: PdfSigner,
  branding?: Branding | null,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  await paintPages(doc, frame, content.certificate_number);

  const when = new Date(content.signed_at);
  if (Number.isNaN(when.getTime())) throw new RangeError(`signed_at is not a timestamp: ${content.signed_at}`);
  doc.setTitle(info.title, { showInWindowTitleBar: true });
  doc.setSubject(info.subject);
  doc.setAuthor(content.account_name);
  doc.setKeywords([...info.keywords]);
  doc.setCreator('Erasure Cloud');
  doc.setProducer('Erasure Cloud certificate renderer (pdf-lib)');
  doc.setLanguage('en');
  doc.setCreationDate(when);
  doc.setModificationDate(when);

  const dates = { creationDate: when, modificationDate: when, afRelationship: AFRelationship.Source };
  await doc.attach(canonicalize(content), CERTIFICATE_JSON_NAME, {
    ...dates,
    mimeType: 'application/json',
    description: 'Signed certificate record (canonical JSON, UTF-8)',
  });
  await doc.attach(new TextEncoder().encode(`${signature}\n`), CERTIFICATE_SIG_NAME, {
    ...dates,
    mimeType: 'text/plain',
    description: 'Ed25519 signature of certificate.json, base64',
  });
  // The account's branding (issue 31 item 7) rides beside the record, not in it: the PDF signature
  // covers it, and verify-pdf redraws the certificate's page with it.
  if (branding) {
    await doc.attach(brandingAttachment(branding), BRANDING_JSON_NAME, {
      ...dates,
      mimeType: 'application/json',
      description: "The issuing account's logo and company details as drawn on the pages (not part of the signed record)",
    });
  }
  addSignaturePlaceholder(doc, { name: 'Erasure Cloud', reason: info.title, signingTime: when });
  // No object streams: qpdf and older viewers read the attachments more reliably.
  return signPlaceholder(await doc.save({ useObjectStreams: false }), pdfSigner);
}

/**
 * Adds the laid-out pages of `frame` to `doc`, embedding subsets of only the faces drawn. `seed`
 * names the subsets, so the same document always gets the same bytes.
 */
export async function paintPages(doc: PDFDocument, frame: Frame, seed: string): Promise<void> {
  // pdf-lib's Fontkit type is its own copy of fontkit's; the shim returns the real parsed font.
  doc.registerFontkit(cachingFontkit(frame.fonts) as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const fonts = await embedUsedFaces(doc, frame.pages, frame.fonts, seed);
  const images = new Map<Uint8Array, PDFImage>();
  const imageOf = async (image: { type: 'png' | 'jpeg'; bytes: Uint8Array }) => {
    let embedded = images.get(image.bytes);
    if (!embedded) {
      embedded = image.type === 'png' ? await doc.embedPng(image.bytes) : await doc.embedJpg(image.bytes);
      images.set(image.bytes, embedded);
    }
    return embedded;
  };

  for (const ops of frame.pages) {
    const page = doc.addPage([frame.width, frame.height]);
    for (const op of ops) {
      if (op.kind === 'rect') {
        page.drawRectangle({
          x: op.x,
          y: op.y,
          width: op.width,
          height: op.height,
          ...(op.fill ? { color: rgb(...op.fill) } : {}),
          ...(op.stroke ? { borderColor: rgb(...op.stroke), borderWidth: op.lineWidth ?? 0.75 } : {}),
        });
      } else if (op.kind === 'rects') {
        // Raw `re` operators: drawRectangle would wrap each one in its own graphics state.
        page.pushOperators(
          pushGraphicsState(),
          setFillingColor(rgb(...op.fill)),
          ...op.rects.map(([x, y, w, h]) => rectangle(x, y, w, h)),
          fill(),
          popGraphicsState(),
        );
      } else if (op.kind === 'image') {
        page.drawImage(await imageOf(op.image), { x: op.x, y: op.y, width: op.width, height: op.height });
      } else if (op.kind === 'line') {
        page.drawLine({ start: { x: op.x1, y: op.y1 }, end: { x: op.x2, y: op.y2 }, color: rgb(...op.color), thickness: op.width });
      } else {
        let x = op.x;
        for (const run of op.runs) {
          const font = fonts.get(run.face);
          if (!font) throw new Error(`face ${run.face.name} was not embedded`);
          if (run.text.trim()) page.drawText(run.text, { x, y: op.y, size: op.size, font, color: rgb(...op.color) });
          x += run.width;
        }
      }
    }
  }
}

async function embedUsedFaces(
  doc: PDFDocument,
  pages: readonly (readonly DrawOp[])[],
  source: FontSource,
  seed: string,
): Promise<Map<FontFace, PDFFont>> {
  const used = new Set<FontFace>();
  for (const ops of pages) for (const op of ops) if (op.kind === 'text') for (const run of op.runs) used.add(run.face);
  const fonts = new Map<FontFace, PDFFont>();
  // Walk the source in its own order so embedding order, and thus the bytes, is stable.
  for (const face of new Set(Object.values(source).flat())) {
    if (!used.has(face)) continue;
    const font = await doc.embedFont(face.bytes, { subset: true, customName: `${subsetTag(seed, face.name)}+${face.name}` });
    // A fixed first set of glyphs: documents that stay within it share one subset, whose
    // encoding the font memoizes (fonts.ts), instead of re-encoding it per document.
    font.encodeText(SEED_CHARACTERS);
    fonts.set(face, font);
  }
  return fonts;
}

// Printable ASCII plus the punctuation the templates print.
const SEED_CHARACTERS = `${Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('')}·–—‘’“”…›×°%`;

/**
 * The six-letter subset prefix PDF expects ("ABCDEF+Font"). pdf-lib would pick a random one,
 * which makes two renders of the same certificate differ; derive it instead.
 */
function subsetTag(seed: string, name: string): string {
  const digest = createHash('sha256').update(`${seed}\0${name}`).digest();
  return Array.from(digest.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join('');
}
