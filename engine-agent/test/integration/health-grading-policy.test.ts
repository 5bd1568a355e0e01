import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY, DEFAULT_HEALTH_GRADING, type WireHealthRule } from '@erasure/shared';
import { createCloudClient } from '../../src/adapters/cloud-client.js';
import { createExecutors } from '../../src/adapters/session-interpreter.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { METHOD_INFO } from '../../src/drives/erase-methods.js';
import { nistLabel } from '../../src/drives/plan-erase.js';
import { acceptPolicy } from '../../src/session/erasure-policy.js';
import { DEFAULT_LIMITS, type DriveJob, type SessionContext } from '../../src/session/types.js';
import { fakeRunner, noSleep } from '../support/fake-runner.js';
import { fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

// Issue 30 item 6, the way the account's grading takes: the erasure policy the gateway hands over
// carries the account's table and self-test switch (ErasurePolicyGranted.health_grading), and the
// session's erase of each drive runs the short self-test before the erase and grades the erased
// drive with the account's thresholds. Loop devices hold the data; a fake smartctl answers for
// them with the SMART of a real 60,390-hour HGST HDD (C by the default table: ≥ 40,000 h).
const MiB = 1024 * 1024;
const work = loopSkipReason ? '' : makeWorkDir('health-grading-policy-');
afterAll(() => work && removeDir(work));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HGST = 'smartctl/hgst-hms5c4040ble640-sata-hdd-smartctl.json';
const RUNNING = 'smartctl/wdc-wd140edfz-sata-hdd-smartctl-a.json';
const DONE = 'smartctl/hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json';
const STARTED = JSON.stringify({ smartctl: { exit_status: 0 } });
/** The default table, with B from 30,000 h and C from 70,000 h: the HGST drive is B under it. */
const rules: WireHealthRule[] = DEFAULT_HEALTH_GRADING.rules.map((r) => (r.metric === 'power_on_hours' ? { ...r, at_least: r.grade === 'C' ? 70_000 : 30_000 } : r));

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`the account’s health grading in the session’s erase (loop devices, fake smartctl ${FIXTURES_SKIP_NOTE})`, () => {
  it('self-tests each drive before its erase, side by side, and grades each erased drive with the account’s thresholds', async () => {
    const disks = [loopWith(work, 'grading-a.img', randomBytes(4 * MiB)), loopWith(work, 'grading-b.img', randomBytes(4 * MiB))];
    try {
      const state = acceptPolicy({ erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account', health_grading: { rules, smart_self_test: true } });
      if (!state.ok) throw new Error(state.reason);
      const { run, calls } = fakeRunner({
        smartctl: disks.flatMap((d) => [
          { match: `^--json -t short ${escape(d.device)}$`, stdout: STARTED },
          { match: `^--json -c -l selftest ${escape(d.device)}$`, fixture: RUNNING, times: 1 },
          { match: `^--json -c -l selftest ${escape(d.device)}$`, fixture: DONE },
          { match: `^--json -x ${escape(d.device)}$`, fixture: HGST },
        ]),
      });
      const jobs: DriveJob[] = disks.map((d) => ({ device: d.device, method: 'overwrite', preconditions: [], label: nistLabel(METHOD_INFO.overwrite.category), technique: METHOD_INFO.overwrite.technique }));
      const ctx: SessionContext = { product: 'engine', drives: jobs, recordId: 'CW-20261128-040000', engineVersion: 'test', toolComponents: 'erasure-agent test', limits: DEFAULT_LIMITS };
      const executors = createExecutors(ctx, {
        client: createCloudClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }),
        erase: { run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date() },
        fingerprint: () => Promise.reject(new Error('not asked')),
        sleep: noSleep,
        jitterMs: () => 0,
        healthGrading: state.grading,
      });
      // The session starts every drive's erase at once; each runs its own self-test first.
      const events = await Promise.all(jobs.map((drive, index) => executors.erase({ kind: 'erase', index, drive })));
      for (const [i, event] of events.entries()) {
        if (event.type !== 'erased') throw new Error(`drive ${i}: ${event.type}`);
        expect(event.outcome.ok).toBe(true);
        expect(event.outcome.health?.evidence.selfTest).toEqual({ outcome: 'passed', detail: 'Completed without error' });
        expect(event.outcome.health?.verdict).toMatchObject({ grade: 'B', reasons: [{ metric: 'power_on_hours', text: 'it has been powered on for 60,390 hours (about 6.9 years) (rule: power-on hours ≥ 30,000 gives B)' }] });
      }
      for (const d of disks) {
        const own = calls().filter((c) => c.includes(d.device)).map((c) => c.slice(1, -1).join(' '));
        // The self-test comes before the SMART read that precedes the erase.
        expect(own.indexOf('--json -t short')).toBeLessThan(own.indexOf('--json -x'));
        expect(own.filter((c) => c === '--json -c -l selftest')).toHaveLength(2);
      }
    } finally {
      for (const d of disks) d.cleanup();
    }
  });
});
