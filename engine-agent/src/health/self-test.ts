import type { SelfTestOutcome } from '@erasure/shared';
import { ToolSpawnError, type Runner } from '../adapters/runner.js';
import { parseJsonText } from '../probes/parse-result.js';
import { asArray, asBool, asCount, asObject, asText, at } from '../probes/unknown.js';

/**
 * The SMART short self-test (issue 30 item 6), where the account enables it: `smartctl -t short`
 * right before the drive's erase (each drive's erase runs beside the others', so the tests run in
 * parallel), then `smartctl -c -l selftest` every POLL_MS until the drive reports the test ended,
 * for at most `timeoutMs`. The outcome goes into the health evidence; only a failure is graded.
 */

/** Seconds between polls: a short test takes one to two minutes on the drives captured. */
export const SELF_TEST_POLL_MS = 10_000;
/** A short test not finished after this is called timed out and aborted before the erase starts. */
export const SELF_TEST_TIMEOUT_MS = 5 * 60_000;
const TOOL_TIMEOUT_MS = 60_000;

export interface SelfTestDeps {
  readonly run: Runner;
  readonly sleep: (ms: number) => Promise<void>;
  readonly timeoutMs?: number;
  readonly pollMs?: number;
}

type Poll = { readonly state: 'running' } | { readonly state: 'ended'; readonly outcome: SelfTestOutcome } | { readonly state: 'unknown'; readonly why: string };

const messagesOf = (json: unknown): string => (asArray(at(json, 'smartctl', 'messages')) ?? []).map((m) => asText(at(m, 'string'))).filter(Boolean).join('; ');

/** ATA self-test execution status (ACS "Self-test execution status", high nibble): 0 done, 1 aborted by host, 2 interrupted, 3-8 failures, 15 running. */
function ataOutcome(json: unknown): Poll | undefined {
  const status = asCount(at(json, 'ata_smart_data', 'self_test', 'status', 'value'));
  if (status === undefined) return undefined;
  const nibble = status >> 4;
  if (nibble === 15) return { state: 'running' };
  const newest = asArray(at(json, 'ata_smart_self_test_log', 'extended', 'table'))?.[0] ?? asArray(at(json, 'ata_smart_self_test_log', 'standard', 'table'))?.[0];
  const words = asText(at(newest, 'status', 'string')) ?? asText(at(json, 'ata_smart_data', 'self_test', 'status', 'string'));
  const lba = asBool(at(newest, 'status', 'passed')) === false ? asCount(at(newest, 'lba')) : undefined;
  if (nibble === 0) return { state: 'ended', outcome: { outcome: 'passed', ...(words ? { detail: words } : {}) } };
  if (nibble === 1 || nibble === 2) return { state: 'ended', outcome: { outcome: 'aborted', ...(words ? { detail: words } : {}) } };
  return { state: 'ended', outcome: { outcome: 'failed', ...(lba !== undefined ? { failingLba: lba } : {}), ...(words ? { detail: words } : {}) } };
}

/** NVMe Device Self-test log: an operation in progress, else the newest result (0 passed, 1-3 aborted, 4+ failed). */
function nvmeOutcome(json: unknown): Poll | undefined {
  const log = asObject(at(json, 'nvme_self_test_log'));
  if (!log) return undefined;
  if ((asCount(at(log, 'current_self_test_operation', 'value')) ?? 0) !== 0) return { state: 'running' };
  const newest = asArray(log.table)?.[0];
  const result = asCount(at(newest, 'self_test_result', 'value'));
  if (result === undefined) return { state: 'unknown', why: 'the drive logged no self-test' };
  const words = asText(at(newest, 'self_test_result', 'string'));
  const lba = asCount(at(newest, 'lba'));
  const outcome: SelfTestOutcome['outcome'] = result === 0 ? 'passed' : result <= 3 ? 'aborted' : 'failed';
  return { state: 'ended', outcome: { outcome, ...(outcome === 'failed' && lba !== undefined ? { failingLba: lba } : {}), ...(words ? { detail: words } : {}) } };
}

/** SCSI self-test results log, newest entry: result 15 in progress, 0 completed, 1-2 aborted, 3-7 failed. */
function scsiOutcome(json: unknown): Poll | undefined {
  const newest = asObject(at(json, 'scsi_self_test_0'));
  if (!newest) return undefined;
  const result = asCount(at(newest, 'result', 'value'));
  if (result === undefined) return undefined;
  if (result === 15) return { state: 'running' };
  const words = asText(at(newest, 'result', 'string'));
  const lba = asCount(at(newest, 'lba_first_failure', 'value'));
  const outcome: SelfTestOutcome['outcome'] = result === 0 ? 'passed' : result <= 2 ? 'aborted' : 'failed';
  return { state: 'ended', outcome: { outcome, ...(outcome === 'failed' && lba !== undefined ? { failingLba: lba } : {}), ...(words ? { detail: words } : {}) } };
}

/** One poll's answer (`smartctl --json -c -l selftest`), for ATA, NVMe and SCSI drives. */
export function parseSelfTestPoll(text: string): Poll {
  const json = parseJsonText(text);
  if (!json.ok) return { state: 'unknown', why: json.reason };
  return ataOutcome(json.value) ?? nvmeOutcome(json.value) ?? scsiOutcome(json.value) ?? { state: 'unknown', why: messagesOf(json.value) || 'smartctl reported no self-test status' };
}

/**
 * Whether `smartctl --json -t short` started the test. smartctl's exit bit 1 (device open failed)
 * or bit 2 (a command failed), or its own "not supported" words, mean no test runs: a USB bridge
 * that does not pass the command through, or a drive without self-tests.
 */
export function parseSelfTestStart(text: string, exitCode: number | null): { started: true } | { started: false; why: string } {
  const json = parseJsonText(text);
  // smartctl prints text, not JSON, for some device types (a bridge's -d sntasmedia): read its words then.
  const words = json.ok ? messagesOf(json.value) : (/^.*not supported.*$/im.exec(text)?.[0]?.trim() ?? '');
  const status = json.ok ? (asCount(at(json.value, 'smartctl', 'exit_status')) ?? exitCode ?? 0) : (exitCode ?? 0);
  if (/not supported/i.test(words) || (status & 0b110) !== 0) return { started: false, why: words || `smartctl could not start a self-test (exit ${status})` };
  return { started: true };
}

/** Runs the short self-test on `device` and reports how it ended. Never throws for the drive's sake. */
export async function runShortSelfTest(deps: SelfTestDeps, device: string): Promise<SelfTestOutcome> {
  const timeoutMs = deps.timeoutMs ?? SELF_TEST_TIMEOUT_MS;
  const pollMs = deps.pollMs ?? SELF_TEST_POLL_MS;
  try {
    const start = await deps.run('smartctl', ['--json', '-t', 'short', device], { timeoutMs: TOOL_TIMEOUT_MS });
    if (start.timedOut) return { outcome: 'not_supported', detail: 'smartctl did not answer the self-test command' };
    const started = parseSelfTestStart(start.stdout, start.exitCode);
    if (!started.started) return { outcome: 'not_supported', detail: started.why };
    // Counted polls, not a clock: the timeout is the number of polls that fit in it.
    for (let waited = 0; waited < timeoutMs; waited += pollMs) {
      await deps.sleep(pollMs);
      const r = await deps.run('smartctl', ['--json', '-c', '-l', 'selftest', device], { timeoutMs: TOOL_TIMEOUT_MS });
      const poll = parseSelfTestPoll(r.stdout);
      if (poll.state === 'ended') return poll.outcome;
      if (poll.state === 'unknown') return { outcome: 'not_supported', detail: poll.why };
    }
    // Stop the test so it does not compete with the erase for the drive.
    await deps.run('smartctl', ['-X', device], { timeoutMs: TOOL_TIMEOUT_MS });
    return { outcome: 'timed_out', detail: `the short self-test did not finish within ${Math.round(timeoutMs / 60_000)} min and was aborted` };
  } catch (error) {
    if (error instanceof ToolSpawnError) return { outcome: 'not_supported', detail: 'smartctl is not available' };
    throw error;
  }
}
