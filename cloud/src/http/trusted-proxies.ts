import { BlockList, isIP } from 'node:net';

/** Tells whether a peer address is one of the configured reverse proxies. */
export type TrustedProxy = (address: string) => boolean;

export class TrustedProxiesError extends Error {}

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * Parses `TRUSTED_PROXIES`: addresses or CIDR ranges, IPv4 or IPv6, separated by commas or
 * spaces (`10.0.0.5, 192.168.0.0/16, fd00::/8`). Anything else is refused with its text, so a
 * typo stops the start instead of silently trusting nothing (or everything). An IPv4 entry also
 * matches its IPv4-mapped IPv6 form (`::ffff:10.0.0.5`), which a dual-stack socket reports.
 */
export function parseTrustedProxies(text: string): TrustedProxy {
  const list = new BlockList();
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefix = bits === undefined ? undefined : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    const maxPrefix = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (prefix !== undefined && !(prefix >= 0 && prefix <= maxPrefix))) {
      throw new TrustedProxiesError(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, prefix, type);
  }
  return (address) => {
    const mapped = MAPPED_IPV4.exec(address)?.[1];
    const family = isIP(mapped ?? address);
    if (family === 0) return false;
    return list.check(mapped ?? address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
