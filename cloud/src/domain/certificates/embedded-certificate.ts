import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { CERTIFICATE_JSON_NAME, CERTIFICATE_SIG_NAME } from './certificate-content.js';

/** The signed record carried inside a certificate or report PDF. */
export interface EmbeddedCertificate {
  /** The attachment's exact bytes: verify these, never a re-serialisation of `content`. */
  readonly json: Uint8Array;
  /** Parsed `json`; unknown until a caller validates it against `CertificateContent`. */
  readonly content: unknown;
  /** Base64 Ed25519 signature over `json`. */
  readonly signature: string;
}

/** The PDF is readable but does not carry a well-formed certificate attachment. */
export class EmbeddedCertificateError extends Error {
  readonly code = 'embedded_certificate_invalid';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddedCertificateError';
  }
}

/**
 * Extracts `certificate.json` and `certificate.sig` from a PDF's embedded files, for offline
 * verification (`erasure-cloud verify-pdf FILE`). Returns null when the PDF has no such
 * attachments (not one of ours); throws {@link EmbeddedCertificateError} when they are damaged.
 */
export async function readEmbeddedCertificate(pdfBytes: Uint8Array): Promise<EmbeddedCertificate | null> {
  const doc = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  const files = embeddedFiles(doc);
  const json = files.get(CERTIFICATE_JSON_NAME);
  const sig = files.get(CERTIFICATE_SIG_NAME);
  if (!json && !sig) return null;
  if (!json || !sig) throw new EmbeddedCertificateError('only one of certificate.json and certificate.sig is embedded');
  let content: unknown;
  try {
    content = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch (cause) {
    throw new EmbeddedCertificateError('certificate.json is not valid UTF-8 JSON', { cause });
  }
  return { json, content, signature: new TextDecoder().decode(sig).trim() };
}

/** Name → decoded bytes for every file in the catalog's EmbeddedFiles name tree. */
export function embeddedFiles(doc: PDFDocument): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  if (tree) collect(tree, out, 0);
  return out;
}

// A name tree may nest through Kids; the depth cap stops a malicious reference cycle.
function collect(node: PDFDict, out: Map<string, Uint8Array>, depth: number): void {
  if (depth > 32) throw new EmbeddedCertificateError('embedded file name tree is too deep');
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  for (let i = 0; kids && i < kids.size(); i++) collect(kids.lookup(i, PDFDict), out, depth + 1);
  const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
  for (let i = 0; pairs && i + 1 < pairs.size(); i += 2) {
    const key = pairs.lookup(i);
    const spec = pairs.lookup(i + 1);
    if (!(key instanceof PDFString || key instanceof PDFHexString) || !(spec instanceof PDFDict)) continue;
    const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (stream instanceof PDFRawStream) out.set(key.decodeText(), decodePDFRawStream(stream).decode());
  }
}
