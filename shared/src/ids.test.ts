import { describe, expect, it } from 'vitest';
import { certificateNumber, isId, isRecordId, newId, recordIdAt } from './ids.js';

describe('ids', () => {
  it('mints prefixed opaque ids that are not sequences', () => {
    const ids = Array.from({ length: 1000 }, () => newId('asset'));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(isId('asset', id)).toBe(true);
    expect(isId('acct', ids[0])).toBe(false);
  });

  it('formats the boot record id as CW-YYYYMMDD-HHMMSS in UTC', () => {
    const sut = recordIdAt(new Date('2026-03-04T05:06:07.890Z'));
    expect(sut).toBe('CW-20260304-050607');
    expect(isRecordId(sut)).toBe(true);
    expect(isRecordId('CW-2026034-050607')).toBe(false);
  });

  it('pads certificate numbers to six digits', () => {
    expect(certificateNumber(1)).toBe('CW-000001');
    expect(certificateNumber(1234567)).toBe('CW-1234567');
    expect(() => certificateNumber(0)).toThrow();
  });
});
