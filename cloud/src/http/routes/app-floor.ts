import type { FastifyInstance } from 'fastify';
import type { FloorBus } from '../../adapters/db/floor-bus.js';
import { readFloorMachines, readFloorResults } from '../../adapters/db/floor-machines.js';
import type { SqlDatabase } from '../../adapters/sql/database.js';
import type { Clock } from '../../domain/clock.js';
import { readFloorBoard } from '../../domain/floor/read.js';
import { requireSession, sessionOf } from '../session.js';

/** A board is sent at least this often, so "lost contact" shows without any report arriving. */
export const FLOOR_BOARD_REFRESH_MS = 15_000;

/**
 * The floor view's board (issue 32) for a signed-in user of the account: `GET /app/api/floor`
 * answers it once; `GET /app/api/floor/events` streams it (Server-Sent Events, event `board`,
 * the whole board each time) at once, on every stored report of the account, and every 15 s.
 * Changes that arrive while a board is being read are coalesced into one more read.
 */
export function registerAppFloor(app: FastifyInstance, deps: { db: SqlDatabase; clock: Clock; bus: FloorBus; enabled: boolean }): void {
  // Open streams never go idle: they are ended when the server closes, or it would wait on them.
  const reader = { db: deps.db, clock: deps.clock, store: { readFloorMachines, readFloorResults } };
  const streams = new Set<{ destroy(): void }>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.destroy();
  });
  app.get('/app/api/floor', { preHandler: requireSession }, async (request, reply) => {
    if (!deps.enabled) return reply.code(404).send({ error: 'the floor view is off on this deployment' });
    return readFloorBoard(reader, sessionOf(request).account.id);
  });

  app.get('/app/api/floor/events', { preHandler: requireSession }, async (request, reply) => {
    if (!deps.enabled) return reply.code(404).send({ error: 'the floor view is off on this deployment' });
    const accountId = sessionOf(request).account.id;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    // The browser reconnects on its own after a dropped stream; 2 s keeps a wall screen current.
    res.write('retry: 2000\n\n');
    let closed = false;
    let reading = false;
    let again = false;
    const send = async (): Promise<void> => {
      if (closed) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        const board = await readFloorBoard(reader, accountId);
        if (!closed) res.write(`event: board\ndata: ${JSON.stringify(board)}\n\n`);
      } catch (error) {
        request.log.error({ err: error }, 'floor board could not be read');
      } finally {
        reading = false;
      }
      if (again) {
        again = false;
        await send();
      }
    };
    const unsubscribe = deps.bus.subscribe(accountId, () => void send());
    const timer = setInterval(() => void send(), FLOOR_BOARD_REFRESH_MS);
    // The stream ends with its connection: a closed tab or a dropped network ends the response
    // and frees the socket (a response never ended would keep the connection, and the server, open).
    const socket = request.raw.socket;
    streams.add(socket);
    res.on('close', () => {
      streams.delete(socket);
      closed = true;
      clearInterval(timer);
      unsubscribe();
      socket.destroy();
    });
    await send();
  });
}
