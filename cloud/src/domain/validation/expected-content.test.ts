import { describe, expect, it } from 'vitest';
import { METHOD_CATALOGUE } from '@erasure/shared';
import { expectedContentOf } from './expected-content.js';

// Issue 29 (5): a validation reads every sector against what the method left.
describe('what a method left, for the validation read', () => {
  it.each([
    ['NIST 800-88 R2 Clear', 'Overwrite, single pass with verification', { kind: 'zeros' }],
    ['NIST 800-88 R2 Purge', 'NVMe Sanitize, Crypto Erase', { kind: 'random' }],
    ['NIST 800-88 R2 Purge', 'SCSI Sanitize, Cryptographic Erase', { kind: 'random' }],
    ['NIST 800-88 R2 Purge', 'NVMe Sanitize, Block Erase', { kind: 'zeros' }],
    ['DoD 5220.22-M (3 passes)', 'IEEE 2883 Clear', { kind: 'random' }],
    ['VSITR (7 passes)', 'IEEE 2883 Clear', { kind: 'pattern', hex: 'aa' }],
    ['HMG IS5 Baseline', 'IEEE 2883 Clear', { kind: 'zeros' }],
    ['US Air Force AFSSI-5020 (3 passes)', 'IEEE 2883 Clear', { kind: 'pattern', hex: 'ff' }],
    ['PRNG (1 pass)', 'IEEE 2883 Clear', { kind: 'random' }],
    ['BSI-GS', 'IEEE 2883 Clear, overwrite …, then ATA Sanitize, Crypto Scramble', { kind: 'random' }],
    ['BSI-GS', 'IEEE 2883 Clear, overwrite …, then ATA Sanitize, Block Erase', { kind: 'zeros' }],
  ])('%s (%s) leaves %j', (method, technique, expected) => {
    expect(expectedContentOf(method, technique)).toEqual(expected);
  });

  it('gives every method of the catalogue an expectation', () => {
    for (const method of METHOD_CATALOGUE) expect(expectedContentOf(method.name, ''), method.name).toBeDefined();
  });

  it('knows nothing of a method outside the catalogue, so nobody validates against a guess', () => {
    expect(expectedContentOf('Magic wipe', 'Overwrite')).toBeUndefined();
    expect(expectedContentOf(null, null)).toBeUndefined();
  });
});
