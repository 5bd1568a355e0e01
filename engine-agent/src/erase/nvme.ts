import { parseJsonText } from '../probes/parse-result.js';
import { parseNvmeSanitizeLog } from '../probes/sanitize-status.js';
import { CommandLog, complaint, guarded, pollUntil, type DriverDeps, type DriverResult } from './driver-kit.js';

/** Timing of firmware erases; tests shrink it. */
export interface FirmwareTiming {
  readonly pollIntervalMs: number;
  /** Upper bound of a firmware erase before the agent gives up waiting (it keeps running on the drive). */
  readonly maxWaitMs: number;
  readonly commandTimeoutMs: number;
}

/** Defaults: poll every 5 s for up to 24 h (sanitize of a large HDD-class device takes hours). */
export const DEFAULT_FIRMWARE_TIMING: FirmwareTiming = { pollIntervalMs: 5_000, maxWaitMs: 24 * 3600_000, commandTimeoutMs: 120_000 };

const SANACT = { block: 2, overwrite: 3, crypto: 4 } as const;

/**
 * NVMe Sanitize (crypto or block erase; overwrite when asked): issues the action, then polls the
 * sanitize log until SSTAT says completed or failed. Sanitize acts on the whole NVM subsystem and
 * resumes after a power cycle, so a reboot mid-way is recovered by polling again.
 */
export async function nvmeSanitize(
  deps: DriverDeps,
  device: string,
  action: keyof typeof SANACT,
  timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING,
): Promise<DriverResult> {
  const log = new CommandLog(deps);
  return guarded(log, async () => {
    const start = await log.run('nvme', ['sanitize', device, `--sanact=${SANACT[action]}`], timing.commandTimeoutMs);
    if (start.exitCode !== 0) return log.fail(/invalid|not supported|unsupported/i.test(start.stderr + start.stdout) ? 'unsupported' : 'command_failed', `nvme sanitize refused: ${complaint(start)}`);
    let neverSeen = 0;
    const outcome = await pollUntil<{ ok: boolean; reason: string }>(
      deps,
      async () => {
        const r = await log.run('nvme', ['sanitize-log', device, '-o', 'json'], timing.commandTimeoutMs);
        const json = parseJsonText(r.stdout);
        const status = r.exitCode === 0 && json.ok ? parseNvmeSanitizeLog(json.value) : undefined;
        if (!status?.ok) return { done: true as const, value: { ok: false, reason: `sanitize log unreadable: ${complaint(r)}` } };
        const s = status.value;
        if (s.state === 'completed') return { done: true as const, value: { ok: true, reason: `sanitize completed (SSTAT), global data erased: ${s.globalDataErased ? 'yes' : 'no'}` } };
        if (s.state === 'failed') return { done: true as const, value: { ok: false, reason: 'the drive reports the sanitize failed (SSTAT 3); recover with --sanact=1 (exit failure mode) and retry' } };
        // "never sanitized" right after a successful command means the action did not start; allow a short grace.
        if (s.state === 'never' && ++neverSeen > 3) return { done: true as const, value: { ok: false, reason: 'the sanitize never started (SSTAT 0)' } };
        return { done: false as const, ...(s.percent !== undefined ? { percent: s.percent } : {}) };
      },
      { intervalMs: timing.pollIntervalMs, maxPolls: Math.ceil(timing.maxWaitMs / timing.pollIntervalMs) },
    );
    if (!outcome.done) return log.fail('timeout', 'the sanitize did not complete in time; it continues on the drive: poll the sanitize log again');
    return outcome.value.ok ? log.ok(outcome.value.reason) : log.fail('erase_failed', outcome.value.reason);
  });
}

/**
 * NVMe Format with Secure Erase Settings: SES=2 (cryptographic erase) or SES=1 (user data erase).
 * SES=0 erases nothing (FOG fos#125), so there is no way to ask for it here.
 */
export async function nvmeFormat(
  deps: DriverDeps,
  device: string,
  ses: 1 | 2,
  timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING,
): Promise<DriverResult> {
  const log = new CommandLog(deps);
  if (ses !== 1 && ses !== 2) throw new RangeError(`refusing nvme format with ses=${String(ses)}: only 1 or 2 erase data`);
  return guarded(log, async () => {
    // Format blocks until done; --force skips nvme-cli 2.x's interactive confirmation.
    const r = await log.run('nvme', ['format', device, `--ses=${ses}`, '--force'], timing.maxWaitMs + timing.commandTimeoutMs);
    if (r.timedOut) return log.fail('timeout', 'nvme format did not return in time');
    if (r.exitCode !== 0) return log.fail(/invalid|not supported/i.test(r.stderr + r.stdout) ? 'unsupported' : 'erase_failed', `nvme format failed: ${complaint(r)}`);
    if (!/success/i.test(r.stdout + r.stderr)) return log.fail('not_verified', 'nvme format exited 0 but did not report success');
    return log.ok(`format with SES=${ses} reported success`);
  });
}
