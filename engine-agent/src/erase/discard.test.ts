import { describe, expect, it } from 'vitest';
import type { Runner } from '../adapters/runner.js';
import type { SystemView } from '../adapters/system-view.js';
import { discardAfterOverwrite, kernelAtLeast, SECURE_DISCARD_NOT_USED } from './discard.js';

describe('the kernel release that answers a secure-discard question truthfully (5.19+)', () => {
  it.each([
    ['6.1.0-18-amd64', true],
    ['5.19.0', true],
    ['6.18.44-fc-v657', true],
    ['5.18.19', false],
    ['5.10.0-28-amd64', false],
    ['4.19.0', false],
    ['not a release', false],
  ])('%s: %s', (release, expected) => {
    expect(kernelAtLeast(release, 5, 19)).toBe(expected);
  });
});

describe('the discard after a verified overwrite', () => {
  /** A machine whose disk sdq has the given queue/discard_max_bytes; counts the tools run. */
  const machine = (discardMaxBytes: string | undefined) => {
    const ran: string[] = [];
    const sys: SystemView = {
      listDir: async () => [],
      readText: async (p) => (p === '/sys/block/sdq/queue/discard_max_bytes' ? discardMaxBytes : undefined),
      realPath: async () => undefined,
      deviceNumber: async () => undefined,
    };
    const run: Runner = async (tool, args) => {
      ran.push([tool, ...args].join(' '));
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, outputTruncated: false, durationMs: 1 };
    };
    return { deps: { run, sleep: async () => undefined, sys }, ran };
  };

  it.each([['0\n'], [undefined], ['garbage']])('is not issued to a drive whose discard_max_bytes is %j, and the report says so', async (value) => {
    const { deps, ran } = machine(value);
    const sut = await discardAfterOverwrite(deps, '/dev/sdq', 'sdq');
    expect(sut).toEqual({ done: false, text: 'no discard (TRIM) afterwards: the drive does not support it', commands: [] });
    expect(ran).toEqual([]);
  });

  it('is issued with blkdiscard to a drive that takes discards', async () => {
    const { deps, ran } = machine('2199023255040\n');
    const sut = await discardAfterOverwrite(deps, '/dev/sdq', 'sdq');
    expect(sut).toMatchObject({ done: true, commands: ['blkdiscard /dev/sdq'] });
    expect(ran).toEqual(['blkdiscard /dev/sdq']);
  });

  it('reports a runner that throws as a failed discard, never as a failed erase', async () => {
    const { deps } = machine('4096\n');
    const sut = await discardAfterOverwrite({ ...deps, run: async () => Promise.reject(new Error('runner broke')) }, '/dev/sdq', 'sdq');
    expect(sut).toEqual({ done: false, text: 'the discard (TRIM) afterwards failed (runner broke); the drive is sanitized all the same', commands: ['blkdiscard /dev/sdq'] });
  });

  it('says a secure discard the drive supports was not used as a Purge', async () => {
    const { deps } = machine('0\n');
    expect((await discardAfterOverwrite(deps, '/dev/sdq', 'sdq', true)).text).toBe(`no discard (TRIM) afterwards: the drive does not support it; ${SECURE_DISCARD_NOT_USED}`);
    expect(SECURE_DISCARD_NOT_USED).toMatch(/not used as a Purge/);
  });
});
