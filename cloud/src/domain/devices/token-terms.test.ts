import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOKEN_DEFAULTS, parseTokenTerms, tokenTermsOf } from './token-terms.js';

describe('device token terms', () => {
  it('default to a finite quota and lifetime when the account chose none', () => {
    expect(tokenTermsOf(undefined, BUILT_IN_TOKEN_DEFAULTS)).toEqual({ quotaLimit: 100, lifetimeDays: 90, source: 'default' });
  });

  it('are the account’s choice once its admins made one, unlimited included', () => {
    expect(tokenTermsOf({ quota_limit: null, lifetime_days: 30 }, BUILT_IN_TOKEN_DEFAULTS)).toEqual({ quotaLimit: null, lifetimeDays: 30, source: 'account' });
  });

  it('accept a whole quota in bounds, or "unlimited" spelled out', () => {
    expect(parseTokenTerms({ quota: 25, lifetime_days: 30 })).toEqual({ ok: true, quotaLimit: 25, lifetimeDays: 30 });
    expect(parseTokenTerms({ quota: 'unlimited', lifetime_days: 365 })).toEqual({ ok: true, quotaLimit: null, lifetimeDays: 365 });
  });

  it.each([[null], [undefined], [0], [-1], [2.5], ['25'], [1_000_001], ['Unlimited']])('refuse quota %s rather than read it as unlimited', (quota) => {
    expect(parseTokenTerms({ quota, lifetime_days: 30 })).toMatchObject({ ok: false, error: expect.stringMatching(/^quota must be/) });
  });

  it.each([[0], [366], [null], ['30'], [1.5]])('refuse lifetime_days %s', (lifetime) => {
    expect(parseTokenTerms({ quota: 10, lifetime_days: lifetime })).toMatchObject({ ok: false, error: expect.stringMatching(/^lifetime_days must be/) });
  });
});
