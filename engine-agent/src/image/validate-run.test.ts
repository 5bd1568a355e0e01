import { describe, expect, it } from 'vitest';
import { driveValidationOf } from './validate-run.js';

const read = { device: '/dev/sdb', bytesRead: 10 * 1024 * 1024, sectorSize: 512, mismatchedBlocks: 0, firstMismatchAt: null, zeroBlocks: 0, findings: [], approved: true };
const validated = { kind: 'validated', certificateNumber: 'CW-000101', lotId: 'lot-1', wipeMethod: 'NIST 800-88 R2 Clear', expected: 'zeros', findings: '…', reported: true } as const;

describe('the validate run says each outcome in plain words', () => {
  it('an approved drive: every sector holds what its method left, and the cloud recorded it', () => {
    expect(driveValidationOf({ ...validated, result: 'approved', read, reason: null })).toEqual({
      kind: 'approved',
      certificateNumber: 'CW-000101',
      words: 'every one of 20,480 sectors holds zeros, as NIST 800-88 R2 Clear left it; recorded by the cloud',
    });
  });

  it('a rejected drive: what was found; a report the cloud did not take says so', () => {
    const rejected = { ...validated, result: 'rejected', read: { ...read, approved: false, mismatchedBlocks: 1 }, reason: 'found a PDF document at byte 9,437,184', reported: false, reportError: 'The validation was not recorded: gateway unreachable' } as const;
    expect(driveValidationOf(rejected)).toEqual({ kind: 'rejected', certificateNumber: 'CW-000101', words: 'found a PDF document at byte 9,437,184; NOT recorded: The validation was not recorded: gateway unreachable' });
  });

  it('fails closed: no answer from the cloud means not read, and the line says so', () => {
    expect(driveValidationOf({ kind: 'unavailable', reason: 'Could not ask the cloud whether this drive was picked: gateway unreachable' })).toEqual({
      kind: 'not-picked',
      reason: 'Could not ask the cloud whether this drive was picked: gateway unreachable; nothing was read',
    });
    expect(driveValidationOf({ kind: 'not_picked', reason: 'This drive was erased and certified, but not picked.' })).toEqual({ kind: 'not-picked', reason: 'This drive was erased and certified, but not picked.' });
  });
});
