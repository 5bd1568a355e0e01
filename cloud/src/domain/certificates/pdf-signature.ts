import { createHash, createPrivateKey, randomBytes, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { Attribute, ContentInfo, id_data, id_signedData, IssuerAndSerialNumber, SignedData, SignerIdentifier, SignerInfo, CertificateChoices, CertificateSet, DigestAlgorithmIdentifiers, EncapsulatedContentInfo, SignerInfos } from '@peculiar/asn1-cms';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate } from '@peculiar/asn1-x509';
import { SignPdf, Signer } from '@signpdf/signpdf';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import type { PDFDocument } from 'pdf-lib';
import { certificateFingerprint, certificatePublicKey, RSA_SHA256, type PdfSigner } from './pdf-signing-certificate.js';

/**
 * The PDF signature every certificate and Erasure Report carries (PAdES baseline B-B): a CMS
 * SignedData over the whole file (ETSI.CAdES.detached), so a PDF reader shows whether the
 * visible pages are what the deployment signed, and `verify-pdf` checks the same bytes.
 */

const SHA256 = '2.16.840.1.101.3.4.2.1';
const CONTENT_TYPE = '1.2.840.113549.1.9.3';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
/** Hex digits reserved for the CMS (8 KiB): a signature and a CA's chain of a few certificates. */
const SIGNATURE_LENGTH = 16384;

/** Adds the signature field and its placeholder; call just before `save`. */
export function addSignaturePlaceholder(doc: PDFDocument, input: { name: string; reason: string; signingTime: Date }): void {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: input.reason,
    contactInfo: '',
    name: input.name,
    location: '',
    signingTime: input.signingTime,
    signatureLength: SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Erasure Cloud',
  });
}

/** Fills the placeholder of a saved PDF with the CMS signature over every other byte. */
export async function signPlaceholder(pdf: Uint8Array, signer: PdfSigner): Promise<Uint8Array> {
  return new Uint8Array(await new SignPdf().sign(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), new CmsSigner(signer)));
}

class CmsSigner extends Signer {
  constructor(private readonly signer: PdfSigner) {
    super();
  }
  override async sign(covered: Buffer): Promise<Buffer> {
    return Buffer.from(cmsSignature(covered, this.signer));
  }
}

/** A detached CMS SignedData over `covered`, with PAdES's signed attributes (no signing time: the PDF's /M has it). */
export function cmsSignature(covered: Uint8Array, signer: PdfSigner): Uint8Array {
  const template = templateFor(signer);
  const signedSet = Buffer.from(template.signedSet);
  sha256(covered).copy(signedSet, template.digestInSet);
  const signature = sign('sha256', signedSet, template.key);
  if (signature.length !== template.signatureLength) throw new Error('unexpected RSA signature length');
  const out = Buffer.from(template.cms);
  signedSet.copy(out, template.digestInCms, template.digestInSet, template.digestInSet + 32);
  signature.copy(out, template.signatureInCms);
  return new Uint8Array(out);
}

/**
 * Everything of a signer's CMS but the digest and the signature, encoded once: both have a fixed
 * length (SHA-256; the RSA modulus), so each document only patches them in. Encoding the
 * certificates and attributes per document cost more than the rest of the signing.
 */
interface CmsTemplate {
  key: KeyObject;
  signatureLength: number;
  /** The signed attributes as the DER SET that is signed, and the digest's offset in it. */
  signedSet: Buffer;
  digestInSet: number;
  /** The whole ContentInfo with placeholder digest and signature, and their offsets. */
  cms: Buffer;
  digestInCms: number;
  signatureInCms: number;
}

const templates = new Map<string, CmsTemplate>();

function templateFor(signer: PdfSigner): CmsTemplate {
  const leafDer = signer.certificates[0];
  if (!leafDer) throw new Error('a PDF signer needs a certificate');
  const id = `${certificateFingerprint(leafDer)}:${sha256(signer.privateKey).toString('hex')}`;
  let template = templates.get(id);
  if (!template) {
    template = buildTemplate(signer, leafDer);
    if (templates.size >= 8) templates.clear(); // a rotation or two per process lifetime, at most
    templates.set(id, template);
  }
  return template;
}

function buildTemplate(signer: PdfSigner, leafDer: Uint8Array): CmsTemplate {
  const key = createPrivateKey({ key: Buffer.from(signer.privateKey), format: 'der', type: 'pkcs8' });
  const signatureLength = (key.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
  if (key.asymmetricKeyType !== 'rsa' || signatureLength < 256) throw new Error('the PDF signing key must be RSA, 2048 bits or more');
  // Random stand-ins, found again by search: they cannot collide with the rest of the encoding.
  const digestMark = randomBytes(32);
  const signatureMark = randomBytes(signatureLength);
  const leaf = AsnConvert.parse(leafDer, Certificate);
  const attributes = [
    attribute(CONTENT_TYPE, new asn1js.ObjectIdentifier({ value: id_data })),
    attribute(MESSAGE_DIGEST, new asn1js.OctetString({ valueHex: digestMark })),
    // ESS signing-certificate-v2 (hash algorithm defaults to SHA-256): binds the signer's certificate.
    attribute(
      SIGNING_CERTIFICATE_V2,
      new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(leafDer) })] })] })] }),
    ),
  ];
  // DER orders a SET OF by encoding (the digest's length is fixed, so its value never reorders it);
  // what is signed is the attributes as a SET (tag 0x31).
  const order = (a: Attribute) => Buffer.from(AsnConvert.serialize(a));
  attributes.sort((a, b) => Buffer.compare(order(a), order(b)));
  const signedSet = derSet(attributes.map(order));
  const signerInfo = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({ issuer: leaf.tbsCertificate.issuer, serialNumber: leaf.tbsCertificate.serialNumber }),
    }),
    digestAlgorithm: new AlgorithmIdentifier({ algorithm: SHA256 }),
    signedAttrs: attributes,
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: RSA_SHA256, parameters: null }),
    signature: new OctetString(toArrayBuffer(signatureMark)),
  });
  const signedData = new SignedData({
    version: 1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([new AlgorithmIdentifier({ algorithm: SHA256 })]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: id_data }),
    certificates: new CertificateSet(signer.certificates.map((der) => new CertificateChoices({ certificate: AsnConvert.parse(der, Certificate) }))),
    signerInfos: new SignerInfos([signerInfo]),
  });
  const cms = Buffer.from(AsnConvert.serialize(new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) })));
  const digestInSet = signedSet.indexOf(digestMark);
  const digestInCms = cms.indexOf(digestMark);
  const signatureInCms = cms.indexOf(signatureMark);
  if (digestInSet < 0 || digestInCms < 0 || signatureInCms < 0) throw new Error('CMS template is missing a placeholder');
  return { key, signatureLength, signedSet, digestInSet, cms, digestInCms, signatureInCms };
}

/** The outcome of {@link checkPdfSignature}: the signer's certificate when the signature holds. */
export type PdfSignatureCheck = { ok: true; signerCertificate: Uint8Array } | { ok: false; reason: string };

/**
 * Checks a PDF's signature the way a reader does, and more strictly: exactly one signature, whose
 * byte range covers the whole file but its own /Contents (so no page, incremental update or
 * edited byte came after it), whose message digest is that of those bytes, and whose signed
 * attributes verify under the certificate it carries. Whether that certificate is the
 * deployment's is the caller's question.
 */
export function checkPdfSignature(pdf: Uint8Array): PdfSignatureCheck {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = bytes.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length === 0) return { ok: false, reason: 'the PDF is not signed' };
  if (text.split('/ByteRange').length > 2) return { ok: false, reason: 'the PDF carries more than one signature' };
  const [start, firstLength, second, secondLength] = ranges[0]!.slice(1).map(Number) as [number, number, number, number];
  if (start !== 0 || second + secondLength !== bytes.length || firstLength >= second) {
    return { ok: false, reason: 'the signature does not cover the whole document' };
  }
  const gap = text.slice(firstLength, second);
  if (!/^<[0-9a-fA-F]*>$/.test(gap)) return { ok: false, reason: 'the signature does not cover the whole document' };
  const covered = Buffer.concat([bytes.subarray(0, firstLength), bytes.subarray(second)]);
  try {
    return verifyCms(Buffer.from(gap.slice(1, -1), 'hex'), covered);
  } catch {
    return { ok: false, reason: 'the PDF signature is malformed' };
  }
}

function verifyCms(cms: Buffer, covered: Buffer): PdfSignatureCheck {
  // The hex string is zero-padded after the DER: read only the first element.
  const info = AsnConvert.parse(cms.subarray(0, derLength(cms)), ContentInfo);
  if (info.contentType !== id_signedData) return { ok: false, reason: 'the PDF signature is not CMS SignedData' };
  const signed = AsnConvert.parse(info.content, SignedData);
  const signerInfo = signed.signerInfos[0];
  if (signed.signerInfos.length !== 1 || !signerInfo?.signedAttrs) return { ok: false, reason: 'the PDF signature is malformed' };
  const certificate = signed.certificates?.find((c) => c.certificate && sameSigner(c.certificate, signerInfo))?.certificate;
  if (!certificate) return { ok: false, reason: 'the PDF signature does not carry its certificate' };
  const digest = signerInfo.signedAttrs.find((a) => a.attrType === MESSAGE_DIGEST)?.attrValues[0];
  const expected = asn1js.fromBER(digest ?? new ArrayBuffer(0)).result;
  if (!(expected instanceof asn1js.OctetString)) return { ok: false, reason: 'the PDF signature is malformed' };
  const actual = sha256(covered);
  const claimed = Buffer.from(expected.valueBlock.valueHexView);
  if (signerInfo.digestAlgorithm.algorithm !== SHA256 || claimed.length !== actual.length || !timingSafeEqual(claimed, actual)) {
    return { ok: false, reason: 'the document was changed after it was signed' };
  }
  const der = new Uint8Array(AsnConvert.serialize(certificate));
  // What was signed is the attributes as a DER SET, in the order they arrived (DER order).
  const signedSet = derSet(signerInfo.signedAttrs.map((a) => Buffer.from(AsnConvert.serialize(a))));
  const valid =
    signerInfo.signatureAlgorithm.algorithm === RSA_SHA256 &&
    verify('sha256', signedSet, certificatePublicKey(der), Buffer.from(signerInfo.signature.buffer));
  return valid ? { ok: true, signerCertificate: der } : { ok: false, reason: 'the PDF signature does not match its certificate' };
}

function sameSigner(certificate: Certificate, signerInfo: SignerInfo): boolean {
  const sid = signerInfo.sid.issuerAndSerialNumber;
  if (!sid) return false;
  const same = (a: ArrayBuffer, b: ArrayBuffer) => Buffer.from(a).equals(Buffer.from(b));
  return (
    same(sid.serialNumber, certificate.tbsCertificate.serialNumber) &&
    same(AsnConvert.serialize(sid.issuer), AsnConvert.serialize(certificate.tbsCertificate.issuer))
  );
}

/** Length of the DER element at the start of `der` (tag, length, contents). */
function derLength(der: Buffer): number {
  const first = der[1] ?? 0;
  if (first < 0x80) return 2 + first;
  const count = first & 0x7f;
  if (count === 0 || count > 4) throw new Error('unsupported DER length');
  return 2 + count + der.subarray(2, 2 + count).readUIntBE(0, count);
}

/** DER SET OF the given (already sorted) encodings. */
function derSet(elements: Buffer[]): Buffer {
  const body = Buffer.concat(elements);
  return Buffer.concat([Buffer.from([0x31]), derLengthBytes(body.length), body]);
}

function derLengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function attribute(type: string, value: asn1js.BaseBlock): Attribute {
  return new Attribute({ attrType: type, attrValues: [value.toBER()] });
}

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
