import { describe, expect, it } from 'vitest';
import { CANCELLED_BY_OPERATOR, canCancel, canConfirm, EMPTY_BAY, REMOVED_DURING_ERASE, stepBay, type BayEvent, type BayState, type DriveFacts } from './bay-machine.js';

const drive: DriveFacts = { device: '/dev/sdb', model: 'ST2000DM008', serial: 'ZFL0ABCD', sizeBytes: 2e12, health: 'passed' };
const other: DriveFacts = { device: '/dev/sdc', model: 'WDC WD20EZRZ', serial: 'WD-WCC4M1', sizeBytes: 2e12, health: 'unknown' };
const run = (events: BayEvent[], from: BayState = EMPTY_BAY) => events.reduce(stepBay, from);

const detected = run([{ type: 'inserted', drive }]);
const checkingIn = run([{ type: 'auto_start' }], detected);
const erasing = run([{ type: 'checkin_allowed', jobId: 'job-1' }], checkingIn);
const verifying = run([{ type: 'verify_started' }], erasing);
const sanitizing = run([{ type: 'checkin_allowed', jobId: 'job-2', firmware: true }], checkingIn);
const passed = run([{ type: 'erase_passed' }], verifying);

describe('a bay of the hotswap station', () => {
  it('detects an inserted drive with its model, serial, size and SMART health', () => {
    expect(detected).toEqual({ state: 'detected', drive });
  });

  it('starts at once under the auto-start policy: detected, then checking in', () => {
    expect(checkingIn).toEqual({ state: 'checking_in', drive });
  });

  it('waits for the operator under the confirm policy, and can be put back', () => {
    const waiting = run([{ type: 'await_confirmation' }], detected);
    expect(waiting).toEqual({ state: 'awaiting_confirmation', drive });
    expect(stepBay(waiting, { type: 'confirm' })).toEqual({ state: 'checking_in', drive });
    expect(stepBay(waiting, { type: 'cancelled' })).toEqual({ state: 'detected', drive });
  });

  it('erases a drive the operator left alone once they confirm it after all', () => {
    const left = stepBay(run([{ type: 'await_confirmation' }], detected), { type: 'cancelled' });
    expect(canConfirm(left)).toBe(true);
    expect(stepBay(left, { type: 'confirm' })).toEqual({ state: 'checking_in', drive });
    expect(canConfirm(checkingIn)).toBe(false);
    expect(canConfirm(EMPTY_BAY)).toBe(false);
  });

  it('erases once the check-in is allowed, carrying the job id it issued', () => {
    expect(erasing).toEqual({ state: 'erasing', drive, jobId: 'job-1' });
  });

  it('leaves the drive untouched and shows the reason when the check-in is denied', () => {
    expect(stepBay(checkingIn, { type: 'checkin_denied', reason: 'quota_exceeded' })).toEqual({ state: 'failed', drive, reason: 'quota_exceeded', untouched: true });
  });

  it('keeps the drive waiting, untouched, while the erasure service does not answer, and erases once a later check-in is allowed', () => {
    const wait = { reason: 'gateway unreachable: fetch failed', attempts: 2, since: '2026-11-29T01:00:00.000Z', retryAt: '2026-11-29T01:00:15.000Z' };
    const waiting = stepBay(checkingIn, { type: 'cloud_unreachable', wait });
    expect(waiting).toEqual({ state: 'checking_in', drive, waiting: wait });
    expect(canCancel(waiting)).toBe(true);
    expect(stepBay(waiting, { type: 'checkin_allowed', jobId: 'job-9' })).toEqual({ state: 'erasing', drive, jobId: 'job-9' });
    expect(stepBay(waiting, { type: 'cancelled' })).toEqual({ state: 'cancelled', drive, untouched: true });
    // Only a bay checking in waits: a late "no answer" cannot pull an erasing bay back.
    expect(stepBay(erasing, { type: 'cloud_unreachable', wait })).toBe(erasing);
  });

  it('fails untouched when the safety guard refuses the drive before anything ran', () => {
    for (const from of [detected, run([{ type: 'await_confirmation' }], detected), checkingIn]) {
      expect(stepBay(from, { type: 'refused', reason: '/dev/sdb is mounted at /mnt' })).toEqual({ state: 'failed', drive, reason: '/dev/sdb is mounted at /mnt', untouched: true });
    }
    expect(stepBay(erasing, { type: 'refused', reason: 'x' })).toBe(erasing);
  });

  it('shows method, pass, percent, rate and ETA while erasing', () => {
    const progress = { method: 'overwrite', pass: 1, percent: 42, bytesPerSecond: 180e6, etaSeconds: 600 };
    expect(stepBay(erasing, { type: 'progress', progress })).toEqual({ state: 'erasing', drive, jobId: 'job-1', progress });
  });

  it('verifies, then passes, then shows the certificate number once issued', () => {
    expect(verifying).toEqual({ state: 'verifying', drive, jobId: 'job-1' });
    expect(stepBay(verifying, { type: 'verify_progress', percent: 70 })).toMatchObject({ state: 'verifying', percent: 70 });
    expect(passed).toEqual({ state: 'passed', drive, jobId: 'job-1' });
    expect(stepBay(passed, { type: 'certificate', number: 'CW-000123' })).toEqual({ state: 'passed', drive, jobId: 'job-1', certificateNumber: 'CW-000123' });
  });

  it('passes straight from erasing for a firmware erase that has no separate verify pass', () => {
    expect(stepBay(erasing, { type: 'erase_passed' })).toEqual({ state: 'passed', drive, jobId: 'job-1' });
  });

  it('fails with the reason when the erase or the verify fails', () => {
    expect(stepBay(erasing, { type: 'erase_failed', reason: 'io_error' })).toEqual({ state: 'failed', drive, jobId: 'job-1', reason: 'io_error', untouched: false });
    expect(stepBay(verifying, { type: 'erase_failed', reason: 'not_verified' })).toMatchObject({ state: 'failed', reason: 'not_verified' });
  });

  it('can be cancelled on its own while erasing or verifying, and then says cancelled, not failed', () => {
    expect(stepBay(erasing, { type: 'cancelled' })).toEqual({ state: 'cancelled', drive, jobId: 'job-1', untouched: false });
    expect(stepBay(verifying, { type: 'cancelled' })).toEqual({ state: 'cancelled', drive, jobId: 'job-1', untouched: false });
    // The aborted run's own failure arriving late does not turn the cancel into a failure.
    const cancelled = stepBay(erasing, { type: 'cancelled' });
    expect(stepBay(cancelled, { type: 'erase_failed', reason: CANCELLED_BY_OPERATOR })).toBe(cancelled);
  });

  it('says passed when a cancel came after the read-back had finished and the run reports the drive erased and verified', () => {
    const cancelled = stepBay(verifying, { type: 'cancelled' });
    expect(stepBay(cancelled, { type: 'erase_passed' })).toEqual({ state: 'passed', drive, jobId: 'job-1' });
  });

  it('stays failed when its erase failed and a stray pass arrives', () => {
    const failed = stepBay(erasing, { type: 'erase_failed', reason: 'verify mismatch' });
    expect(stepBay(failed, { type: 'erase_passed' })).toBe(failed);
  });

  it('cannot be cancelled while a firmware erase runs: the drive carries it out whatever the station does', () => {
    expect(sanitizing).toEqual({ state: 'erasing', drive, jobId: 'job-2', firmware: true });
    expect(stepBay(sanitizing, { type: 'cancelled' })).toBe(sanitizing);
    expect(stepBay(sanitizing, { type: 'erase_passed' })).toEqual({ state: 'passed', drive, jobId: 'job-2' });
  });

  it('can be cancelled while checking in, cancelled with the drive untouched', () => {
    expect(stepBay(checkingIn, { type: 'cancelled' })).toEqual({ state: 'cancelled', drive, untouched: true });
  });

  it.each<[string, BayState, boolean]>([
    ['empty', EMPTY_BAY, false],
    ['detected', detected, false],
    ['waiting for confirmation', run([{ type: 'await_confirmation' }], detected), true],
    ['checking in', checkingIn, true],
    ['erasing', erasing, true],
    ['erasing by firmware (sanitize, secure erase, format)', sanitizing, false],
    ['verifying', verifying, true],
    ['passed', passed, false],
    ['pulled', stepBay(erasing, { type: 'removed' }), false],
  ])('offers a cancel when %s: %s', (_label, from, expected) => {
    expect(canCancel(from)).toBe(expected);
  });
});

describe('pulling a drive out of a bay', () => {
  it.each([
    ['checking in', checkingIn, 'checking_in', undefined],
    ['erasing', erasing, 'erasing', 'job-1'],
    ['verifying', verifying, 'verifying', 'job-1'],
  ] as const)('while %s fails it with "removed during erase", remembering the phase', (_label, from, during, jobId) => {
    expect(stepBay(from, { type: 'removed' })).toEqual({ state: 'pulled', drive, during, reason: REMOVED_DURING_ERASE, ...(jobId ? { jobId } : {}) });
  });

  it.each([
    ['detected', detected],
    ['waiting for confirmation', run([{ type: 'await_confirmation' }], detected)],
    ['passed', passed],
    ['failed', stepBay(checkingIn, { type: 'checkin_denied', reason: 'revoked' })],
  ] as const)('when %s just empties the bay', (_label, from) => {
    expect(stepBay(from, { type: 'removed' })).toEqual(EMPTY_BAY);
  });

  it('keeps saying "pulled" when udev reports the removal the erase already saw', () => {
    const pulled = stepBay(erasing, { type: 'removed' });
    expect(stepBay(pulled, { type: 'removed' })).toBe(pulled);
  });

  it('says passed when the run reports the drive erased and verified after all (pulled once its read-back had finished)', () => {
    const pulled = stepBay(verifying, { type: 'removed' });
    expect(stepBay(pulled, { type: 'erase_passed' })).toEqual({ state: 'passed', drive, jobId: 'job-1' });
  });

  it('stays pulled when the pull came before its check-in was answered', () => {
    const pulled = stepBay(checkingIn, { type: 'removed' });
    expect(stepBay(pulled, { type: 'erase_passed' })).toBe(pulled);
  });

  it('starts over when the pulled drive is put back', () => {
    const pulled = stepBay(erasing, { type: 'removed' });
    expect(stepBay(pulled, { type: 'inserted', drive })).toEqual({ state: 'detected', drive });
  });

  it('starts over for the next drive after a pass or a failure', () => {
    expect(stepBay(passed, { type: 'inserted', drive: other })).toEqual({ state: 'detected', drive: other });
  });
});

describe('events that make no sense in a state are ignored', () => {
  it('a late progress report after a pull-out does not revive the bay', () => {
    const pulled = stepBay(erasing, { type: 'removed' });
    expect(stepBay(pulled, { type: 'progress', progress: { method: 'overwrite', pass: 1, percent: 50 } })).toBe(pulled);
  });

  it('an insert reported while a drive is being erased does not restart it', () => {
    expect(stepBay(erasing, { type: 'inserted', drive: other })).toBe(erasing);
  });

  it.each<[string, BayState, BayEvent]>([
    ['confirm on an empty bay', EMPTY_BAY, { type: 'confirm' }],
    ['a check-in answer while detected', detected, { type: 'checkin_allowed', jobId: 'x' }],
    ['a second confirmation while checking in', checkingIn, { type: 'confirm' }],
    ['a certificate before the pass', erasing, { type: 'certificate', number: 'CW-1' }],
    ['erase success after a failure', stepBay(erasing, { type: 'erase_failed', reason: 'io_error' }), { type: 'erase_passed' }],
  ])('%s', (_label, from, event) => {
    expect(stepBay(from, event)).toBe(from);
  });
});

describe('SMART health read after seating', () => {
  it('fills in the health of the drive in the bay, whatever it is doing', () => {
    const erasing = run([{ type: 'inserted', drive }, { type: 'auto_start' }, { type: 'checkin_allowed', jobId: 'job-1' }]);
    expect(stepBay(erasing, { type: 'health', device: drive.device, health: 'failed' })).toMatchObject({ state: 'erasing', drive: { health: 'failed' } });
  });

  it('ignores the health of a drive that has since left the bay', () => {
    const detected = run([{ type: 'inserted', drive: other }]);
    expect(stepBay(detected, { type: 'health', device: '/dev/not-here', health: 'failed' })).toBe(detected);
  });
});

