import { describe, expect, it } from 'vitest';
import { parseTrustedProxies, TrustedProxiesError } from './trusted-proxies.js';

describe('TRUSTED_PROXIES', () => {
  it('trusts the listed addresses and ranges, IPv4 and IPv6, and nothing else', () => {
    const trusted = parseTrustedProxies('10.0.0.5, 192.168.0.0/16 fd00::/8,2001:db8::1');
    for (const address of ['10.0.0.5', '192.168.40.2', 'fd12::7', '2001:db8::1', '::ffff:10.0.0.5', '::FFFF:192.168.1.1']) {
      expect(trusted(address), address).toBe(true);
    }
    for (const address of ['10.0.0.6', '192.169.0.1', 'fe80::1', '2001:db8::2', '::ffff:10.0.0.6', 'unknown', '', '10.0.0.5:443']) {
      expect(trusted(address), address).toBe(false);
    }
  });

  it('trusts nobody when empty', () => {
    expect(parseTrustedProxies('')('127.0.0.1')).toBe(false);
  });

  it.each(['localhost', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/1', '10.0.0/8', '10.0.0.1/', '*'])('refuses %s naming the entry', (entry) => {
    expect(() => parseTrustedProxies(`10.0.0.1, ${entry}`)).toThrow(TrustedProxiesError);
    expect(() => parseTrustedProxies(entry)).toThrow(entry);
  });
});
