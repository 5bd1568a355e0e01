import { CommandLog, complaint, guarded, type DriverDeps, type DriverResult } from './driver-kit.js';
import { DEFAULT_FIRMWARE_TIMING, type FirmwareTiming } from './nvme.js';

const ACTION_FLAGS = { crypto: ['--crypto'], block: ['--block'], overwrite: ['--overwrite', '--zero'] } as const;

/**
 * SCSI/SAS SANITIZE through sg_sanitize. Without --early, sg_sanitize polls REQUEST SENSE
 * until the device finishes, so its exit status is the outcome; --quick skips the 15 s grace.
 */
export async function scsiSanitize(
  deps: DriverDeps,
  device: string,
  action: keyof typeof ACTION_FLAGS,
  timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING,
): Promise<DriverResult> {
  const log = new CommandLog(deps);
  return guarded(log, async () => {
    const r = await log.run('sg_sanitize', [...ACTION_FLAGS[action], '--quick', device], timing.maxWaitMs + timing.commandTimeoutMs);
    if (r.timedOut) return log.fail('timeout', 'sg_sanitize did not return in time; the sanitize continues on the device');
    if (r.exitCode === 0) return log.ok(`SCSI SANITIZE (${action}) completed`);
    // sg3_utils exit 9 = illegal request (service action unsupported), 5 = illegal request too in older builds.
    const code = r.exitCode === 9 || r.exitCode === 5 ? 'unsupported' : 'erase_failed';
    return log.fail(code, `sg_sanitize failed: ${complaint(r)}; recover with sg_sanitize --fail`);
  });
}
