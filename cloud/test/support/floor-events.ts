import { request } from 'node:http';
import type { FloorBoard } from '@erasure/shared';

/**
 * Reads a floor board stream (`GET /app/api/floor/events`) as a browser's EventSource would: the
 * `board` events, one parsed board per `next()`, over a real HTTP connection.
 */
export async function readBoardEvents(url: string, cookie: string): Promise<{ next(timeoutMs?: number): Promise<FloorBoard>; close(): void }> {
  const boards: FloorBoard[] = [];
  const waiting: ((board: FloorBoard) => void)[] = [];
  let buffer = '';
  const req = request(url, { headers: { cookie, accept: 'text/event-stream' } });
  const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) throw new Error(`floor events answered ${res.statusCode}`);
  res.setEncoding('utf8');
  res.on('error', () => undefined);
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      if (!lines.includes('event: board')) continue;
      const board = JSON.parse(lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')) as FloorBoard;
      const taker = waiting.shift();
      if (taker) taker(board);
      else boards.push(board);
    }
  });
  return {
    next: (timeoutMs = 10_000) =>
      new Promise<FloorBoard>((resolve, reject) => {
        const ready = boards.shift();
        if (ready) return resolve(ready);
        const timer = setTimeout(() => reject(new Error('no board event arrived')), timeoutMs);
        waiting.push((board) => {
          clearTimeout(timer);
          resolve(board);
        });
      }),
    close: () => req.destroy(),
  };
}
