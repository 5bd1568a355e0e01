import { createHash } from 'node:crypto';
import { decodePDFRawStream, type PDFRawStream } from 'pdf-lib';

/** The SHA-256 (hex) of a stream's decoded bytes, given how it is encoded (its filters and their parameters, as text). */
export type StreamDigest = (stream: PDFRawStream, encoding: string) => string;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Decoded-stream digests, remembered by everything decoding depends on: the encoding and the
 * encoded bytes. The page check decodes every font file of both pages (the file's and the one
 * regenerated from its record) with pdf-lib's JavaScript inflate; those are the same bytes on both
 * sides and, within a lot, in most of its certificates, and decoding them was most of verifying a
 * lot. Equal keys decode to equal bytes, so a remembered digest is the one decoding would give.
 * At most `limit` are kept (a few hundred short strings); past it the memory starts again.
 */
export function rememberedStreamDigests(
  decode: (stream: PDFRawStream) => Uint8Array = (stream) => decodePDFRawStream(stream).decode(),
  limit = 512,
): StreamDigest {
  const digests = new Map<string, string>();
  return (stream, encoding) => {
    const key = createHash('sha256').update(encoding).update('\0').update(stream.getContents()).digest('hex');
    let digest = digests.get(key);
    if (digest === undefined) {
      digest = sha256(decode(stream));
      if (digests.size >= limit) digests.clear();
      digests.set(key, digest);
    }
    return digest;
  };
}
