import { describe, expect, it } from 'vitest';
import { headlineOf } from './validate-intent.js';
import type { PickedValidationOutcome } from '../validate/validate-picked.js';

type Validated = Extract<PickedValidationOutcome, { kind: 'validated' }>;
const outcome = (over: Partial<Validated> & Pick<Validated, 'result' | 'expected'>, read: Partial<Validated['read']> = {}): Validated => ({
  kind: 'validated',
  certificateNumber: 'CW-000001',
  lotId: 'lot_1',
  wipeMethod: 'NIST 800-88 R2 Clear',
  findings: '',
  reason: null,
  reported: true,
  read: { device: '/dev/sdb', bytesRead: 8 << 20, sectorSize: 512, mismatchedBlocks: 0, firstMismatchAt: null, zeroBlocks: 0, findings: [], approved: over.result === 'approved', ...read },
  ...over,
});

// Issue 29 (5): the kiosk says the outcome in plain words first.
describe('the validation outcome in the words the operator reads first', () => {
  it('approved: every sector reads as what the method left', () => {
    expect(headlineOf(outcome({ result: 'approved', expected: 'zeros' }))).toBe('Approved: every sector reads as zeros');
    expect(headlineOf(outcome({ result: 'approved', expected: 'the pattern 0xAA' }))).toBe('Approved: every sector reads as the pattern 0xAA');
    expect(headlineOf(outcome({ result: 'approved', expected: 'high-entropy data (as a cryptographic erase or a random pass leaves)' }))).toBe('Approved: every sector reads as high-entropy data');
  });

  it('rejected: the first file found and where, else where the first unexpected data starts', () => {
    const pdf = outcome({ result: 'rejected', expected: 'zeros' }, { mismatchedBlocks: 1, firstMismatchAt: 5251072, findings: [{ offset: 5251072, what: 'a PDF document' }] });
    expect(headlineOf(pdf)).toBe('Rejected: a PDF document at byte 5,251,072');
    const noise = outcome({ result: 'rejected', expected: 'zeros' }, { mismatchedBlocks: 3, firstMismatchAt: 4096 });
    expect(headlineOf(noise)).toBe('Rejected: data the erasure did not write, first at byte 4,096');
  });
});
