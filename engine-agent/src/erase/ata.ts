import { randomBytes } from 'node:crypto';
import { parseHdparmHpa, parseHdparmIdentify, type AtaSecurityState, type HdparmIdentify } from '../probes/hdparm.js';
import { parseHdparmSanitizeStatus } from '../probes/sanitize-status.js';
import { CommandLog, complaint, guarded, pollUntil, type DriverDeps, type DriverResult } from './driver-kit.js';
import { DEFAULT_FIRMWARE_TIMING, type FirmwareTiming } from './nvme.js';

const YES = '--yes-i-know-what-i-am-doing';
const SANITIZE_FLAGS = {
  crypto: ['--sanitize-crypto-scramble'],
  block: ['--sanitize-block-erase'],
  overwrite: ['--sanitize-overwrite-passes', '1', '--sanitize-overwrite', 'hex:00000000'],
} as const;

async function identify(log: CommandLog, device: string, timing: FirmwareTiming): Promise<HdparmIdentify | string> {
  const r = await log.run('hdparm', ['-I', device], timing.commandTimeoutMs);
  const id = parseHdparmIdentify(r.stdout);
  return id.ok ? id.value : `hdparm -I unreadable: ${id.reason}`;
}

/** Re-checks the security state right before acting: probes may be minutes old and a BIOS may have frozen the drive since. */
function blockedBySecurity(id: HdparmIdentify, log: CommandLog): DriverResult | undefined {
  const sec = id.security;
  if (sec?.frozen) return log.fail('frozen', 'the drive is frozen (SECURITY FREEZE LOCK by the BIOS): suspend and resume (rtcwake -m mem -s 5) or hot re-plug it, then retry');
  if (sec?.locked) return log.fail('locked', 'the drive is locked with an unknown password: unlock or PSID-revert it first');
  return undefined;
}

/** ATA SANITIZE (crypto scramble, block erase or overwrite) via hdparm, polled with --sanitize-status. */
export async function ataSanitize(
  deps: DriverDeps,
  device: string,
  action: keyof typeof SANITIZE_FLAGS,
  timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING,
): Promise<DriverResult> {
  const log = new CommandLog(deps);
  return guarded(log, async () => {
    const id = await identify(log, device, timing);
    if (typeof id === 'string') return log.fail('command_failed', id);
    const blocked = blockedBySecurity(id, log);
    if (blocked) return blocked;
    if (!id.sanitize.supported) return log.fail('unsupported', 'the drive does not support the SANITIZE feature set');
    const start = await log.run('hdparm', [YES, ...SANITIZE_FLAGS[action], device], timing.commandTimeoutMs);
    if (start.exitCode !== 0) return log.fail('command_failed', `hdparm sanitize refused: ${complaint(start)}`);
    const outcome = await pollUntil<string | undefined>(
      deps,
      async () => {
        const r = await log.run('hdparm', ['--sanitize-status', device], timing.commandTimeoutMs);
        const s = parseHdparmSanitizeStatus(r.stdout);
        if (!s.ok) return { done: true as const, value: `sanitize status unreadable: ${complaint(r)}` };
        if (s.value.state === 'in_progress') return { done: false as const, ...(s.value.percent !== undefined ? { percent: s.value.percent } : {}) };
        if (s.value.state === 'completed') return { done: true as const, value: undefined };
        return { done: true as const, value: s.value.state === 'frozen' ? 'the drive is in SD1 (frozen)' : 'the drive reports the sanitize failed' };
      },
      { intervalMs: timing.pollIntervalMs, maxPolls: Math.ceil(timing.maxWaitMs / timing.pollIntervalMs) },
    );
    if (!outcome.done) return log.fail('timeout', 'the sanitize did not complete in time; it continues on the drive (it survives power cycles)');
    return outcome.value === undefined ? log.ok('sanitize completed without error') : log.fail('erase_failed', outcome.value);
  });
}

/**
 * ATA (Enhanced) Security Erase: set a temporary user password, erase with it, then check the
 * drive dropped back to "security not enabled". The temporary password is returned in the
 * failure reason when the drive may be left locked, so an operator can unlock it.
 */
export async function ataSecureErase(
  deps: DriverDeps,
  device: string,
  enhanced: boolean,
  timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING,
  password = `erasure-${randomBytes(6).toString('hex')}`,
  master?: string,
): Promise<DriverResult> {
  const log = new CommandLog(deps);
  return guarded(log, async () => {
    const id = await identify(log, device, timing);
    if (typeof id === 'string') return log.fail('command_failed', id);
    const blocked = blockedBySecurity(id, log);
    if (blocked) return blocked;
    const sec = id.security;
    if (!sec?.supported) return log.fail('unsupported', 'the drive does not support the ATA Security feature set');
    if (sec.enabled && master === undefined) return log.fail('password_set', 'a security password is already set: the existing password is needed');
    if (enhanced && !sec.enhancedEraseSupported) return log.fail('unsupported', 'enhanced security erase is not supported');
    if (master !== undefined) return masterErase(log, device, enhanced, timing, master, sec);
    const set = await log.run('hdparm', ['--user-master', 'u', '--security-set-pass', password, device], timing.commandTimeoutMs, password);
    if (set.exitCode !== 0) return log.fail('command_failed', `setting the temporary password failed: ${complaint(set)}`);
    // The drive's own estimate, doubled, bounds the wait; the command is silent for its whole run.
    const minutes = (enhanced ? sec.enhancedEraseMinutes : sec.eraseMinutes) ?? 120;
    const waitMs = Math.min(timing.maxWaitMs, minutes * 2 * 60_000) + timing.commandTimeoutMs;
    const flag = enhanced ? '--security-erase-enhanced' : '--security-erase';
    const erase = await log.run('hdparm', ['--user-master', 'u', flag, password, device], waitMs, password);
    const after = await identify(log, device, timing);
    const stillEnabled = typeof after === 'string' || after.security?.enabled !== false || after.security.locked;
    if (erase.exitCode !== 0 || stillEnabled) {
      const recovery = stillEnabled ? ` The drive may hold the temporary password "${password}": unlock with hdparm --security-disable.` : '';
      return log.fail('erase_failed', `security erase failed: ${complaint(erase)}.${recovery}`);
    }
    return log.ok(`${enhanced ? 'enhanced ' : ''}security erase completed; security is disabled again`);
  });
}

/**
 * SECURITY ERASE UNIT with the master password that unlocked a drive whose user password was
 * unknown (level "high"). The erase clears the user password; the master password is never
 * shown: not in a command, not in a reason (hdparm echoes it, so its complaint is not quoted).
 */
async function masterErase(log: CommandLog, device: string, enhanced: boolean, timing: FirmwareTiming, master: string, sec: AtaSecurityState): Promise<DriverResult> {
  const minutes = (enhanced ? sec.enhancedEraseMinutes : sec.eraseMinutes) ?? 120;
  const waitMs = Math.min(timing.maxWaitMs, minutes * 2 * 60_000) + timing.commandTimeoutMs;
  const flag = enhanced ? '--security-erase-enhanced' : '--security-erase';
  const erase = await log.run('hdparm', ['--user-master', 'm', flag, master, device], waitMs, master, '<master-password>');
  const after = await identify(log, device, timing);
  const stillEnabled = typeof after === 'string' || after.security?.enabled !== false || after.security.locked;
  if (erase.exitCode !== 0 || stillEnabled) {
    const how = erase.timedOut ? 'timed out' : `exit ${erase.exitCode ?? erase.signal ?? '?'}`;
    return log.fail('erase_failed', `security erase with the master password failed (${how}${stillEnabled ? '; the drive still has a password set' : ''})`);
  }
  return log.ok(`${enhanced ? 'enhanced ' : ''}security erase with the master password completed; security is disabled again`);
}

/** Removes a Host Protected Area permanently (hdparm -N p<native>) and checks the whole native size is visible. */
export async function restoreHpa(deps: DriverDeps, device: string, timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING): Promise<DriverResult> {
  const log = new CommandLog(deps);
  return guarded(log, async () => {
    const before = parseHdparmHpa((await log.run('hdparm', ['-N', device], timing.commandTimeoutMs)).stdout);
    if (!before.ok) return log.fail('command_failed', `hdparm -N unreadable: ${before.reason}`);
    if (before.value.visibleSectors >= before.value.nativeSectors) return log.ok('no Host Protected Area');
    const set = await log.run('hdparm', [YES, '-N', `p${before.value.nativeSectors}`, device], timing.commandTimeoutMs);
    if (set.exitCode !== 0) return log.fail('command_failed', `removing the HPA failed: ${complaint(set)}`);
    const after = parseHdparmHpa((await log.run('hdparm', ['-N', device], timing.commandTimeoutMs)).stdout);
    if (!after.ok || after.value.visibleSectors !== after.value.nativeSectors) {
      return log.fail('not_verified', 'the HPA is still in place after hdparm -N p<native> (some drives need a power cycle)');
    }
    return log.ok(`HPA removed: ${before.value.hiddenSectors} hidden sectors restored (${before.value.visibleSectors} -> ${before.value.nativeSectors})`);
  });
}
