import { describe, expect, it } from 'vitest';
import type { ValidationDeskView } from '@erasure/shared/contracts';
import { validateRows } from './validate-view.js';

const desk = (over: Partial<ValidationDeskView> = {}): ValidationDeskView => ({
  drives: [
    { device: '/dev/sdb', model: 'SAMSUNG SSD', serial: 'S1', size_bytes: 512e9, status: 'picked', certificate_number: 'CW-000007', note: 'Erased with DoD 5220.22-M (3 passes) (certificate CW-000007).' },
    { device: '/dev/sdc', serial: 'S2', status: 'not_picked', note: 'Drive S2 was erased (certificate CW-000008) but was not picked for validation.' },
    { device: '/dev/sdd', serial: 'S3', status: 'validated', validation: 'rejected', certificate_number: 'CW-000009', note: 'Its validation is on record.' },
    { device: '/dev/sda', status: 'refused', note: 'This is the medium this machine started from; it is never read here.' },
  ],
  ...over,
});

// Issue 29 (5): the Validate screen says per drive whether the erasure service picked it.
describe('the Validate screen’s rows', () => {
  it('says per drive whether it was picked, with its certificate, and offers the read of a picked drive only', () => {
    const rows = validateRows(desk());
    expect(rows.map((r) => [r.device, r.verdict, r.canRead])).toEqual([
      ['/dev/sdb', 'Picked for validation', true],
      ['/dev/sdc', 'Not picked', false],
      ['/dev/sdd', 'Validated: rejected', false],
      ['/dev/sda', 'Not read here', false],
    ]);
    expect(rows[0]).toMatchObject({ title: 'SAMSUNG SSD', facts: '512 GB · serial S1 · certificate CW-000007', tone: 'info' });
    expect(rows[2]!.tone).toBe('bad');
    expect(rows[1]!.note).toContain('was not picked');
  });

  it('offers no read while another drive is being read', () => {
    const rows = validateRows(desk({ reading: { device: '/dev/sdd', bytes_done: 1, bytes_total: 2, percent: 50 } }));
    expect(rows.some((r) => r.canRead)).toBe(false);
  });
});
