import { parseMmcExtcsd, type MmcExtCsd } from '../probes/mmc-card.js';
import { CommandLog, complaint, guarded, type DriverDeps, type DriverResult } from './driver-kit.js';
import { DEFAULT_FIRMWARE_TIMING, type FirmwareTiming } from './nvme.js';

/** The eMMC erase commands this driver sends (issue 30 item 4), each a JEDEC JESD84 operation through mmc-utils. */
export type MmcAction = 'sanitize' | 'secure-erase' | 'secure-trim';

const hex2 = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;

/** Why the EXT_CSD read right before the erase rules the action out; undefined when it is supported. */
function unsupportedBy(ext: MmcExtCsd, action: MmcAction): string | undefined {
  const sec = `EXT_CSD SEC_FEATURE_SUPPORT ${hex2(ext.secFeatureSupport)}`;
  if (action === 'sanitize' && !ext.sanitize) return `${sec}: bit 6 (SEC_SANITIZE) not set, the eMMC has no Sanitize`;
  if (action !== 'sanitize' && !ext.secureErase) return `${sec}: bit 0 (SECURE_ER_EN) not set, the eMMC has no Secure Erase or Secure Trim`;
  if (action === 'secure-trim' && !ext.trim) return `${sec}: bit 4 (SEC_GB_CL_EN) not set, the eMMC has no Secure Trim`;
  return undefined;
}

/**
 * Erases an eMMC's whole user area with the card's own command. The EXT_CSD is read again first:
 * the action must still be supported and SEC_COUNT gives the last sector of the range. Sanitize
 * purges only unmapped blocks, so every sector is first trimmed (TRIM where SEC_GB_CL_EN says so,
 * else the legacy erase of whole erase groups). Every command's exit status is checked; the markers
 * and read-back of erase-drive.ts prove what the card did.
 */
export async function mmcErase(deps: DriverDeps, device: string, action: MmcAction, timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING): Promise<DriverResult> {
  const log = new CommandLog(deps);
  return guarded(log, async () => {
    const read = await log.run('mmc', ['extcsd', 'read', device], timing.commandTimeoutMs);
    if (read.exitCode !== 0) return log.fail('command_failed', `the eMMC's EXT_CSD could not be read before the erase (${complaint(read)})`);
    const ext = parseMmcExtcsd(read.stdout);
    if (!ext.ok) return log.fail('command_failed', `the eMMC's EXT_CSD could not be read before the erase (${ext.reason})`);
    const refused = unsupportedBy(ext.value, action);
    if (refused) return log.fail('unsupported', refused);
    const sectors = ext.value.sectors;
    if (!sectors) return log.fail('unsupported', 'the EXT_CSD gives no sector count (SEC_COUNT): the range to erase is unknown');
    const range = ['0', String(sectors - 1), device];
    // One command over the whole card: it can take as long as the card's erase timeout times its size.
    const long = timing.maxWaitMs + timing.commandTimeoutMs;
    const step = async (type: string, what: string): Promise<string | undefined> => {
      const r = await log.run('mmc', ['erase', type, ...range], long);
      if (r.timedOut) return `${what} did not return in time`;
      return r.exitCode === 0 ? undefined : `${what} failed (${complaint(r)})`;
    };
    const whole = `all ${sectors} sectors of the user area`;
    if (action === 'secure-erase') {
      const failed = await step('secure-erase', 'the Secure Erase');
      return failed ? log.fail('erase_failed', failed) : log.ok(`Secure Erase of ${whole} completed (mmc exit status 0)`);
    }
    if (action === 'secure-trim') {
      const first = await step('secure-trim1', 'Secure Trim step 1');
      if (first) return log.fail('erase_failed', first);
      const second = await step('secure-trim2', 'Secure Trim step 2');
      return second ? log.fail('erase_failed', second) : log.ok(`Secure Trim steps 1 and 2 of ${whole} completed (mmc exit status 0)`);
    }
    const unmap = ext.value.trim ? 'trim' : 'legacy';
    const unmapped = await step(unmap, unmap === 'trim' ? 'the TRIM before the Sanitize' : 'the erase before the Sanitize');
    if (unmapped) return log.fail('erase_failed', `${unmapped}; the Sanitize was not started`);
    const san = await log.run('mmc', ['sanitize', device], long);
    if (san.timedOut) return log.fail('timeout', 'the Sanitize did not return in time');
    if (san.exitCode !== 0) return log.fail('erase_failed', `the Sanitize failed (${complaint(san)})`);
    return log.ok(`${unmap === 'trim' ? 'TRIM' : 'erase'} of ${whole}, then Sanitize, completed (mmc exit status 0)`);
  });
}
