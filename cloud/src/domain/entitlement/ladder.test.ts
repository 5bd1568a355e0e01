import { describe, expect, it } from 'vitest';
import { accountMatches, decide, quotaRemaining, type TokenStanding } from './ladder.js';

const healthy: TokenStanding = { status: 'active', accountActive: true, quotaLimit: null, useCount: 0 };

describe('decision ladder', () => {
  it.each([
    ['disabled outranks everything', { status: 'disabled', accountActive: false, quotaLimit: 0, useCount: 9 }, 'disabled'],
    ['revoked before suspended and account state', { status: 'revoked', accountActive: false, quotaLimit: 0, useCount: 1 }, 'revoked'],
    ['suspended before account state', { status: 'suspended', accountActive: false, quotaLimit: 0, useCount: 1 }, 'suspended'],
    ['account_inactive before quota', { status: 'active', accountActive: false, quotaLimit: 0, useCount: 1 }, 'account_inactive'],
    ['quota_exceeded when use_count reaches quota_limit', { status: 'active', accountActive: true, quotaLimit: 3, useCount: 3 }, 'quota_exceeded'],
  ] as const)('%s', (_name, standing, reason) => {
    expect(decide(standing)).toEqual({ allow: false, reason });
  });

  it('allows an active token of an active account with quota left', () => {
    expect(decide({ ...healthy, quotaLimit: 3, useCount: 2 })).toEqual({ allow: true });
  });

  it('allows an unlimited token whatever its use_count', () => {
    expect(decide({ ...healthy, useCount: 1_000_000 })).toEqual({ allow: true });
  });

  it('reports quota_remaining as null when unlimited and never below zero', () => {
    expect(quotaRemaining({ quotaLimit: null, useCount: 5 })).toBeNull();
    expect(quotaRemaining({ quotaLimit: 10, useCount: 4 })).toBe(6);
    expect(quotaRemaining({ quotaLimit: 2, useCount: 5 })).toBe(0);
  });

  it('matches account_id by acct_ id or numeric id and refuses any other', () => {
    const account = { publicId: 'acct_abc', numericId: 7 };
    expect(accountMatches(undefined, account)).toBe(true);
    expect(accountMatches('acct_abc', account)).toBe(true);
    expect(accountMatches('7', account)).toBe(true);
    expect(accountMatches('acct_other', account)).toBe(false);
    expect(accountMatches('8', account)).toBe(false);
  });
});
