import { describe, expect, it } from 'vitest';
import { formatCapacityGb } from './format.js';

describe('capacity as drive labels print it', () => {
  it('prints a drive under 1 GB (whole gigabytes on the wire: 0) as "< 1 GB", never "0 GB"', () => {
    expect(formatCapacityGb(0)).toBe('< 1 GB');
  });

  it('prints gigabytes below 1,000 and terabytes from there, with the gigabytes beside them', () => {
    expect(formatCapacityGb(512)).toBe('512 GB');
    expect(formatCapacityGb(2000)).toBe('2 TB (2,000 GB)');
  });

  it('prints nothing for an unknown capacity', () => {
    expect(formatCapacityGb(null)).toBeNull();
  });
});
