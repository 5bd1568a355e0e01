import { describe, expect, it } from 'vitest';
import type { FloorReportBody } from '@erasure/shared';
import { FloorReporter, type FloorSendOutcome } from './floor-reporter.js';
import type { FloorSnapshot } from './floor-report.js';

/** A hand-driven clock and timer: time moves only when the test says so. */
function harness(answer: () => FloorSendOutcome = () => ({ kind: 'ok' })) {
  let now = 1_000_000;
  let timer: { at: number; fn: () => void } | undefined;
  const sent: FloorReportBody[] = [];
  const logs: string[] = [];
  const reporter = new FloorReporter({
    now: () => now,
    setTimer: (fn, ms) => {
      const t = { at: now + ms, fn };
      timer = t;
      return () => {
        if (timer === t) timer = undefined;
      };
    },
    send: (body) => {
      sent.push(body);
      return Promise.resolve(answer());
    },
    log: (m) => logs.push(m),
    intervalMs: 5_000,
  });
  const advance = async (ms: number) => {
    now += ms;
    while (timer && timer.at <= now) {
      const t = timer;
      timer = undefined;
      t.fn();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { reporter, sent, logs, advance };
}

const snap = (stage: 'write' | 'verify' | 'erased', bytes: number): FloorSnapshot => ({
  machine_id: 'm-1',
  boot_id: 'b-1',
  kind: 'machine',
  drives: [{ device: '/dev/sdb', stage, pass: 1, bytes_done: bytes, bytes_total: 100 }],
});

describe('floor reporter', () => {
  it('sends the first report at once', async () => {
    const h = harness();
    h.reporter.offer(snap('write', 1));
    await h.advance(0);
    expect(h.sent.map((b) => b.sequence)).toEqual([1]);
  });

  it('sends byte progress at most once per interval, the newest snapshot only', async () => {
    const h = harness();
    h.reporter.offer(snap('write', 1));
    await h.advance(0);
    for (let i = 2; i <= 5; i++) {
      h.reporter.offer(snap('write', i));
      await h.advance(1_000);
    }
    expect(h.sent).toHaveLength(1);
    await h.advance(1_000);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.drives[0]!.bytes_done).toBe(5);
    expect(h.sent[1]!.sequence).toBe(2);
  });

  it('sends at once on a change of a drive stage', async () => {
    const h = harness();
    h.reporter.offer(snap('write', 1));
    await h.advance(0);
    h.reporter.offer(snap('verify', 0));
    await h.advance(0);
    expect(h.sent.map((b) => b.drives[0]!.stage)).toEqual(['write', 'verify']);
  });

  it('repeats the newest report every interval while nothing changes, so the machine does not show lost contact', async () => {
    const h = harness();
    h.reporter.offer(snap('erased', 100));
    await h.advance(0);
    await h.advance(5_000);
    await h.advance(5_000);
    expect(h.sent.map((b) => b.sequence)).toEqual([1, 2, 3]);
  });

  it('stops for the rest of the boot when the floor view is off', async () => {
    const h = harness(() => ({ kind: 'off' }));
    h.reporter.offer(snap('write', 1));
    await h.advance(0);
    h.reporter.offer(snap('verify', 1));
    await h.advance(60_000);
    expect(h.sent).toHaveLength(1);
    expect(h.reporter.active).toBe(false);
  });

  it('forgets a failed report, logs the failure once, and waits the interval before the next', async () => {
    const h = harness(() => ({ kind: 'failed', why: 'transport: connect ECONNREFUSED' }));
    h.reporter.offer(snap('write', 1));
    await h.advance(0);
    h.reporter.offer(snap('verify', 1));
    await h.advance(0);
    expect(h.sent).toHaveLength(1);
    await h.advance(5_000);
    await h.advance(5_000);
    expect(h.sent).toHaveLength(3);
    expect(h.logs).toHaveLength(1);
  });
});
