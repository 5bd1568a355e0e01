import { describe, expect, it } from 'vitest';
import { createPresenceQueue } from './presence-queue.js';

describe('a device path\'s presence queue', () => {
  it('runs a path\'s work in order, one at a time, and other paths\' beside it', async () => {
    const sut = createPresenceQueue();
    const log: string[] = [];
    const step = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name} end`);
    };
    await Promise.all([sut.run('/a', false, step('a1', 20)), sut.run('/a', true, step('a2', 0)), sut.run('/b', false, step('b1', 5))]);
    expect(log).toEqual(['a1 start', 'b1 start', 'b1 end', 'a1 end', 'a2 start', 'a2 end']);
  });

  it('tells queued work a removal arrived for its path, from the moment it arrives', async () => {
    const sut = createPresenceQueue();
    const seen: boolean[] = [];
    let pass = () => undefined as void;
    const inserted = sut.run('/a', false, async (current) => {
      seen.push(current());
      await new Promise<void>((r) => (pass = r));
      seen.push(current());
    });
    await new Promise((r) => setTimeout(r, 0));
    const removed = sut.run('/a', true, async (current) => void seen.push(current()));
    pass();
    await Promise.all([inserted, removed]);
    expect(seen).toEqual([true, false, true]);
  });

  it('passes a failure to its caller and still runs the work queued after it', async () => {
    const sut = createPresenceQueue();
    const failed = sut.run('/a', false, async () => Promise.reject(new Error('probe failed')));
    const next = sut.run('/a', true, async () => undefined);
    await expect(failed).rejects.toThrow('probe failed');
    await expect(next).resolves.toBeUndefined();
  });
});
