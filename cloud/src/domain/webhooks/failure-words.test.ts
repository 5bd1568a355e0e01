import { describe, expect, it } from 'vitest';
import { describeOutboundFailure, shownAttemptError } from './failure-words.js';

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

describe('shownAttemptError', () => {
  it('passes categories, HTTP statuses and null through', () => {
    for (const text of ['could not connect', 'the target address is not allowed', 'HTTP 500', null]) expect(shownAttemptError(text)).toBe(text);
  });

  it('reads raw detail from rows written before categories as the default category', () => {
    for (const text of ['connect ECONNREFUSED 127.0.0.1:9', 'refused destination vm (127.0.0.1): loopback address', 'HTTP 500 from 10.0.0.1']) {
      expect(shownAttemptError(text)).toBe('could not connect');
    }
  });
});
