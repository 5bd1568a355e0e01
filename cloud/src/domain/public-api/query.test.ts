import { describe, expect, it } from 'vitest';
import { checkAccountFilter, pageEnvelope, parsePage, parseSince } from './query.js';

describe('public API query parsing (spec 4.3)', () => {
  it.each([
    ['2026-11-22T13:07:12Z', '2026-11-22T13:07:12.000Z'],
    ['2026-11-22T13:07:12.5Z', '2026-11-22T13:07:12.500Z'],
    ['2026-11-22T13:07:12.123456Z', '2026-11-22T13:07:12.124Z'],
    ['2026-11-22T15:07:12+02:00', '2026-11-22T13:07:12.000Z'],
    ['2026-11-22T15:07:12+0200', '2026-11-22T13:07:12.000Z'],
    ['2026-11-22T08:07-05', '2026-11-22T13:07:00.000Z'],
    ['2026-11-22T13:07:12', '2026-11-22T13:07:12.000Z'],
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
  ])('reads since=%s as %s', (input, iso) => {
    expect(parseSince(input)).toEqual({ ok: true, value: iso });
  });

  it.each(['', 'now', '2026-11-22T13:07:12ZZ', '2026-02-29', '2026-11-31', '2026-11-22T24:00:00Z', '22/11/2026', '1763816832'])(
    'refuses since=%s with 422 naming ISO 8601',
    (input) => {
      expect(parseSince(input)).toMatchObject({ ok: false, status: 422, error: expect.stringMatching(/^since .*ISO 8601.*2026-11-22T13:07:12Z/) });
    },
  );

  it('reads page as a positive integer, 1 by default', () => {
    expect(parsePage(undefined)).toEqual({ ok: true, value: 1 });
    expect(parsePage('3')).toEqual({ ok: true, value: 3 });
    expect(parsePage('0')).toMatchObject({ ok: false, status: 422 });
    expect(parsePage('1e3')).toMatchObject({ ok: false });
  });

  it('passes only the key’s own account, by either id form', () => {
    const account = { publicId: 'acct_a', numericId: 7 };
    expect(checkAccountFilter(undefined, account).ok).toBe(true);
    expect(checkAccountFilter('acct_a', account).ok).toBe(true);
    expect(checkAccountFilter('7', account).ok).toBe(true);
    expect(checkAccountFilter('8', account)).toEqual({ ok: false, status: 404, error: 'Account not found' });
    expect(checkAccountFilter('07', account).ok).toBe(false);
  });

  it('counts at least one page', () => {
    expect(pageEnvelope(1, 0)).toEqual({ page: 1, pages: 1, count: 0 });
    expect(pageEnvelope(2, 250)).toEqual({ page: 2, pages: 3, count: 250 });
    expect(pageEnvelope(1, 200)).toEqual({ page: 1, pages: 2, count: 200 });
  });
});
