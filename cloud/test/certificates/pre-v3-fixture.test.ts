import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPdf } from '../../src/cli/certificates.js';

// Issue 28 item 1: certificates issued before the signed record named the PDF signer must still
// verify offline; for them the page check is the protection, so it must accept their real pages.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'pre-v3');
const publicKey = readFileSync(join(FIXTURES, 'public-key.txt'), 'utf8').trim();
const offline = (name: string) => verifyPdf(join(FIXTURES, name), { 'public-key': publicKey }, () => Promise.reject(new Error('offline')));

describe('a certificate issued by the code before the record named its PDF signer', () => {
  it('verifies with --public-key alone, as it was issued', async () => {
    expect(await offline('certificate.pdf')).toMatchObject({ valid: true, certificate_number: 'CW-000001', drive_serial: 'S4DYNX0M123456' });
  });

  it('its Erasure Report is refused offline with a reason that says where it can be checked, never called valid', async () => {
    const verdict = await offline('report.pdf');
    expect(verdict).toMatchObject({ valid: false });
    expect(verdict.valid ? '' : verdict.reason).toMatch(/verify URL/);
  });
});
