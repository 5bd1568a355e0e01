import type { DriveCapabilities } from './capabilities.js';
import { stillFrozenBecause } from './freeze-lock.js';
import { planMethod } from './plan-method.js';
import { sedLockedReason } from './sed-lock.js';
import { maximumLockedReason, unknownPasswordReason } from './ata-lock.js';
import type { ErasePlan, ErasePolicy, ErasePrecondition, NoErasePlan } from './plan-types.js';
import { checkMethod, ERASE_METHODS, METHOD_INFO, type EraseMethod, type MethodCheck, type NistCategory } from './erase-methods.js';

export type { ErasePlan, ErasePolicy, ErasePrecondition, NoErasePlan, RejectedMethod } from './plan-types.js';

/** Every firmware erase is proven, never taken on the drive's word (issue 21). */
export const FIRMWARE_PROVEN_BY_MARKERS =
  'the firmware erase is proven by 256 test patterns written before it, which must all be gone after it; if one survives, the drive is erased by overwrite instead and certified Clear, not Purge';

/**
 * A drive that takes discards is discarded as a whole after its verified overwrite (issue 21),
 * which the plan says, with what it is not: not the sanitization, and never a Purge, even where
 * the drive supports a secure discard (the erase then says so on the report).
 */
export const DISCARD_AFTER_OVERWRITE =
  'after the verified overwrite the whole drive is discarded (TRIM) so it reaches its next owner at full write speed; the discard is not part of the sanitization, and a secure discard, where the drive supports one, is never used as a Purge';

/** An eMMC or SD card is discarded before its overwrite instead (issue 30 item 4; erase/discard.ts says why). */
export const DISCARD_BEFORE_OVERWRITE =
  'the whole card is discarded first (its own erase, which can reach blocks an overwrite does not), then overwritten and verified; the discard is not part of the sanitization, which is the overwrite (NIST Clear)';

/** Wire `wipe_method` of a NIST category, e.g. `NIST 800-88 R2 Purge`. */
export const nistLabel = (category: NistCategory) => `NIST 800-88 R2 ${category}`;

/**
 * Typical sustained rates when none was measured (bytes/s): an HDD's outer-to-inner average, a
 * SATA SSD's, an NVMe SSD's, and what a USB bridge lets through.
 */
function typicalRate(caps: DriveCapabilities): number {
  if (caps.transport === 'usb') return 40e6;
  if (caps.transport === 'nvme') return 1.5e9;
  if (caps.transport === 'mmc') return 20e6;
  return caps.rotational === false ? 450e6 : 150e6;
}

/**
 * The plan's time: the drive's own estimate when it gives one (ATA), else its size at a measured
 * (policy) or typical rate. An overwrite writes the whole drive and reads it all back; a block
 * erase or format works through the drive inside it (taken at its typical rate); a crypto erase
 * only changes a key, so its time is the read-back check alone, a minute.
 */
function estimateMinutes(method: EraseMethod, caps: DriveCapabilities, policy: ErasePolicy): { minutes?: number; source?: 'drive' | 'estimate' } {
  const sec = caps.ataSecurity;
  if (method === 'ata-secure-erase-enhanced' && sec?.enhancedEraseMinutes !== undefined) return { minutes: sec.enhancedEraseMinutes, source: 'drive' };
  if (method === 'ata-secure-erase' && sec?.eraseMinutes !== undefined) return { minutes: sec.eraseMinutes, source: 'drive' };
  if (/crypto/.test(method)) return { minutes: 1, source: 'estimate' };
  if (caps.sizeBytes === undefined) return {};
  const rate = policy.overwriteBytesPerSecond ?? typicalRate(caps);
  // One pass written and read back in full; a firmware erase passes over the drive once.
  const work = method === 'overwrite' ? 2 * caps.sizeBytes : caps.sizeBytes;
  // Whole seconds, not whole minutes: a small drive must not read "about 1 min" like every other.
  return { minutes: Math.max(1, Math.ceil(work / rate)) / 60, source: 'estimate' };
}

function hiddenAreaOutcome(caps: DriveCapabilities, policy: ErasePolicy) {
  const preconditions: ErasePrecondition[] = [];
  const warnings: string[] = [];
  const restore = policy.restoreHiddenAreas ?? true;
  const areas: Array<[ErasePrecondition, string, number | undefined]> = [
    ['restore-hpa', 'Host Protected Area', caps.hpaHiddenSectors],
    ['restore-dco', 'Device Configuration Overlay', caps.dcoHiddenSectors],
  ];
  for (const [step, name, hidden] of areas) {
    if (!hidden) continue;
    if (restore) preconditions.push(step);
    else warnings.push(`not fully sanitized: a ${name} hides ${hidden} sectors that are left untouched`);
  }
  return { preconditions, warnings, fullySanitized: warnings.length === 0 };
}

/** Why nothing may start on a drive whose sanitize is still running; undefined when none is. */
function sanitizeStillRunning(caps: DriveCapabilities): string | undefined {
  const last = caps.lastSanitize;
  if (last?.state !== 'in_progress') return undefined;
  const at = last.percent !== undefined ? ` (${last.percent}% done)` : '';
  return `a sanitize is still running on the drive${at}: it was started before (a sanitize continues across power loss and reboots) and must finish; no other erase is started over it`;
}

/**
 * A drive whose last sanitize failed: only a new sanitize of its own command set may run, since
 * a completed sanitize is the way out of failure mode that its spec allows in every case (and in
 * restricted completion mode the only one). Undefined when its last sanitize did not fail.
 */
function failureModeRule(caps: DriveCapabilities): ((method: EraseMethod) => MethodCheck | undefined) | undefined {
  const last = caps.lastSanitize;
  if (last?.state !== 'failed') return undefined;
  const own = `${last.commandSet}-sanitize-`;
  const why = `the drive's last sanitize failed and left it in sanitize failure mode: only a new sanitize that completes ends it${last.exitAllowed ? ' (Exit Failure Mode is allowed, but the data is then in an unknown state)' : ''}`;
  return (method) => (method.startsWith(own) ? undefined : { usable: false, reason: why });
}

const FAILED_SANITIZE_WARNING = "the drive's last sanitize failed (found when the drive was probed): this erase is a new sanitize, which also ends sanitize failure mode";

/**
 * Chooses the strongest method the drive supports (NIST SP 800-88: Purge by the drive's own
 * sanitize or erase command, else Clear by overwrite), or the forced one, and explains every
 * method not chosen. Pure: the capabilities come from probes run earlier.
 */
export function planErase(caps: DriveCapabilities, policy: ErasePolicy = {}): ErasePlan | NoErasePlan {
  if (policy.methodId !== undefined || policy.erasure !== undefined) return planMethod(caps, policy, planDefault);
  return planDefault(caps, policy);
}

/** Today's plan: the strongest method the drive supports, or the forced one. */
function planDefault(caps: DriveCapabilities, policy: ErasePolicy): ErasePlan | NoErasePlan {
  const running = sanitizeStillRunning(caps) ?? sedLockedReason(caps);
  if (running) return { ok: false, reason: running, rejected: ERASE_METHODS.map((method) => ({ method, reason: running })) };
  // Locked at level maximum: no method can reach its data (an overwrite reads back I/O errors), and
  // no master password opens it: the exact result is destroy, decided here so nothing is tried.
  const maximum = maximumLockedReason(caps);
  if (maximum) return { ok: false, reason: maximum, rejected: ERASE_METHODS.map((method) => ({ method, reason: maximum })), disposition: 'destroy' };
  const unknown = unknownPasswordReason(caps, policy);
  if (unknown) return { ok: false, reason: unknown, rejected: ERASE_METHODS.map((method) => ({ method, reason: unknown })) };
  const failedSanitize = failureModeRule(caps);
  const checks = ERASE_METHODS.map((method) => ({ method, check: failedSanitize?.(method) ?? checkMethod(method, caps, policy) }));
  const forced = policy.forceMethod;
  const chosen = forced ? checks.find((c) => c.method === forced) : checks.find((c) => c.check.usable);
  if (!chosen || !chosen.check.usable) {
    const rejected = checks.flatMap((c) => (c.check.usable ? [] : [{ method: c.method, reason: c.check.reason }]));
    const reason = chosen && !chosen.check.usable ? `forced method ${chosen.method} cannot run: ${chosen.check.reason}` : 'no erase method can run on this drive';
    return { ok: false, reason, rejected };
  }
  const info = METHOD_INFO[chosen.method];
  const rejected = checks
    .filter((c) => c.method !== chosen.method)
    .map((c) => ({
      method: c.method,
      reason: c.check.usable
        ? forced
          ? `supported, but operator/policy forced ${chosen.method}`
          : `supported, but ${chosen.method} ranks stronger`
        : c.check.reason,
    }));
  const hidden = hiddenAreaOutcome(caps, policy);
  const { minutes, source } = estimateMinutes(chosen.method, caps, policy);
  // An ATA firmware method refused only for the freeze lock: the plan says why it is still frozen.
  const frozenOut = !forced && !chosen.method.startsWith('ata-') && checks.some((c) => c.method.startsWith('ata-') && !c.check.usable && /frozen/.test(c.check.reason));
  const frozenWhy = frozenOut ? `the drive is frozen by the BIOS (freeze lock) and ${stillFrozenBecause(policy.unfreeze)}` : undefined;
  const why = forced
    ? `forced by operator/policy: ${info.technique}`
    : info.category === 'Purge'
      ? `strongest Purge the drive supports: ${info.technique}`
      : frozenWhy
        ? `${frozenWhy}, so Clear by overwrite`
        : 'no firmware Purge method can run on this drive, so Clear by overwrite';
  return {
    ok: true,
    method: chosen.method,
    label: nistLabel(info.category),
    category: info.category,
    technique: info.technique,
    command: info.command,
    ...(minutes !== undefined ? { expectedMinutes: minutes, durationSource: source } : {}),
    why,
    preconditions: hidden.preconditions,
    fullySanitized: hidden.fullySanitized,
    warnings: [
      ...chosen.check.warnings,
      ...hidden.warnings,
      ...(failedSanitize ? [FAILED_SANITIZE_WARNING] : []),
      ...(info.firmware ? [FIRMWARE_PROVEN_BY_MARKERS] : []),
      ...(chosen.method === 'overwrite' && caps.discard ? [caps.transport === 'mmc' ? DISCARD_BEFORE_OVERWRITE : DISCARD_AFTER_OVERWRITE] : []),
    ],
    rejected,
  };
}

/**
 * True when the drive is frozen and, were it not, the plan would erase it with an ATA firmware
 * method (or restore a DCO first, which a frozen drive may refuse too): the case a suspend and
 * resume can turn from Clear into Purge.
 */
export function unfreezeWouldHelp(caps: DriveCapabilities, policy: ErasePolicy = {}): boolean {
  const sec = caps.ataSecurity;
  if (!sec?.frozen) return false;
  const thawed = planErase({ ...caps, ataSecurity: { ...sec, frozen: false } }, policy);
  if (!thawed.ok) return false;
  const now = planErase(caps, policy);
  return (thawed.method.startsWith('ata-') && (!now.ok || now.method !== thawed.method)) || thawed.preconditions.includes('restore-dco');
}
