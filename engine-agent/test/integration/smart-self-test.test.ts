import { DEFAULT_HEALTH_RULES, gradeHealth } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { eraseWithHealth } from '../../src/health/erase-health.js';
import { runShortSelfTest } from '../../src/health/self-test.js';
import { fakeRunner, noSleep } from '../support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import type { EraseOutcome } from '../../src/erase/erase-drive.js';

// Issue 30 item 6: the SMART short self-test before the erase, with a fake smartctl on PATH
// replaying the self-test status and logs of real captures: a test in progress (WD140EDFZ, "in
// progress, 10% remaining"), a log whose newest entry completed without error, the failing
// Hitachi's read failure with its LBA, a test that never finishes, and a USB bridge without
// self-tests (Samsung T7 behind an ASMedia bridge: "Self-tests not supported").
const DEV = '/dev/sdz';
const RUNNING = 'smartctl/wdc-wd140edfz-sata-hdd-smartctl-a.json';
const PASSED = 'smartctl/hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json';
const STARTED = JSON.stringify({ smartctl: { exit_status: 0, messages: [{ string: 'Testing has begun.', severity: 'information' }] } });
const start = { match: '^--json -t short /dev/sdz$', stdout: STARTED };
const poll = '^--json -c -l selftest /dev/sdz$';

/** The Hitachi capture's log with its real read failure as the newest entry, and the status byte that entry carries. */
function failingPoll(): string {
  const json = JSON.parse(fixtureText('smartctl', 'hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json')) as {
    ata_smart_data: { self_test: { status: unknown } };
    ata_smart_self_test_log: { standard: { table: { status: { passed: boolean } }[] } };
  };
  const table = json.ata_smart_self_test_log.standard.table;
  const failure = table.find((e) => !e.status.passed);
  if (!failure) throw new Error('the capture has no failed self-test');
  json.ata_smart_data.self_test.status = failure.status;
  json.ata_smart_self_test_log.standard.table = [failure, ...table.filter((e) => e !== failure)];
  return JSON.stringify(json);
}

const polls = (calls: string[][]) => calls.filter((c) => c.includes('selftest')).length;

describe.skipIf(!fixturesPresent)(`the SMART short self-test (fake smartctl, ${FIXTURES_SKIP_NOTE})`, () => {
  it('passes when the drive reports it in progress, then ended without error', async () => {
    const { run, calls } = fakeRunner({ smartctl: [start, { match: poll, fixture: RUNNING, times: 2 }, { match: poll, fixture: PASSED }] });
    expect(await runShortSelfTest({ run, sleep: noSleep }, DEV)).toEqual({ outcome: 'passed', detail: 'Completed without error' });
    expect(polls(calls())).toBe(3);
  });

  it('fails with the first failing LBA of the drive’s log, and a failed self-test grades the drive F', async () => {
    const { run } = fakeRunner({ smartctl: [start, { match: poll, fixture: RUNNING, times: 1 }, { match: poll, stdout: failingPoll() }] });
    const outcome = await runShortSelfTest({ run, sleep: noSleep }, DEV);
    expect(outcome).toEqual({ outcome: 'failed', failingLba: 104870168, detail: 'Completed: read failure' });
    const verdict = gradeHealth({ selfTest: outcome });
    expect(verdict.grade).toBe('F');
    expect(verdict.reasons[0]?.text).toBe('the SMART short self-test failed at LBA 104870168 (rule: SMART short self-test failed gives F)');
  });

  it('did not finish in time when the drive stays in progress past the timeout: it is aborted before the erase', async () => {
    const { run, calls } = fakeRunner({ smartctl: [start, { match: poll, fixture: RUNNING }, { match: '^-X /dev/sdz$', stdout: '' }] });
    const outcome = await runShortSelfTest({ run, sleep: noSleep, timeoutMs: 30_000, pollMs: 10_000 }, DEV);
    expect(outcome.outcome).toBe('timed_out');
    expect(polls(calls())).toBe(3);
    expect(calls().at(-1)).toEqual(['smartctl', '-X', DEV]);
    // Not finishing is no evidence against the drive: it is not graded.
    expect(gradeHealth({ selfTest: outcome }, DEFAULT_HEALTH_RULES).reasons.map((r) => r.metric)).not.toContain('self_test_failed');
  });

  it('is not supported behind a USB bridge that does not pass it through, and is never polled then', async () => {
    const { run, calls } = fakeRunner({ smartctl: [{ match: '^--json -t short /dev/sdz$', fixture: 'smartctl/samsung-t7-portable-nvme-usb-asmedia-bridge-smartctl-d-sntasmedia-all.txt', exit: 4 }] });
    expect(await runShortSelfTest({ run, sleep: noSleep }, DEV)).toEqual({ outcome: 'not_supported', detail: 'Self-tests not supported' });
    expect(polls(calls())).toBe(0);
  });

  it('runs before the erase only where the account enables it, and its outcome is in the erased drive’s evidence', async () => {
    const order: string[] = [];
    const erase = async (): Promise<EraseOutcome> => {
      order.push('erase');
      return { device: DEV, method: 'overwrite', ok: true, refused: false, startedAt: 'x', completedAt: 'y', passes: 1, verification: 'ok', commands: [] } as unknown as EraseOutcome;
    };
    const selfTest = async () => {
      order.push('self-test');
      return { outcome: 'failed', failingLba: 7 } as const;
    };
    const off = await eraseWithHealth(erase, undefined, { rules: DEFAULT_HEALTH_RULES, selfTest: false }, selfTest);
    expect(off.health?.evidence.selfTest).toBeUndefined();
    const on = await eraseWithHealth(erase, undefined, { rules: DEFAULT_HEALTH_RULES, selfTest: true }, selfTest);
    expect(order).toEqual(['erase', 'self-test', 'erase']);
    expect(on.health?.evidence.selfTest).toEqual({ outcome: 'failed', failingLba: 7 });
    expect(on.health?.verdict.grade).toBe('F');
    expect(on.ok).toBe(true);
  });
});
