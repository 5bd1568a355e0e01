import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPdf } from '../../src/cli/certificates.js';

// Issue 31 item 6: the v5 record adds the asset tag; a v4 certificate (customer and lot, no asset
// tag) already in a customer's hands must still regenerate to the page it was issued with.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'v4');
const publicKey = readFileSync(join(FIXTURES, 'public-key.txt'), 'utf8').trim();
const offline = (name: string) => verifyPdf(join(FIXTURES, name), { 'public-key': publicKey }, () => Promise.reject(new Error('offline')));

describe('a certificate issued with the v4 record, before the asset tag', () => {
  it('verifies with --public-key alone, as it was issued', async () => {
    expect(await offline('certificate.pdf')).toMatchObject({ valid: true, certificate_number: 'CW-000004', drive_serial: 'S4ENNX0N123456' });
  });

  it('its Erasure Report verifies too', async () => {
    expect(await offline('report.pdf')).toMatchObject({ valid: true, certificate_number: 'CW-000004' });
  });
});
