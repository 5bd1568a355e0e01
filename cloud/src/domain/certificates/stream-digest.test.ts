import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFName, type PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { rememberedStreamDigests } from './stream-digest.js';

const context = PDFContext.create();
const stream = (bytes: Uint8Array, filter?: string): PDFRawStream => context.stream(bytes, filter ? { Filter: PDFName.of(filter) } : {});
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const counting = () => {
  const calls = { n: 0 };
  const decode = (s: PDFRawStream) => (calls.n++, decodePDFRawStream(s).decode());
  return { calls, digest: rememberedStreamDigests(decode) };
};

describe('decoded stream digests in the page check', () => {
  const font = new TextEncoder().encode('glyf loca hmtx '.repeat(200));

  it('is the SHA-256 of the decoded bytes', () => {
    const { digest } = counting();
    expect(digest(stream(deflateSync(font), 'FlateDecode'), '/FlateDecode')).toBe(sha256(font));
  });

  it('decodes the same encoded bytes once, however many pages carry them', () => {
    const { calls, digest } = counting();
    const encoded = deflateSync(font);
    for (let i = 0; i < 5; i++) expect(digest(stream(encoded, 'FlateDecode'), '/FlateDecode')).toBe(sha256(font));
    expect(calls.n).toBe(1);
  });

  it('the same bytes under another encoding are decoded again, not taken for the same content', () => {
    const { calls, digest } = counting();
    const encoded = deflateSync(font);
    expect(digest(stream(encoded, 'FlateDecode'), '/FlateDecode')).toBe(sha256(font));
    expect(digest(stream(encoded), 'undefined')).toBe(sha256(encoded));
    expect(calls.n).toBe(2);
  });
});
