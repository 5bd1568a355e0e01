import { describe, expect, test } from 'vitest';
import {
  canonicalJson,
  canonicalize,
  CERTIFICATE_SCHEMA,
  deriveNistCategory,
  isKnownCertificateSchema,
  signatureFingerprint,
  signContent,
  verifyBytes,
  verifyContent,
  type CertificateContent,
} from '../../src/domain/certificates/certificate-content.js';
import { sampleContent, testKeys } from './fixtures.js';

/** Every leaf path of an object, e.g. `drive.serial`, so each field can be tampered with. */
function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
  }
  return [prefix];
}

function tampered(content: CertificateContent, path: string[]): CertificateContent {
  const copy = structuredClone(content) as unknown as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] ?? '';
  const old = node[last];
  node[last] =
    typeof old === 'string' ? `${old}x` : typeof old === 'number' ? old + 1 : typeof old === 'boolean' ? !old : 'x';
  return copy as unknown as CertificateContent;
}

describe('canonicalize', () => {
  test('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[2,{"y":null,"z":true}]},"b":1}',
    );
  });

  test('does not depend on key insertion order', () => {
    const sut = sampleContent();
    const reversed = Object.fromEntries(Object.entries(sut).reverse()) as unknown as CertificateContent;
    expect(Buffer.from(canonicalize(reversed)).equals(Buffer.from(canonicalize(sut)))).toBe(true);
  });

  test('encodes non-ASCII names as UTF-8, not as \\u escapes', () => {
    const bytes = canonicalize(sampleContent({ operator: '山田 محمد Иван' }));
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain('"operator":"山田 محمد Иван"');
    expect(bytes.length).toBeGreaterThan(text.length); // multi-byte characters
  });

  test('refuses values JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ a: undefined })).toThrow(/undefined/);
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/non-finite/);
  });
});

describe('signContent / verifyContent', () => {
  const { privateKey, publicKey } = testKeys();
  const content = sampleContent();
  const signature = signContent(privateKey, content);

  test('a signature verifies under the matching public key', () => {
    expect(verifyContent(publicKey, content, signature)).toBe(true);
    expect(verifyBytes(publicKey, canonicalize(content), signature)).toBe(true);
  });

  test.each(leafPaths(content).map((p) => [p.join('.'), p] as const))('changing %s fails verification', (_name, path) => {
    expect(verifyContent(publicKey, tampered(content, path), signature)).toBe(false);
  });

  test('a different key, a flipped bit or a malformed signature fails verification', () => {
    const other = testKeys();
    expect(verifyContent(other.publicKey, content, signature)).toBe(false);
    const bytes = Buffer.from(signature, 'base64');
    bytes[10] = (bytes[10] ?? 0) ^ 1;
    expect(verifyContent(publicKey, content, bytes.toString('base64'))).toBe(false);
    expect(verifyContent(publicKey, content, 'not base64!')).toBe(false);
    expect(verifyContent(publicKey, content, Buffer.alloc(12).toString('base64'))).toBe(false);
  });

  test('signing with a non-Ed25519 or public key is a programming error', () => {
    expect(() => signContent(publicKey as never, content)).toThrow(/Ed25519 private key/);
  });

  test('the fingerprint is 8 groups of 4 hex digits and stable', () => {
    expect(signatureFingerprint(signature)).toMatch(/^([0-9A-F]{4} ){7}[0-9A-F]{4}$/);
    expect(signatureFingerprint(signature)).toBe(signatureFingerprint(` ${signature}\n`));
  });
});

describe('deriveNistCategory', () => {
  test.each([
    ['NIST 800-88 R2 Purge', 'overwrite, 1 pass', 'Purge'],
    ['NIST 800-88 Clear', 'NVMe sanitize crypto erase', 'Clear'],
    [null, 'NVMe Sanitize, crypto erase (SANACT=4)', 'Purge'],
    ['Cryptographic erase', null, 'Purge'],
    ['ATA Secure Erase Enhanced', null, 'Purge'],
    [null, 'sanitize block erase', 'Purge'],
    ['Overwrite (zeros)', '1 pass', 'Clear'],
    [null, null, 'Clear'],
    ['something new', 'unknown', 'Clear'],
  ] as const)('method %j, technique %j → %s', (method, technique, expected) => {
    expect(deriveNistCategory(method, technique)).toBe(expected);
  });
});

describe('certificate schema versions (v2 adds customer and lot / job reference, v3 the PDF signer, v4 the Rev. 2 page, v5 the asset tag)', () => {
  test('new certificates carry schema v5', () => {
    expect(CERTIFICATE_SCHEMA).toBe('erasure-certificate/v5');
  });

  test('a v3 certificate, signed before the Rev. 2 page, still reads and verifies', () => {
    const { privateKey, publicKey } = testKeys();
    const { crypto_erase_evidence: _e, validation_status: _v, ...rest } = sampleContent();
    const v3 = { ...rest, schema: 'erasure-certificate/v3' } as CertificateContent;
    expect(isKnownCertificateSchema(v3.schema)).toBe(true);
    expect(verifyContent(publicKey, v3, signContent(privateKey, v3))).toBe(true);
  });

  test('a v2 certificate, signed before records named their PDF signer, still reads and verifies', () => {
    const { privateKey, publicKey } = testKeys();
    const { pdf_signer_sha256: _p, ...rest } = sampleContent();
    const v2 = { ...rest, schema: 'erasure-certificate/v2' } as CertificateContent;
    expect(isKnownCertificateSchema(v2.schema)).toBe(true);
    expect(verifyContent(publicKey, v2, signContent(privateKey, v2))).toBe(true);
    expect(canonicalJson(v2)).not.toContain('pdf_signer');
  });

  test('a v1 certificate, signed before customer and lot existed, still reads and verifies', () => {
    const { privateKey, publicKey } = testKeys();
    const { customer: _c, lot_reference: _l, pdf_signer_sha256: _p, ...rest } = sampleContent();
    const v1 = { ...rest, schema: 'erasure-certificate/v1' } as CertificateContent;
    expect(isKnownCertificateSchema(v1.schema)).toBe(true);
    expect(verifyContent(publicKey, v1, signContent(privateKey, v1))).toBe(true);
    expect(canonicalJson(v1)).not.toContain('customer');
  });

  test('an unknown schema is refused (fail closed)', () => {
    expect(isKnownCertificateSchema('erasure-certificate/v6')).toBe(false);
    expect(isKnownCertificateSchema('erasure-certificate/v4')).toBe(true);
    expect(isKnownCertificateSchema(undefined)).toBe(false);
  });
});
