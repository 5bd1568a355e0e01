import { describe, expect, it } from 'vitest';
import type { EraseOutcome } from '../erase/erase-drive.js';
import { JobProgress } from './job-progress.js';
import { progressLine } from './progress-line.js';
import type { Session } from './types.js';

const MiB = 1024 * 1024;
const outcome = (device: string, ok: boolean, failureCode?: string): EraseOutcome => ({ device, method: 'overwrite', ok, refused: false, ...(failureCode ? { failureCode } : {}), startedAt: '', completedAt: '', passes: 1, verification: '', commands: [] });
const erase = (drives: Extract<Session, { phase: 'erase' }>['drives']): Session => ({ phase: 'erase', account: 'A', jobIds: ['j'], drives });

/** A clock the test moves by hand (milliseconds). */
function clock() {
  let t = 0;
  return { now: () => t, advance: (s: number) => void (t += s * 1000) };
}

describe('job progress', () => {
  it('counts an overwrite as its passes plus the read-back: pass 1 of 2 half written at 10 MiB/s leaves 25 s', () => {
    const c = clock();
    const job = new JobProgress([{ device: '/dev/a', sizeBytes: 100 * MiB, firmware: false }], c.now);
    job.onState(erase([{ stage: 'erasing' }]));
    job.update({ device: '/dev/a', stage: 'write', pass: 1, passes: 2, bytesDone: 0, bytesTotal: 100 * MiB });
    c.advance(5);
    const v = job.update({ device: '/dev/a', stage: 'write', pass: 1, passes: 2, bytesDone: 50 * MiB, bytesTotal: 100 * MiB });
    // Left: 50 MiB of pass 1, 100 MiB of pass 2, 100 MiB read-back = 250 MiB at 10 MiB/s.
    expect(v).toMatchObject({ stage: 'write', pass: 1, passes: 2, percent: 50, bytesPerSecond: 10 * MiB, elapsedSeconds: 5, etaSeconds: 25 });
    expect(progressLine(v!, job.job())).toBe('progress /dev/a: pass 1 of 2, writing, 50%, 50.0 MiB of 100.0 MiB, 10.5 MB/s, 5 s elapsed, 25 s left; job: 0 of 1 drives done, 5 s elapsed, 25 s left');
  });

  it("gives a drive command the plan's estimate less the time it has run", () => {
    const c = clock();
    const job = new JobProgress([{ device: '/dev/nvme0n1', sizeBytes: 1e12, firmware: true, expectedSeconds: 120 }], c.now);
    job.onState(erase([{ stage: 'erasing' }]));
    c.advance(30);
    expect(job.view('/dev/nvme0n1')).toMatchObject({ stage: 'firmware', elapsedSeconds: 30, etaSeconds: 90 });
    expect(job.view('/dev/nvme0n1')?.passes).toBeUndefined();
  });

  it('shows a finished drive by its outcome, not at "verifying 100 %, 0 s left", while the job waits for the slowest', () => {
    const c = clock();
    const job = new JobProgress([{ device: '/dev/a', sizeBytes: 10 * MiB, firmware: false }, { device: '/dev/b', sizeBytes: 100 * MiB, firmware: false }], c.now);
    job.onState(erase([{ stage: 'erasing' }, { stage: 'erasing' }]));
    job.update({ device: '/dev/b', stage: 'write', pass: 1, passes: 1, bytesDone: 0, bytesTotal: 100 * MiB });
    c.advance(2);
    job.update({ device: '/dev/b', stage: 'write', pass: 1, passes: 1, bytesDone: 20 * MiB, bytesTotal: 100 * MiB });
    job.update({ device: '/dev/a', stage: 'verify', pass: 0, passes: 1, bytesDone: 10 * MiB, bytesTotal: 10 * MiB, percent: 100 });
    const changed = job.onState(erase([{ stage: 'reporting', outcome: outcome('/dev/a', true), attempt: 1 }, { stage: 'erasing' }]));
    expect(changed).toEqual(['/dev/a']);
    expect(job.view('/dev/a')).toMatchObject({ outcome: 'erased', percent: 100, etaSeconds: 0 });
    // The job's time left is the slow drive's: 80 MiB to write and 100 MiB to read back at 10 MiB/s.
    expect(job.job()).toEqual({ drives: 2, finished: 1, elapsedSeconds: 2, etaSeconds: 18 });
    expect(progressLine(job.view('/dev/a')!, job.job())).toBe('finished /dev/a: erased after 2 s; job: 1 of 2 drives done, 2 s elapsed, 18 s left');
  });

  it('names a cancelled drive cancelled and a failed one failed', () => {
    const job = new JobProgress([{ device: '/dev/a', firmware: false }, { device: '/dev/b', firmware: false }], clock().now);
    job.onState(erase([{ stage: 'reporting', outcome: outcome('/dev/a', false, 'cancelled'), attempt: 1 }, { stage: 'reporting', outcome: outcome('/dev/b', false, 'io_error'), attempt: 1 }]));
    expect(job.views().map((v) => v.outcome)).toEqual(['cancelled', 'failed']);
    expect(job.job()).toMatchObject({ finished: 2, etaSeconds: 0 });
  });
});
