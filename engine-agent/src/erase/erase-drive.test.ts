import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../adapters/runner.js';
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

/**
 * A machine where `node` (default /dev/sdq) is a plain whole disk the guard lets through (sdq,
 * 8:16, nothing mounted or held) and whose kernel disk sequence number is `diskseq`: a new disk
 * under the same name gets a new one. `node` may be a file standing in for the disk's contents.
 */
function seatedDisk(diskseq: string, node = '/dev/sdq') {
  const files: Record<string, string> = { '/sys/class/block/sdq/dev': '8:16\n', '/sys/class/block/sdq/diskseq': `${diskseq}\n` };
  const links: Record<string, string> = { [node]: '/dev/sdq', '/sys/dev/block/8:16': '/sys/devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sdq' };
  const sys: SystemView = {
    listDir: async () => [],
    readText: async (p) => files[p],
    realPath: async (p) => links[p],
    deviceNumber: async (p) => (p === node ? '8:16' : undefined),
  };
  return sys;
}

const work = mkdtempSync(join(tmpdir(), 'erase-drive-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const DISK_BYTES = 2 * 1024 * 1024;

/**
 * The disk's contents as a file (random, as a used disk) and a firmware tool `tool` that answers
 * success and, when `honest`, really erases it (zeros): the erase proves the firmware's word with
 * markers written to and read from this file.
 */
function diskFile(tool: string, honest = true) {
  const path = join(work, `sdq-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, Buffer.alloc(DISK_BYTES, 0xa5));
  const commands: string[] = [];
  const run = async (t: string) => {
    commands.push(t);
    if (t === tool && honest) writeFileSync(path, Buffer.alloc(DISK_BYTES));
    return ran();
  };
  return { path, run, commands };
}

const ran = (exitCode = 0): ToolResult => ({ exitCode, stdout: '', stderr: '', timedOut: false, outputTruncated: false, durationMs: 1 });
const BOUND = { device: '/dev/sdq', devT: '8:16', diskseq: '42' };

describe('erasing a station bay\'s drive, bound to the disk its bay probed', () => {
  it.each(['overwrite', 'scsi-sanitize-crypto'] as const)('%s: stops as "removed during erase", writing nothing, once /dev/sdq names another disk', async (method) => {
    const commands: string[] = [];
    const sut = await eraseDrive(
      { device: '/dev/sdq', method, selected: ['/dev/sdq'] },
      { run: async (tool) => (commands.push(tool), ran()), sleep: async () => undefined, sys: seatedDisk('43'), now: () => new Date('2026-01-01T00:00:00Z'), signal: new AbortController().signal, boundTo: BOUND },
    );
    expect(sut).toMatchObject({ ok: false, refused: true, failureCode: 'removed', commands: [], verification: 'removed during erase: /dev/sdq is another disk now (diskseq 43, was 42); nothing was written' });
    expect(commands).toEqual([]);
  });

  it('goes ahead with the disk it was bound to', async () => {
    const disk = diskFile('sg_sanitize');
    const sut = await eraseDrive(
      { device: disk.path, method: 'scsi-sanitize-crypto', selected: [disk.path] },
      { run: disk.run, sleep: async () => undefined, sys: seatedDisk('42', disk.path), now: () => new Date('2026-01-01T00:00:00Z'), boundTo: { ...BOUND, device: disk.path } },
    );
    expect(sut).toMatchObject({ ok: true, method: 'scsi-sanitize-crypto' });
    expect(sut.commands.at(-1)).toBe(`sg_sanitize --crypto --quick ${disk.path}`);
  });
});

describe('a firmware erase and the operator\'s cancel', () => {
  /**
   * sg_sanitize runs; `during` is what happens to the bay while it does (the drive carries the
   * sanitize out either way, unless its firmware lies: `honest` false).
   */
  const sanitizeWith = async (during: (c: AbortController) => void, exitCode = 0, honest = true) => {
    const stop = new AbortController();
    const disk = diskFile('sg_sanitize', honest);
    const sut = await eraseDrive(
      { device: disk.path, method: 'scsi-sanitize-crypto', selected: [disk.path] },
      {
        run: async (tool) => (during(stop), disk.run(tool).then(() => ran(exitCode))),
        sleep: async () => undefined,
        sys: seatedDisk('42', disk.path),
        now: () => new Date('2026-01-01T00:00:00Z'),
        signal: stop.signal,
      },
    );
    return { sut, disk };
  };

  it('reports a sanitize that completed after a cancel as completed: it cannot be stopped, the drive was purged', async () => {
    const { sut, disk } = await sanitizeWith((c) => c.abort(CANCELLED_BY_OPERATOR));
    expect(sut).toMatchObject({ ok: true, refused: false });
    expect(sut.commands.at(-1)).toBe(`sg_sanitize --crypto --quick ${disk.path}`);
    expect(sut.failureCode).toBeUndefined();
    expect(sut.verification).toBe(
      '256 of 256 test patterns written before the erase were gone after it (all read back as a uniform fill); SCSI Sanitize, Cryptographic Erase: SCSI SANITIZE (crypto) completed; cancelled by the operator after the firmware erase had started, which cannot be stopped',
    );
  });

  it('does not start an overwrite for a cancelled drive whose sanitize its markers disproved: it is reported cancelled and not erased', async () => {
    const { sut, disk } = await sanitizeWith((c) => c.abort(CANCELLED_BY_OPERATOR), 0, false);
    expect(sut).toMatchObject({ ok: false, failureCode: 'cancelled', method: 'scsi-sanitize-crypto' });
    expect(sut.verification).toMatch(/^The firmware erase failed and the drive is NOT erased: .*256 of 256 test patterns written before the erase were still there after it.*cancelled by the operator, so no overwrite followed$/);
    expect(readFileSync(disk.path).some((b) => b !== 0)).toBe(true);
  });

  it('reports a sanitize that failed after a cancel as the failure it was, not as cancelled', async () => {
    const { sut } = await sanitizeWith((c) => c.abort(CANCELLED_BY_OPERATOR), 1);
    expect(sut).toMatchObject({ ok: false, failureCode: 'erase_failed' });
  });

  it('still fails a drive pulled while its sanitize ran as "removed during erase"', async () => {
    const { sut } = await sanitizeWith((c) => c.abort(REMOVED_DURING_ERASE));
    expect(sut).toMatchObject({ ok: false, failureCode: 'removed' });
  });
});
