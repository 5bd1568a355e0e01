import { describe, expect, it } from 'vitest';
import { mintTermsFrom } from './mint-terms.js';

const defaults = { quotaLimit: 100, lifetimeDays: 90, source: 'default' } as const;

describe('mint-device-token terms (issue 28 item 4)', () => {
  it('without --quota and --expires-in, takes the terms in force: 100 check-ins, 90 days by default', () => {
    expect(mintTermsFrom({}, defaults)).toEqual({ ok: true, quotaLimit: 100, lifetimeSeconds: 90 * 86_400 });
  });

  it("takes an account's own terms, unlimited included when the account chose it", () => {
    expect(mintTermsFrom({}, { quotaLimit: null, lifetimeDays: 30, source: 'account' })).toEqual({ ok: true, quotaLimit: null, lifetimeSeconds: 30 * 86_400 });
  });

  it('is unlimited only when asked for by name: --quota unlimited', () => {
    expect(mintTermsFrom({ quota: 'unlimited' }, defaults)).toEqual({ ok: true, quotaLimit: null, lifetimeSeconds: 90 * 86_400 });
  });

  it('a given --quota N and --expires-in win over the terms', () => {
    expect(mintTermsFrom({ quota: '5', 'expires-in': '12h' }, defaults)).toEqual({ ok: true, quotaLimit: 5, lifetimeSeconds: 12 * 3600 });
    expect(mintTermsFrom({ quota: '0' }, defaults)).toMatchObject({ quotaLimit: 0 });
  });

  it('refuses a --quota that is neither a whole number nor "unlimited", and a bare --quota', () => {
    for (const quota of ['-1', '1.5', 'lots', '', true]) {
      expect(mintTermsFrom({ quota }, defaults)).toEqual({ ok: false, error: '--quota must be a non-negative integer or "unlimited"' });
    }
    expect(mintTermsFrom({ 'expires-in': 'soon' }, defaults)).toEqual({ ok: false, error: '--expires-in must look like 90d, 12h, 30m or 1y' });
  });
});
