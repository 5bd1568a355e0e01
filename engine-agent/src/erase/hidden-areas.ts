import type { ErasePrecondition } from '../drives/plan-erase.js';
import type { SysfsReader } from '../probes/sysfs-block.js';
import { parseHdparmDco, parseHdparmHpa, parseHdparmIdentify } from '../probes/hdparm.js';
import { restoreHpa } from './ata.js';
import { CommandLog, complaint, guarded, type DriverDeps, type DriverResult } from './driver-kit.js';
import { DEFAULT_FIRMWARE_TIMING, type FirmwareTiming } from './nvme.js';

const YES = '--yes-i-know-what-i-am-doing';

/** One hidden area removed: the drive's addressable size before and after, in logical sectors. */
export interface CapacityChange {
  readonly area: 'HPA' | 'DCO';
  readonly beforeSectors: number;
  readonly afterSectors: number;
}

/** Outcome of removing the hidden areas the plan asked for, before any erase command. */
export type HiddenAreasResult =
  | { readonly ok: true; readonly commands: readonly string[]; readonly changes: readonly CapacityChange[] }
  | { readonly ok: false; readonly commands: readonly string[]; readonly code: string; readonly reason: string };

/**
 * Removes a Device Configuration Overlay (`hdparm --dco-restore`), then probes again: `-N` must
 * show the DCO's real max as the native max, else the hidden sectors would stay unerased. A
 * refused restore is told apart as `frozen` when the drive is frozen by the BIOS (the freeze
 * lock a BIOS issues for security usually covers the DCO too), `command_failed` otherwise.
 * hdparm 9.65 refuses the restore while an HPA is set, so the HPA goes first.
 */
export async function restoreDco(deps: DriverDeps, device: string, timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING): Promise<DriverResult & { change?: CapacityChange }> {
  const log = new CommandLog(deps);
  let change: CapacityChange | undefined;
  const result = await guarded(log, async () => {
    const dco = parseHdparmDco((await log.run('hdparm', ['--dco-identify', device], timing.commandTimeoutMs)).stdout);
    if (!dco.ok || dco.value.realMaxSectors === undefined) return log.fail('command_failed', `hdparm --dco-identify unreadable: ${dco.ok ? 'no "Real max sectors" line' : dco.reason}`);
    const realMax = dco.value.realMaxSectors;
    const before = parseHdparmHpa((await log.run('hdparm', ['-N', device], timing.commandTimeoutMs)).stdout);
    if (!before.ok) return log.fail('command_failed', `hdparm -N unreadable: ${before.reason}`);
    const native = before.value.nativeSectors;
    if (realMax <= native) return log.ok('no Device Configuration Overlay hides sectors');
    const hidden = realMax - native;
    const restore = await log.run('hdparm', [YES, '--dco-restore', device], timing.commandTimeoutMs);
    if (restore.exitCode !== 0) {
      // hdparm prints "issuing ..." on stdout and the drive's refusal (perror) on stderr: the refusal is the why.
      const said = restore.stderr.trim() ? `exit ${restore.exitCode ?? restore.signal ?? '?'}: ${restore.stderr.trim().split('\n').slice(-2).join(' / ')}` : complaint(restore);
      const id = parseHdparmIdentify((await log.run('hdparm', ['-I', device], timing.commandTimeoutMs)).stdout);
      const frozen = id.ok && id.value.security?.frozen === true;
      const why = frozen
        ? `the drive refused DEVICE CONFIGURATION RESTORE: it is frozen by the BIOS (freeze lock) (${said})`
        : `the drive refused DEVICE CONFIGURATION RESTORE (${said})`;
      return log.fail(frozen ? 'frozen' : 'command_failed', `${why}; the ${hidden} sectors it hides were not erased`);
    }
    const after = parseHdparmHpa((await log.run('hdparm', ['-N', device], timing.commandTimeoutMs)).stdout);
    if (!after.ok || after.value.nativeSectors < realMax || after.value.visibleSectors < realMax) {
      const seen = after.ok ? `${after.value.visibleSectors}/${after.value.nativeSectors}` : 'unreadable';
      return log.fail('not_verified', `the DCO restore was accepted but hdparm -N still shows ${seen} of ${realMax} sectors (some drives need a power cycle); the ${hidden} hidden sectors were not erased`);
    }
    change = { area: 'DCO', beforeSectors: native, afterSectors: after.value.nativeSectors };
    return log.ok(`DCO removed: ${hidden} hidden sectors restored (${native} -> ${after.value.nativeSectors})`);
  });
  return change ? { ...result, change } : result;
}

/** Reads "(a -> b)" back from restoreHpa's detail, the one place it states both sizes. */
function hpaChangeOf(r: DriverResult): CapacityChange | undefined {
  const m = r.ok ? /\((\d+) -> (\d+)\)/.exec(r.detail) : null;
  return m?.[1] && m[2] ? { area: 'HPA', beforeSectors: Number(m[1]), afterSectors: Number(m[2]) } : undefined;
}

/**
 * The plan's hidden-area steps, in order (HPA, then DCO), before anything is erased. The first
 * that fails stops the drive: its hidden sectors would not be erased, so it is never certified.
 */
export async function restoreHiddenAreas(deps: DriverDeps, device: string, steps: readonly ErasePrecondition[], timing: FirmwareTiming = DEFAULT_FIRMWARE_TIMING): Promise<HiddenAreasResult> {
  const commands: string[] = [];
  const changes: CapacityChange[] = [];
  const named = { 'restore-hpa': 'HPA', 'restore-dco': 'DCO' } as const;
  for (const step of (['restore-hpa', 'restore-dco'] as const).filter((s) => steps.includes(s))) {
    const r = step === 'restore-hpa' ? await restoreHpa(deps, device, timing) : await restoreDco(deps, device, timing);
    commands.push(...r.commands);
    if (!r.ok) return { ok: false, commands, code: r.code, reason: `${named[step]} not removed: ${r.reason}` };
    const change = step === 'restore-hpa' ? hpaChangeOf(r) : (r as { change?: CapacityChange }).change;
    if (change) changes.push(change);
  }
  return { ok: true, commands, changes };
}

/** Decimal units, as drive labels count them; MB below a gigabyte so a small drive does not read "0.0 GB". */
const sizeOf = (sectors: number, sectorSize: number | undefined) => {
  if (!sectorSize) return '';
  const bytes = sectors * sectorSize;
  return bytes >= 1e9 ? ` (${(bytes / 1e9).toFixed(1)} GB)` : ` (${(bytes / 1e6).toFixed(1)} MB)`;
};

/**
 * The sentence the Erasure Report carries (in `verification_result`): each area removed, with
 * the capacity before and after, so the certificate says what was hidden and that it was erased.
 */
export function describeCapacityChanges(changes: readonly CapacityChange[], sectorSize: number | undefined): string | undefined {
  if (changes.length === 0) return undefined;
  const parts = changes.map((c) => `${c.area} removed, capacity before ${c.beforeSectors} sectors${sizeOf(c.beforeSectors, sectorSize)}, after ${c.afterSectors} sectors${sizeOf(c.afterSectors, sectorSize)}`);
  return `Hidden areas removed before the erase: ${parts.join('; ')}. The full native capacity was erased`;
}

/**
 * After a removal, an overwrite reaches only what the kernel sees: the block device must already
 * show the drive's full native size (`/sys/block/X/size` counts 512-byte units), else the
 * restored sectors would be left out. Undefined when it does; otherwise why not.
 */
export async function kernelMissesRestored(sys: SysfsReader, device: string, changes: readonly CapacityChange[]): Promise<string | undefined> {
  const last = changes[changes.length - 1];
  if (!last) return undefined;
  const name = device.replace(/^\/dev\//, '');
  const units = Number((await sys.readText(`/sys/block/${name}/size`))?.trim());
  const sectorSize = await logicalSectorSize(sys, device);
  if (!Number.isFinite(units) || sectorSize === undefined) return `the kernel's size of ${device} is unreadable, so the restored sectors cannot be shown to be reached`;
  const seen = (units * 512) / sectorSize;
  return seen >= last.afterSectors ? undefined : `the kernel still sees ${seen} of ${last.afterSectors} sectors after the ${last.area} removal: reboot and erase again so the restored sectors are overwritten too`;
}

/** The logical sector size sysfs gives for a whole-disk device node. */
export async function logicalSectorSize(sys: SysfsReader, device: string): Promise<number | undefined> {
  const n = Number((await sys.readText(`/sys/block/${device.replace(/^\/dev\//, '')}/queue/logical_block_size`))?.trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
