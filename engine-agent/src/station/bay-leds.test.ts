import { describe, expect, it } from 'vitest';
import { bayLedFollower, bayLedFor, type BayLed } from './bay-leds.js';

describe("a bay's LEDs following its state", () => {
  it('blinks locate while checking in, erasing or verifying, shows fault for a failed erase, and is off otherwise', () => {
    expect(['checking_in', 'erasing', 'verifying'].map((s) => bayLedFor(s as never))).toEqual(['working', 'working', 'working']);
    expect(bayLedFor('failed')).toBe('failed');
    expect(['empty', 'detected', 'awaiting_confirmation', 'passed', 'cancelled', 'pulled'].map((s) => bayLedFor(s as never))).toEqual(Array(6).fill('off'));
  });

  it('sets a bay’s LEDs only when what they show changes, in order', async () => {
    const calls: [string | undefined, BayLed][] = [];
    const sut = bayLedFollower(async (t, led) => {
      calls.push([t.device, led]);
      return true;
    });
    const bay = (state: string) => [{ lane: 'lane-1', state: state as never, target: { device: '/dev/sdb' } }];
    for (const state of ['awaiting_confirmation', 'checking_in', 'erasing', 'verifying', 'passed', 'empty']) sut.follow(bay(state));
    await sut.settled();
    expect(calls).toEqual([
      ['/dev/sdb', 'working'],
      ['/dev/sdb', 'off'],
    ]);
  });

  it('turns the fault LED on for a failed erase, and off once the drive is pulled', async () => {
    const calls: BayLed[] = [];
    const sut = bayLedFollower(async (_t, led) => (calls.push(led), true));
    for (const state of ['erasing', 'failed', 'pulled']) sut.follow([{ lane: 'lane-2', state: state as never, target: { device: '/dev/sdc' } }]);
    await sut.settled();
    expect(calls).toEqual(['working', 'failed', 'off']);
  });

  it('stops asking a bay whose enclosure has no LEDs it can drive, says so once, and never fails the erase', async () => {
    const asked: { device: string }[] = [];
    const lines: string[] = [];
    const sut = bayLedFollower(async (t) => (asked.push(t), false), (line) => lines.push(line));
    for (const state of ['erasing', 'failed', 'empty']) sut.follow([{ lane: 'lane-3', state: state as never, target: { device: '/dev/sdd' } }]);
    await sut.settled();
    expect(asked).toHaveLength(1);
    expect([...sut.unavailable()]).toEqual(['lane-3']);
    expect(lines).toHaveLength(1);
  });

  it('asks nothing of a bay it cannot reach (no drive and no SES slot)', async () => {
    let asked = 0;
    const sut = bayLedFollower<{ device: string }>(async () => (asked++, true));
    sut.follow([{ lane: 'lane-4', state: 'erasing', target: undefined }]);
    await sut.settled();
    expect(asked).toBe(0);
  });
});
