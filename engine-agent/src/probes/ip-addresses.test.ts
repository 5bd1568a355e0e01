import { describe, expect, it } from 'vitest';
import { ipAddresses } from './ip-addresses.js';

const info = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null }) as const;

describe('ipAddresses', () => {
  it('lists the machine addresses with their interface, IPv4 first, without loopback or link-local', () => {
    const found = ipAddresses({
      lo: [info('127.0.0.1', 'IPv4', true), { ...info('::1', 'IPv6', true), scopeid: 0 }],
      eth0: [{ ...info('fe80::1', 'IPv6'), scopeid: 2 }, { ...info('2001:db8::5', 'IPv6'), scopeid: 0 }, info('192.168.1.20', 'IPv4')],
    });
    expect(found).toEqual(['192.168.1.20 (eth0)', '2001:db8::5 (eth0)']);
  });

  it('is empty on a machine with no network', () => {
    expect(ipAddresses({ lo: [info('127.0.0.1', 'IPv4', true)] })).toEqual([]);
  });
});
