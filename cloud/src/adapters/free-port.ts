import { createServer } from 'node:net';

/**
 * The port a server should listen on: `port` itself, or for `0` a free port picked now. The
 * cloud prints links (certificate verify URLs, QR codes, webhook URLs) built from its base URL
 * before it listens, so "any free port" has to be a concrete port by then. Another process could
 * take it in between; then listen fails loudly with EADDRINUSE rather than print dead links.
 */
export async function concretePort(host: string, port: number): Promise<number> {
  if (port !== 0) return port;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error(`could not pick a free port on ${host}`);
  return address.port;
}
