import { describe, expect, it } from 'vitest';
import { describeOutboundFailure } from './failure-words.js';

describe('describeOutboundFailure', () => {
  it.each([
    ['refused', 'the target address is not allowed'],
    ['timeout', 'timed out'],
    ['tls', 'TLS error'],
    ['connect', 'could not connect'],
    ['too_large', 'the answer was too large'],
  ] as const)('names the %s category in plain words', (failure, words) => {
    expect(describeOutboundFailure(failure)).toBe(words);
  });

  it('reads a failure without a category as "could not connect"', () => {
    expect(describeOutboundFailure(undefined)).toBe('could not connect');
  });
});
