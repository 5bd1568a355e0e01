import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { concretePort } from './free-port.js';

describe('concretePort', () => {
  it('keeps a port that was asked for', async () => {
    expect(await concretePort('127.0.0.1', 3000)).toBe(3000);
  });

  it('turns 0 into a concrete port that is free to listen on', async () => {
    const port = await concretePort('127.0.0.1', 0);
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
