import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

/**
 * This machine's IP addresses as a technician would read them off a locked screen
 * (`192.168.1.20 (eth0)`): loopback and IPv6 link-local addresses left out, since neither
 * tells which network the machine is on. IPv4 first.
 */
export function ipAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const found = Object.entries(interfaces).flatMap(([name, infos]) =>
    (infos ?? []).filter((i) => !i.internal && !(i.family === 'IPv6' && i.address.toLowerCase().startsWith('fe80'))).map((i) => ({ text: `${i.address} (${name})`, v4: i.family === 'IPv4' })),
  );
  return [...found.filter((a) => a.v4), ...found.filter((a) => !a.v4)].map((a) => a.text);
}
