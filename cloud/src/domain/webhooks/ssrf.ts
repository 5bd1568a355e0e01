import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not connect outside WEBHOOK_ALLOW_HTTP mode: anything that reaches the
 * cloud's own host or network instead of the public internet. Each entry names why.
 */
const REFUSED_V4: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'], // also Alibaba's metadata 100.100.100.200
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // cloud metadata 169.254.169.254, ECS 169.254.170.2
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'], // Oracle metadata 192.0.0.192
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes the broadcast 255.255.255.255
];
const REFUSED_V6: readonly [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'private'], // AWS IPv6 metadata fd00:ec2::254 sits here
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
  ['64:ff9b::', 96, 'NAT64'], // embeds an IPv4 address the gateway would reach for us
];

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

function blockListOf(): { list: BlockList; reasons: { list: BlockList; reason: string }[] } {
  const list = new BlockList();
  const reasons: { list: BlockList; reason: string }[] = [];
  const add = (net: string, prefix: number, family: 'ipv4' | 'ipv6', reason: string) => {
    list.addSubnet(net, prefix, family);
    const one = new BlockList();
    one.addSubnet(net, prefix, family);
    reasons.push({ list: one, reason });
  };
  for (const [net, prefix, reason] of REFUSED_V4) add(net, prefix, 'ipv4', reason);
  for (const [net, prefix, reason] of REFUSED_V6) add(net, prefix, 'ipv6', reason);
  return { list, reasons };
}
const REFUSED = blockListOf();

/** `[::1]` and `fe80::1%eth0` as plain addresses. */
const bare = (address: string) => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/**
 * Why the cloud must not connect to `address`, or null when it may. Non-IP text is refused:
 * the caller checks resolved addresses, never names. IPv4-mapped IPv6 (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`) is judged as the IPv4 address it maps to (BlockList does this).
 */
export function refusedAddressReason(address: string): string | null {
  const ip = bare(address);
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!REFUSED.list.check(ip, type)) return null;
  return REFUSED.reasons.find((r) => r.list.check(ip, type))?.reason ?? 'refused';
}

/** A hostname refused before any DNS: the well-known metadata names and `localhost`. */
export function refusedHostnameReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_HOSTS.has(host)) return 'cloud metadata';
  return isIP(bare(host)) ? refusedAddressReason(host) : null;
}

/** The error a refused destination fails with; its message ends up in the delivery log. */
export class WebhookDestinationRefusedError extends Error {
  readonly code = 'WEBHOOK_DESTINATION_REFUSED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`refused destination ${host}${address !== host ? ` (${address})` : ''}: ${reason} address`);
  }
}
