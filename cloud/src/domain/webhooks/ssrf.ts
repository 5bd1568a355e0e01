import ipaddr from 'ipaddr.js';

/**
 * Where the cloud may send a request to a URL a user typed (webhooks, the wipes grid's Push,
 * sandbox deliveries). `allowHttp` only widens the scheme; loopback (the tests' receivers) needs
 * its own switch, and nothing else internal is ever reachable.
 */
export interface OutboundPolicy {
  /** WEBHOOK_ALLOW_HTTP: `http://` targets are accepted as well as `https://`. */
  readonly allowHttp: boolean;
  /** WEBHOOK_ALLOW_LOOPBACK: 127.0.0.0/8 and ::1 may be connected to (tests, development). */
  readonly allowLoopback: boolean;
}

/**
 * What went wrong with an outbound request, in a category safe to show to the user who typed
 * the URL: the detail (errno, resolved address, certificate names) is enough to map an internal
 * network, so it stays in the log. `too_large` is an answer past the reader's limit (only
 * requests that read the answer, the sandbox's live console, have one).
 */
export type OutboundFailure = 'refused' | 'timeout' | 'tls' | 'connect' | 'too_large';

/** Production: https only, public addresses only. */
export const STRICT_OUTBOUND: OutboundPolicy = Object.freeze({ allowHttp: false, allowLoopback: false });

/** ipaddr.js range names, in words for the delivery log and the 422s. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local', // cloud metadata 169.254.169.254, ECS 169.254.170.2
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT', // also Alibaba's metadata 100.100.100.200
  private: 'private',
  reserved: 'reserved', // IETF assignments (Oracle metadata 192.0.0.192), benchmarking, documentation, 240/4
  uniqueLocal: 'private', // AWS IPv6 metadata fd00:ec2::254 sits here
  deprecatedSiteLocal: 'site-local',
  rfc6052: 'NAT64',
};

const words = (range: string) => RANGE_WORDS[range] ?? range;

/** `[::1]` and `fe80::1%eth0` as plain addresses. */
const bare = (address: string) => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

const v4FromLow32 = (parts: number[]) => {
  const hi = parts[6] ?? 0;
  const lo = parts[7] ?? 0;
  return ipaddr.fromByteArray([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]) as ipaddr.IPv4;
};

/**
 * The IPv4 address an IPv6 address carries, when the network would deliver to that IPv4 host:
 * mapped (`::ffff:a.b.c.d`), translated (`::ffff:0:a.b.c.d`), the deprecated compatible form
 * (`::a.b.c.d`, e.g. `::7f00:1`), well-known NAT64 (`64:ff9b::a.b.c.d`), 6to4 and Teredo.
 */
function embeddedV4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4[] | null {
  const parts = ip.parts;
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4FromLow32(parts)];
    case '6to4':
      return [ipaddr.fromByteArray([parts[1]! >> 8, parts[1]! & 0xff, parts[2]! >> 8, parts[2]! & 0xff]) as ipaddr.IPv4];
    case 'teredo': {
      // Server in bits 32–63; the client's address is stored inverted in the low 32 bits.
      const server = ipaddr.fromByteArray([parts[2]! >> 8, parts[2]! & 0xff, parts[3]! >> 8, parts[3]! & 0xff]) as ipaddr.IPv4;
      const client = v4FromLow32([0, 0, 0, 0, 0, 0, parts[6]! ^ 0xffff, parts[7]! ^ 0xffff]);
      return [server, client];
    }
    case 'rfc6052': {
      // 64:ff9b::/96 (well-known) embeds the IPv4 in the low 32 bits; the local-use 64:ff9b:1::/48
      // belongs to a private translator, so it is judged as private below, not as its payload.
      if (parts[2] !== 0) return null;
      return [v4FromLow32(parts)];
    }
    default:
      // The compatible form ::a.b.c.d (::/96 minus :: and ::1), which ipaddr.js calls unicast.
      if (range === 'unicast' && parts.slice(0, 6).every((p) => p === 0)) return [v4FromLow32(parts)];
      return null;
  }
}

function refusedV4(ip: ipaddr.IPv4, policy: Pick<OutboundPolicy, 'allowLoopback'>): string | null {
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  return words(range);
}

/**
 * Why the cloud must not connect to `address`, or null when it may. Only ordinary global
 * unicast passes (plus loopback when the policy allows it). Non-IP text is refused: the caller
 * checks resolved addresses, never names. IPv6 that embeds an IPv4 address is judged by that
 * IPv4 address, so `::ffff:127.0.0.1`, `::7f00:1` and `2002:a9fe:a9fe::` are what they point at.
 */
export function refusedAddressReason(address: string, policy: Pick<OutboundPolicy, 'allowLoopback'> = STRICT_OUTBOUND): string | null {
  const text = bare(address);
  if (!ipaddr.isValid(text) || !(ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text))) return 'not an IP address';
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return refusedV4(ip as ipaddr.IPv4, policy);
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const carried = embeddedV4(v6, range);
  if (carried) {
    for (const v4 of carried) {
      const reason = refusedV4(v4, policy);
      if (reason) return reason;
    }
    return null;
  }
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  return words(range);
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/**
 * A hostname refused before any DNS: the well-known metadata names, `localhost` (unless loopback
 * is allowed) and literal addresses the guard refuses. A URL's hostname arrives normalised by
 * WHATWG URL parsing, so `2130706433`, `0177.0.0.1`, `0x7f.1` and `127.1` are `127.0.0.1` here.
 */
export function refusedHostnameReason(hostname: string, policy: Pick<OutboundPolicy, 'allowLoopback'> = STRICT_OUTBOUND): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return policy.allowLoopback ? null : 'loopback';
  if (METADATA_HOSTS.has(host)) return 'cloud metadata';
  const literal = bare(host);
  return ipaddr.isValid(literal) ? refusedAddressReason(literal, policy) : null;
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
