import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPdf } from '../../src/cli/certificates.js';

// Issue 29: the v4 record renders the Rev. 2 / IEEE 2883 layout; a v3 certificate already in a
// customer's hands must still regenerate to the page it was issued with, and so verify.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'v3');
const publicKey = readFileSync(join(FIXTURES, 'public-key.txt'), 'utf8').trim();
const offline = (name: string) => verifyPdf(join(FIXTURES, name), { 'public-key': publicKey }, () => Promise.reject(new Error('offline')));

describe('a certificate issued with the v3 record, before the Rev. 2 wording', () => {
  it('verifies with --public-key alone, as it was issued', async () => {
    expect(await offline('certificate.pdf')).toMatchObject({ valid: true, certificate_number: 'CW-000003', drive_serial: 'S4ENNX0N123456' });
  });

  it('its Erasure Report, signed by the PDF signer its record names, verifies too', async () => {
    expect(await offline('report.pdf')).toMatchObject({ valid: true, certificate_number: 'CW-000003' });
  });
});
