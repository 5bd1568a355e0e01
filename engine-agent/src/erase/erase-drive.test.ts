import { describe, expect, it } from 'vitest';
import type { SystemView } from '../adapters/system-view.js';
import { CANCELLED_BY_OPERATOR, eraseDrive, REMOVED_DURING_ERASE, type EraseDeps } from './erase-drive.js';

/** A machine whose bay drive is gone: no device node, nothing in sysfs. Counts what was read. */
function goneDrive() {
  const reads: string[] = [];
  const sys: SystemView = {
    listDir: async (p) => (reads.push(p), []),
    readText: async (p) => void reads.push(p),
    realPath: async (p) => void reads.push(p),
    deviceNumber: async (p) => void reads.push(p),
  };
  const deps = (signal?: AbortSignal): EraseDeps => ({
    run: async (tool) => {
      throw new Error(`${tool} must not run`);
    },
    sleep: async () => undefined,
    sys,
    now: () => new Date('2026-01-01T00:00:00Z'),
    ...(signal ? { signal } : {}),
  });
  return { deps, reads };
}

const aborted = (reason: string) => {
  const c = new AbortController();
  c.abort(reason);
  return c.signal;
};
const request = { device: '/dev/sdq', method: 'overwrite' as const, selected: ['/dev/sdq'] };

describe('erasing a drive whose bay work was stopped', () => {
  it.each([
    [REMOVED_DURING_ERASE, 'removed'],
    [CANCELLED_BY_OPERATOR, 'cancelled'],
  ])('checks the stop before the guard: "%s" ends as %s, nothing written', async (reason, code) => {
    const { deps, reads } = goneDrive();
    const sut = await eraseDrive(request, deps(aborted(reason)));
    expect(sut).toMatchObject({ ok: false, refused: false, failureCode: code, passes: null, commands: [], verification: `${reason}: stopped before anything was written` });
    // The guard never ran, so it could not call the vanished node "not selected".
    expect(reads).toEqual([]);
  });

  it('reports a bay drive whose node vanished before the pull-out reached it as removed, not refused as unselected', async () => {
    const { deps } = goneDrive();
    const sut = await eraseDrive(request, deps(new AbortController().signal));
    expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'removed', commands: [] });
    expect(sut.verification).toMatch(/^removed during erase: /);
  });

  it('still refuses a missing device as the guard says when the erase cannot be pulled (not a station bay)', async () => {
    const { deps } = goneDrive();
    const sut = await eraseDrive(request, deps());
    expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'not_selected' });
    expect(sut.verification).toMatch(/^refused: /);
  });
});
