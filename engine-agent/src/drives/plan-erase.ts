import type { DriveCapabilities } from './capabilities.js';
import { checkMethod, ERASE_METHODS, METHOD_INFO, type EraseMethod, type NistCategory } from './erase-methods.js';

/** Operator or account policy for one drive's erase. */
export interface ErasePolicy {
  /** Use exactly this method; if it cannot run, there is no plan (fail closed). */
  readonly forceMethod?: EraseMethod;
  /** Accept that sanitize/format erases every namespace of a multi-namespace NVMe device. */
  readonly allowAllNamespaces?: boolean;
  /** Remove HPA/DCO before erasing (default true); false leaves the drive "not fully sanitized". */
  readonly restoreHiddenAreas?: boolean;
  /** Measured overwrite throughput for duration estimates, bytes/s (default: typical for the drive's medium and bus). */
  readonly overwriteBytesPerSecond?: number;
}

/** A step the driver must complete before the erase itself. */
export type ErasePrecondition = 'restore-hpa' | 'restore-dco';

/** A method that was not chosen, and why. */
export interface RejectedMethod {
  readonly method: EraseMethod;
  readonly reason: string;
}

/** The chosen erase, with everything the certificate needs to explain it. */
export interface ErasePlan {
  readonly ok: true;
  readonly method: EraseMethod;
  /** Wire `wipe_method`, e.g. "NIST 800-88 R2 Purge". */
  readonly label: string;
  readonly category: NistCategory;
  readonly technique: string;
  readonly command: string;
  readonly expectedMinutes?: number;
  /** `drive` when the drive reported the time itself, `estimate` otherwise. */
  readonly durationSource?: 'drive' | 'estimate';
  readonly why: string;
  readonly preconditions: readonly ErasePrecondition[];
  /** False when hidden areas stay in place: the certificate must not claim a full sanitization. */
  readonly fullySanitized: boolean;
  readonly warnings: readonly string[];
  readonly rejected: readonly RejectedMethod[];
}

/** No method can run under this policy. */
export interface NoErasePlan {
  readonly ok: false;
  readonly reason: string;
  readonly rejected: readonly RejectedMethod[];
}

const label = (category: NistCategory) => `NIST 800-88 R2 ${category}`;

/**
 * Typical sustained rates when none was measured (bytes/s): an HDD's outer-to-inner average, a
 * SATA SSD's, an NVMe SSD's, and what a USB bridge lets through.
 */
function typicalRate(caps: DriveCapabilities): number {
  if (caps.transport === 'usb') return 40e6;
  if (caps.transport === 'nvme') return 1.5e9;
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
  return { minutes: Math.max(1, Math.ceil(work / rate / 60)), source: 'estimate' };
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

/**
 * Chooses the strongest method the drive supports (NIST SP 800-88: Purge by the drive's own
 * sanitize or erase command, else Clear by overwrite), or the forced one, and explains every
 * method not chosen. Pure: the capabilities come from probes run earlier.
 */
export function planErase(caps: DriveCapabilities, policy: ErasePolicy = {}): ErasePlan | NoErasePlan {
  const checks = ERASE_METHODS.map((method) => ({ method, check: checkMethod(method, caps, policy) }));
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
  const why = forced
    ? `forced by operator/policy: ${info.technique}`
    : info.category === 'Purge'
      ? `strongest Purge the drive supports: ${info.technique}`
      : 'no firmware Purge method can run on this drive, so Clear by overwrite';
  return {
    ok: true,
    method: chosen.method,
    label: label(info.category),
    category: info.category,
    technique: info.technique,
    command: info.command,
    ...(minutes !== undefined ? { expectedMinutes: minutes, durationSource: source } : {}),
    why,
    preconditions: hidden.preconditions,
    fullySanitized: hidden.fullySanitized,
    warnings: [...chosen.check.warnings, ...hidden.warnings],
    rejected,
  };
}
