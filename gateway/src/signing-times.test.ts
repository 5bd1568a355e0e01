import { describe, expect, it } from 'vitest';
import { MAX_LEAD_SECONDS, signingTimes } from './signing-times.js';

describe('signing times: no two forwards of the same bytes share a signature', () => {
  const body = (text: string) => Buffer.from(text, 'utf8');

  it('signs the first forward of some bytes at the clock second', () => {
    expect(signingTimes()(body('{"jti":"a"}'), 1000)).toBe(1000);
  });

  it('moves a second forward of the same bytes in the same second to the next second', () => {
    const next = signingTimes();
    expect([1, 2, 3].map(() => next(body('{"jti":"a"}'), 1000))).toEqual([1000, 1001, 1002]);
    // Other bytes are not affected, and the clock catching up starts from it again.
    expect(next(body('{"jti":"b"}'), 1000)).toBe(1000);
    expect(next(body('{"jti":"a"}'), 1005)).toBe(1005);
  });

  it('never moves a timestamp more than the lead limit ahead of the clock', () => {
    const next = signingTimes();
    const times = Array.from({ length: MAX_LEAD_SECONDS + 5 }, () => next(body('{"jti":"a"}'), 1000));
    expect(Math.max(...times)).toBe(1000 + MAX_LEAD_SECONDS);
  });
});
