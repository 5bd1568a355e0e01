import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver that holds each request open for `holdMs` before answering `status()`, and
 * records the most requests it ever had open at once: with one-at-a-time delivery that stays 1
 * however long each answer takes.
 */
export async function startSlowReceiver(status: (index: number) => number, holdMs = 30) {
  const bodies: string[] = [];
  let open = 0;
  let maxOpen = 0;
  const server = createServer((request, response) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = bodies.length;
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      setTimeout(() => {
        open -= 1;
        response.writeHead(status(index)).end();
      }, holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** Parsed bodies, in arrival order. */
    received: () => bodies.map((b) => JSON.parse(b) as Record<string, unknown>),
    maxOpen: () => maxOpen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
