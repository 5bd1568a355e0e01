import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { describe, expect, it } from 'vitest';
import { certificateSerial, generateSelfSignedPdfSigner } from './pdf-signing-certificate.js';

/** DER's rule for an INTEGER's content: no leading 0x00 unless the next byte needs it (top bit set). */
const minimalPositive = (bytes: Uint8Array) => bytes.length > 0 && bytes[0]! < 0x80 && !(bytes[0] === 0 && bytes.length > 1 && bytes[1]! < 0x80);

describe('the self-signed PDF signer a deployment generates', () => {
  it('gives its certificate a positive serial in minimal DER whatever the random first byte (0x00 and 0x80 included)', () => {
    for (let first = 0; first < 256; first++) {
      const random = Uint8Array.from([first, 0x05, 0xff, 0x10]);
      const serial = certificateSerial(random);
      expect(minimalPositive(serial)).toBe(true);
      expect([...serial.slice(1)]).toEqual([0x05, 0xff, 0x10]);
    }
  });

  it('writes that serial into the certificate as it is', () => {
    const signer = generateSelfSignedPdfSigner({ commonName: 'Erasure Cloud test', now: new Date('2026-11-28T00:00:00Z') });
    const certificate = AsnConvert.parse(signer.certificates[0]!, Certificate);
    const serial = new Uint8Array(certificate.tbsCertificate.serialNumber);
    expect(serial).toHaveLength(16);
    expect(minimalPositive(serial)).toBe(true);
  });
});
