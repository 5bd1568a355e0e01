import { describe, expect, it } from 'vitest';
import { waitForAgent } from './wait-agent.js';

const url = new URL('http://127.0.0.1:7070/');

describe('waitForAgent', () => {
  it('returns true as soon as the agent answers, sleeping between failures', async () => {
    let calls = 0;
    const sleeps: number[] = [];
    const sut = await waitForAgent(url, { attempts: 5, delayMs: 10 }, {
      fetch: async () => {
        calls++;
        if (calls < 3) throw new Error('ECONNREFUSED');
        return { status: 404 };
      },
      sleep: async (ms) => void sleeps.push(ms),
      log: () => undefined,
    });
    expect(sut).toBe(true);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([10, 10]);
  });

  it('gives up after the attempt budget and says so in the log', async () => {
    const lines: string[] = [];
    const sut = await waitForAgent(url, { attempts: 3, delayMs: 0 }, {
      fetch: async () => Promise.reject(new Error('ECONNREFUSED')),
      sleep: async () => undefined,
      log: (l) => lines.push(l),
    });
    expect(sut).toBe(false);
    expect(lines[0]).toMatch(/\(attempt 1 of 3\): ECONNREFUSED/);
  });
});
