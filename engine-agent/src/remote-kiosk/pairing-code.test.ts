import { describe, expect, it } from 'vitest';
import { generatePairingCode, normalizePairingCode, pairingCodeMatches, pairingCookieMatches, pairingCookieValue } from './pairing-code.js';

describe('the remote kiosk pairing code', () => {
  it('is 20 characters in groups of four, without the look-alike 0, O, 1 and I', () => {
    for (let i = 0; i < 50; i++) expect(generatePairingCode()).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){4}$/);
  });

  it('is a new code each time', () => {
    expect(new Set(Array.from({ length: 20 }, () => generatePairingCode())).size).toBe(20);
  });

  it('matches the code as typed, whatever its case, spaces and dashes', () => {
    expect(normalizePairingCode(' k7qm-2wxr 9tnb ')).toBe('K7QM2WXR9TNB');
    expect(pairingCodeMatches('K7QM-2WXR-9TNB-4HJD-ABCD', 'k7qm2wxr9tnb4hjdabcd')).toBe(true);
  });

  it('refuses another code, a prefix of the code, an empty one and none', () => {
    const code = 'K7QM-2WXR-9TNB-4HJD-ABCD';
    for (const offered of ['K7QM-2WXR-9TNB-4HJD-ABCE', 'K7QM-2WXR-9TNB-4HJD', '', '---', undefined]) expect(pairingCodeMatches(code, offered)).toBe(false);
  });

  it("gives a cookie that is not the code and that only that code's cookie matches", () => {
    const cookie = pairingCookieValue('K7QM-2WXR-9TNB-4HJD-ABCD');
    expect(cookie).not.toContain('K7QM');
    expect(pairingCookieMatches('k7qm2wxr9tnb4hjdabcd', cookie)).toBe(true);
    expect(pairingCookieMatches('K7QM-2WXR-9TNB-4HJD-ABCE', cookie)).toBe(false);
    expect(pairingCookieMatches('K7QM-2WXR-9TNB-4HJD-ABCD', '')).toBe(false);
    expect(pairingCookieMatches('K7QM-2WXR-9TNB-4HJD-ABCD', undefined)).toBe(false);
  });
});
