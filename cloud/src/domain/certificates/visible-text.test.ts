import { describe, expect, it } from 'vitest';
import { missingVisibleFacts } from './visible-text.js';

const record = {
  certificate_number: 'CW-000001',
  drive: { serial: 'S4DYNX0M123456', model: 'SAMSUNG MZVLB512HAJQ' },
  wipe: { method: 'NIST 800-88 R2 Purge', started_at: '2026-11-22T10:00:00Z', completed_at: '2026-11-22T10:12:30Z' },
  signed_at: '2026-11-22T12:00:00.000Z',
};
const page = `CW-000001\nSAMSUNG\nMZVLB512HAJQ  S4DYNX0M123456\nNIST 800-88 R2 Purge\n2026-11-22 10:00:00 2026-11-22 10:12:30\n2026-11-22 12:00:00 UTC`;

describe('visible text of a certificate page', () => {
  it('agrees when every signed field is printed, values wrapped across lines included', () => {
    expect(missingVisibleFacts(page, record)).toEqual([]);
  });

  it('names the fields a forged page does not show', () => {
    const forged = page.replace('CW-000001', 'CW-999999').replace('S4DYNX0M123456', 'FORGED-SERIAL');
    expect(missingVisibleFacts(forged, record)).toEqual(['certificate number', 'drive serial']);
  });

  it('accepts a long value the layout cut with an ellipsis, but not a short start of it', () => {
    const long = { ...record, wipe: { ...record.wipe, method: 'NIST 800-88 R2 Purge by block erase of every namespace' } };
    expect(missingVisibleFacts(page.replace('NIST 800-88 R2 Purge', 'NIST 800-88 R2 Purge by block…'), long)).toEqual([]);
    expect(missingVisibleFacts(page.replace('NIST 800-88 R2 Purge', 'NIST…'), long)).toEqual(['method']);
  });

  it('agrees with a page that prints the times as German dates', () => {
    const german = page.replace(/2026-11-22 /g, '22.11.2026 ');
    expect(missingVisibleFacts(german, record)).toEqual([]);
  });

  it('names a time printed in no language a page is drawn in', () => {
    const american = page.replace('2026-11-22 10:12:30', '11/22/2026 10:12:30');
    expect(missingVisibleFacts(american, record)).toEqual(['completed at']);
  });
});
