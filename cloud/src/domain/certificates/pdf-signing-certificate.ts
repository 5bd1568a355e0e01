import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  BasicConstraints,
  Certificate,
  Extension,
  Extensions,
  id_ce_basicConstraints,
  id_ce_keyUsage,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

/**
 * The key and X.509 certificate that sign a deployment's PDFs the way PDF readers check them
 * (PAdES). RSA 2048 with SHA-256: every common validator accepts it, and PKCS#1 v1.5 signatures
 * are deterministic, so the same certificate still renders the same bytes.
 */
export interface PdfSigner {
  /** DER certificates, the signer's first, then any chain up to (not including) the root. */
  readonly certificates: readonly Uint8Array[];
  /** PKCS#8 DER private key of the first certificate. */
  readonly privateKey: Uint8Array;
}

/** sha256WithRSAEncryption. */
export const RSA_SHA256 = '1.2.840.113549.1.1.11';
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';

/** Hex SHA-256 of a certificate's DER: how the deployment records which certificates signed. */
export const certificateFingerprint = (der: Uint8Array): string => createHash('sha256').update(der).digest('hex');

/**
 * A certificate serial from random bytes, as a positive INTEGER in minimal DER: the first byte is
 * kept in 0x40–0x7f. Clearing only the top bit left a first byte of 0x00 one time in 128, and with
 * a second byte under 0x80 that is a non-minimal encoding, which strict DER readers (NSS: pdfsig,
 * Firefox) refuse: every PDF signed under such a certificate failed validation there.
 */
export function certificateSerial(random: Uint8Array): Uint8Array {
  const serial = Uint8Array.from(random);
  serial[0] = 0x40 | (serial[0]! & 0x3f);
  return serial;
}

/**
 * A fresh RSA key with a self-signed certificate naming the deployment. Readers show it as
 * "not trusted" until a deployment configures a certificate from a CA they trust (README), but
 * they still check that the document is unmodified since it was signed.
 */
export function generateSelfSignedPdfSigner(input: { commonName: string; now: Date; years?: number }): PdfSigner {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const notAfter = new Date(input.now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + (input.years ?? 30));
  const name = new Name([
    new RelativeDistinguishedName([new AttributeTypeAndValue({ type: '2.5.4.3', value: new AttributeValue({ utf8String: input.commonName }) })]),
    new RelativeDistinguishedName([new AttributeTypeAndValue({ type: '2.5.4.10', value: new AttributeValue({ utf8String: 'Erasure Cloud' }) })]),
  ]);
  const serial = certificateSerial(randomBytes(16));
  const algorithm = new AlgorithmIdentifier({ algorithm: RSA_SHA256, parameters: null });
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: toArrayBuffer(serial),
    signature: algorithm,
    issuer: name,
    validity: new Validity({ notBefore: input.now, notAfter }),
    subject: name,
    subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ format: 'der', type: 'spki' }), SubjectPublicKeyInfo),
    extensions: new Extensions([
      extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation)),
      extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: false })),
    ]),
  });
  const tbsDer = AsnConvert.serialize(tbs);
  const signatureValue = sign('sha256', new Uint8Array(tbsDer), privateKey);
  const certificate = new Certificate({ tbsCertificate: tbs, signatureAlgorithm: algorithm, signatureValue: toArrayBuffer(signatureValue) });
  return {
    certificates: [new Uint8Array(AsnConvert.serialize(certificate))],
    privateKey: new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' })),
  };
}

/**
 * A signer from PEM text (a CA-issued certificate, its chain, and its key): checks that the key
 * is RSA and belongs to the first certificate, so a mismatch stops the process at start.
 */
export function pdfSignerFromPem(certificatesPem: string, privateKey: KeyObject): PdfSigner {
  const blocks = certificatesPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate found');
  const certificates = blocks.map((pem) => new Uint8Array(new X509Certificate(pem).raw));
  const leaf = new X509Certificate(certificates[0]!);
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error(`the PDF signing key must be RSA, not ${privateKey.asymmetricKeyType}`);
  if (!leaf.checkPrivateKey(privateKey)) throw new Error('the PDF signing key does not belong to the first certificate');
  return { certificates, privateKey: new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' })) };
}

/** The public key of a certificate's subject, for checking what it signed. */
export const certificatePublicKey = (der: Uint8Array): KeyObject => createPublicKey(new X509Certificate(der).publicKey.export({ format: 'pem', type: 'spki' }));

/** True when the certificate carries an RSA key (the only kind this deployment signs with). */
export const isRsaCertificate = (der: Uint8Array): boolean =>
  AsnConvert.parse(der, Certificate).tbsCertificate.subjectPublicKeyInfo.algorithm.algorithm === RSA_ENCRYPTION;

function extension(id: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID: id, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
