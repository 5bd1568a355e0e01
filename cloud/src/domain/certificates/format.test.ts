import { describe, expect, it } from 'vitest';
import { formatCapacityGb, formatCapacityWithBytes, formatDriveBytes } from './format.js';

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

describe('exact drive sizes in the Erasure Report', () => {
  it('prints a reported byte count in decimal units with the exact bytes, never binary MiB', () => {
    expect(formatDriveBytes(67108864)).toBe('67.1 MB (67,108,864 bytes)');
    expect(formatDriveBytes(512110190592)).toBe('512.1 GB (512,110,190,592 bytes)');
  });

  it('prints the capacity of a drive under 1 GB as "< 1 GB" with the exact bytes beside it', () => {
    expect(formatCapacityWithBytes(0, 67108864)).toBe('< 1 GB · 67,108,864 bytes');
  });

  it('prints the wire capacity alone when the device reported no byte count', () => {
    expect(formatCapacityWithBytes(512, null)).toBe('512 GB');
  });
});
