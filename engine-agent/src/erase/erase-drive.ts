import { splitDevT, type SystemView } from '../adapters/system-view.js';
import { METHOD_INFO, type EraseMethod } from '../drives/erase-methods.js';
import { nistLabel, type ErasePrecondition } from '../drives/plan-erase.js';
import { driveChanged, type DriveIdentity } from '../probes/drive-identity.js';
import { guardTarget } from '../safety/guard.js';
import { ataSanitize, ataSecureErase } from './ata.js';
import { unlockWithMaster, type AtaMasterPasswords, type MasterUnlock } from './ata-master-unlock.js';
import { describeCapacityChanges, kernelMissesRestored, logicalSectorSize, restoreHiddenAreas } from './hidden-areas.js';
import type { DriverDeps, DriverResult } from './driver-kit.js';
import { discardAfterOverwrite, discardBeforeOverwrite, secureDiscardSupport } from './discard.js';
import { isMmcCard } from '../probes/mmc-card.js';
import { checkMarkersOn, plantMarkersOn } from './firmware-proof.js';
import { describeMarkers, markersGone, MARKER_COUNT, type PlantResult } from './markers.js';
import { MediumOpenError, openMedium, type Medium } from './medium.js';
import { DEFAULT_FIRMWARE_TIMING, nvmeFormat, nvmeSanitize, type FirmwareTiming } from './nvme.js';
import { overwriteAndVerify, type OverwriteScheme } from './overwrite-verify.js';
import { writePass } from './overwrite.js';
import type { Pattern } from './pattern.js';
import { readBackAfterFirmware } from './firmware-readback.js';
import type { DriveHealth, ThroughputProfile, VerificationLevel } from '@erasure/shared';
import type { IoTuning, ProgressSink } from './progress.js';
import { scsiSanitize } from './scsi.js';
import { mmcErase } from './mmc.js';

/** One drive to erase, as the session hands it over. */
export interface EraseRequest {
  readonly device: string;
  readonly method: EraseMethod;
  readonly preconditions?: readonly ErasePrecondition[];
  /** Every device the operator selected; anything else is refused. */
  readonly selected: readonly string[];
  /** Simulate mode: the targets are files under DATA_DIR, so the block-device guard does not apply. */
  readonly simulated?: boolean;
  readonly overwrite?: OverwriteScheme;
  /** A named method's overwrite passes (issue 29); absent: the `overwrite` scheme (one zero pass). */
  readonly passes?: readonly Pattern[];
  /**
   * How much is read back: of an overwrite, its last pass (full or an N % sample) or every pass;
   * of a firmware erase, a read-back of the medium besides the markers. Absent: today's full
   * read-back of an overwrite, and the markers alone after a firmware erase.
   */
  readonly verification?: VerificationLevel;
  /** A method that overwrites before its firmware erase (BSI-GS): these passes first, unverified. */
  readonly passesBeforeFirmware?: readonly Pattern[];
  /** The account's ATA master passwords (issue 30 item 1): tried on a drive locked with an unknown user password. */
  readonly ataMasterPasswords?: AtaMasterPasswords;
  /**
   * Discard the whole drive before its overwrite instead of after it (issue 30 item 4). Absent: an
   * eMMC or SD card (kernel name `mmcblkN`) is discarded first, any other drive afterwards.
   */
  readonly discardFirst?: boolean;
}

/** Ports of the erase step. */
export interface EraseDeps extends DriverDeps {
  readonly sys: SystemView;
  readonly now: () => Date;
  readonly onProgress?: ProgressSink;
  readonly firmwareTiming?: FirmwareTiming;
  readonly tuning?: Partial<IoTuning>;
  /**
   * Stops the erase: a station aborts it when the drive is pulled out of its bay
   * (`REMOVED_DURING_ERASE`) or when the operator cancels it (`CANCELLED_BY_OPERATOR`); the
   * abort reason becomes the failure's code and text.
   */
  readonly signal?: AbortSignal;
  /**
   * A station bay's drive as the bay probed it. Right before the first write (the HPA restore,
   * the firmware command, the overwrite's open device) the node is read again; gone or another
   * disk, the erase stops as `removed`, having written nothing.
   */
  readonly boundTo?: DriveIdentity;
  /** Test seam: awaited after each overwrite pass is durable (see `OverwriteOptions.afterPass`). */
  readonly afterPass?: (pass: number, pattern: Pattern) => Promise<void>;
}

/** The device node no longer names the disk the bay probed (the erase's own pull-out check). */
export class DriveReplacedError extends Error {
  readonly code = 'removed';
  constructor(readonly why: string) {
    super(why);
    this.name = 'DriveReplacedError';
  }
}

/** What happened to one drive, with everything the wipe result and certificate need. */
export interface EraseOutcome {
  readonly device: string;
  readonly method: EraseMethod;
  readonly ok: boolean;
  /** True when the drive was refused before anything was written. */
  readonly refused: boolean;
  readonly failureCode?: string;
  readonly startedAt: string;
  readonly completedAt: string;
  /** Overwrite passes written; null for firmware erases (spec 2: null for crypto and block erase). */
  readonly passes: number | null;
  readonly verificationHash?: string;
  readonly verification: string;
  readonly commands: readonly string[];
  readonly bytesWritten?: number;
  /**
   * The certificate's method and technique when they are not the plan's: a firmware erase its
   * markers disproved, then the overwrite that followed (`method` is then `overwrite`).
   */
  readonly certifiedAs?: { readonly label: string; readonly technique: string };
  /** The drive's size once an HPA/DCO was removed (the certificate's capacity is then this one). */
  readonly restoredSizeBytes?: number;
  /** The overwrite's speed profile (first pass) and write errors of all passes: the health grade's evidence. */
  readonly writeProfile?: ThroughputProfile;
  /** An erased drive's SMART before and after, and its resale grade (added by health/erase-health.ts). */
  readonly health?: DriveHealth;
  /** A drive that cannot be erased here and why it should go: `destroy` for a maximum-level ATA lock. */
  readonly disposition?: 'review' | 'destroy';
}

/** How the marker step shows among the commands (the wipe result's tool components). */
const MARKER_COMMAND = `test patterns: direct-I/O write and read-back of ${MARKER_COUNT} random blocks before the firmware erase, read again after it`;

async function firmwareErase(deps: EraseDeps, device: string, method: EraseMethod, timing: FirmwareTiming, master?: string): Promise<DriverResult> {
  switch (method) {
    case 'nvme-sanitize-crypto':
      return nvmeSanitize(deps, device, 'crypto', timing);
    case 'nvme-sanitize-block':
      return nvmeSanitize(deps, device, 'block', timing);
    case 'nvme-sanitize-overwrite':
      return nvmeSanitize(deps, device, 'overwrite', timing);
    case 'nvme-format-crypto':
      return nvmeFormat(deps, device, 2, timing);
    case 'nvme-format-user-data':
      return nvmeFormat(deps, device, 1, timing);
    case 'ata-sanitize-crypto':
      return ataSanitize(deps, device, 'crypto', timing);
    case 'ata-sanitize-block':
      return ataSanitize(deps, device, 'block', timing);
    case 'ata-sanitize-overwrite':
      return ataSanitize(deps, device, 'overwrite', timing);
    case 'ata-secure-erase-enhanced':
      return ataSecureErase(deps, device, true, timing, undefined, master);
    case 'ata-secure-erase':
      return ataSecureErase(deps, device, false, timing, undefined, master);
    case 'scsi-sanitize-crypto':
      return scsiSanitize(deps, device, 'crypto', timing);
    case 'scsi-sanitize-block':
      return scsiSanitize(deps, device, 'block', timing);
    case 'scsi-sanitize-overwrite':
      return scsiSanitize(deps, device, 'overwrite', timing);
    case 'mmc-sanitize':
      return mmcErase(deps, device, 'sanitize', timing);
    case 'mmc-secure-erase':
      return mmcErase(deps, device, 'secure-erase', timing);
    case 'mmc-secure-trim':
      return mmcErase(deps, device, 'secure-trim', timing);
    case 'overwrite':
      throw new Error('overwrite is not a firmware method');
  }
}

/**
 * Erases one drive: safety guard first (nothing is touched on a refusal), hidden-area removal,
 * then the method, then verification. A firmware erase is proven by markers: random blocks
 * written at 256 LBAs before it must all be gone after it; one that survives disproves it, and
 * the drive is erased by overwrite instead (Clear, never Purge on the firmware's word). A verified
 * overwrite is followed by a whole-device discard where the drive supports it. Expected failures
 * are values; only broken invariants throw.
 */
export async function eraseDrive(req: EraseRequest, deps: EraseDeps): Promise<EraseOutcome> {
  const startedAt = deps.now().toISOString();
  const base = { device: req.device, method: req.method, startedAt };
  // Set once hidden areas were removed: the report then says the capacity before and after.
  let restored: { note: string; sizeBytes?: number } | undefined;
  const end = (rest: Omit<EraseOutcome, 'device' | 'method' | 'startedAt' | 'completedAt'>): EraseOutcome => ({
    ...base,
    completedAt: deps.now().toISOString(),
    ...rest,
    ...(restored && rest.ok ? { verification: `${restored.note}. ${rest.verification}`, ...(restored.sizeBytes ? { restoredSizeBytes: restored.sizeBytes } : {}) } : {}),
  });
  const stopped = (commands: readonly string[], passes: number | null = null) => {
    const reason = String(deps.signal?.reason ?? 'aborted');
    const how = commands.length === 0 ? 'stopped before anything was written' : 'the erase was stopped before it completed';
    return end({ ok: false, refused: false, failureCode: stopCodeOf(deps.signal?.reason), passes, verification: `${reason}: ${how}`, commands });
  };
  // Before the guard: a drive pulled while its bay checked in has no device node any more, and
  // the guard would call that "not selected" instead of what happened to it.
  if (deps.signal?.aborted) return stopped([]);
  if (req.simulated ? !req.selected.includes(req.device) : false) {
    return end({ ok: false, refused: true, failureCode: 'not_selected', passes: null, verification: `${req.device} was not selected`, commands: [] });
  }
  // The kernel name of the guarded disk, for its sysfs queue limits (discard); none in simulate mode.
  let kernelName: string | undefined;
  if (!req.simulated) {
    const verdict = await guardTarget(deps.sys, req.device, req.selected);
    if (!verdict.ok) {
      // The node went between the check-in and the erase, before udev's remove settled: the guard
      // saw the pull-out first (the same rule as an I/O error on a vanished node). Nothing was written.
      if (deps.signal && (await deps.sys.deviceNumber(req.device)) === undefined && (await deps.sys.realPath(req.device)) === undefined) {
        return end({ ok: false, refused: true, failureCode: 'removed', passes: null, verification: `${REMOVED_DURING_ERASE}: ${req.device} is gone, nothing was written`, commands: [] });
      }
      return end({ ok: false, refused: true, failureCode: verdict.code, passes: null, verification: `refused: ${verdict.reason}`, commands: [] });
    }
    kernelName = verdict.kernelName;
  }
  const commands: string[] = [];
  const timing = deps.firmwareTiming ?? DEFAULT_FIRMWARE_TIMING;
  // A station bay's drive is pulled, and its name given to the next disk seated (maybe in another
  // bay), in the time the guard and the check-in take: it must still be the drive its bay probed.
  const boundTo = req.simulated ? undefined : deps.boundTo;
  const replaced = (why: string) =>
    end({ ok: false, refused: commands.length === 0, failureCode: 'removed', passes: null, verification: `${REMOVED_DURING_ERASE}: ${why}; ${commands.length === 0 ? 'nothing was written' : 'stopped before the erase command'}`, commands: [...commands] });
  const changed = async () => (boundTo ? driveChanged(deps.sys, boundTo) : undefined);
  const before = await changed();
  if (before) return replaced(before);
  if (req.preconditions?.length) {
    const hidden = await restoreHiddenAreas(deps, req.device, req.preconditions, timing);
    commands.push(...hidden.commands);
    if (!hidden.ok) return end({ ok: false, refused: false, failureCode: hidden.code, passes: null, verification: hidden.reason, commands });
    const missed = req.method === 'overwrite' && !req.simulated ? await kernelMissesRestored(deps.sys, req.device, hidden.changes) : undefined;
    if (missed) return end({ ok: false, refused: false, failureCode: 'not_verified', passes: null, verification: `not erased: ${missed}`, commands });
    const sectorSize = await logicalSectorSize(deps.sys, req.device);
    const note = describeCapacityChanges(hidden.changes, sectorSize);
    const last = hidden.changes[hidden.changes.length - 1];
    if (note) restored = { note, ...(last && sectorSize ? { sizeBytes: last.afterSectors * sectorSize } : {}) };
  }
  // The overwrite, as the plan's method or as the fallback of a disproved firmware erase. A drive
  // that supports discard is then discarded as a whole (not part of the sanitization).
  const overwrite = async (): Promise<EraseOutcome> => {
    const profiles: ThroughputProfile[] = [];
    const outcome = await overwriteRun((_pass, p) => profiles.push(p));
    return profiles.length > 0 ? { ...outcome, writeProfile: firstPassProfile(profiles) } : outcome;
  };
  const overwriteRun = async (onProfile: (pass: number, p: ThroughputProfile) => void): Promise<EraseOutcome> => {
    const discardFirst = kernelName !== undefined && (req.discardFirst ?? isMmcCard(kernelName));
    const first = discardFirst && kernelName ? await discardBeforeOverwrite(deps, req.device, kernelName) : undefined;
    const done = [...commands, ...(first?.commands ?? []), METHOD_INFO.overwrite.command];
    // Asked on the opened device, which the overwrite holds O_EXCL: only to say it was not used.
    let secure: boolean | undefined;
    const beforeWrite = async (medium: Medium) => {
      secure = secureDiscardSupport(medium);
      if (boundTo) await checkOpened(deps.sys, boundTo, medium);
    };
    try {
      const r = await overwriteAndVerify(req.device, req.passes ?? req.overwrite ?? 'zero', {
        onProgress: deps.onProgress,
        tuning: deps.tuning,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(req.verification ? { verification: req.verification } : {}),
        ...(deps.afterPass ? { afterPass: deps.afterPass } : {}),
        beforeWrite,
        onPassProfile: onProfile,
      });
      if (deps.signal?.aborted) return stopped(done);
      const discard = r.verified && kernelName && !discardFirst ? await discardAfterOverwrite(deps, req.device, kernelName, secure) : undefined;
      const verification = [r.summary, first?.text, discard?.text].filter(Boolean).join('; ');
      return end({ ok: r.verified, refused: false, ...(r.verified ? {} : { failureCode: 'not_verified' }), passes: r.passes, verificationHash: r.sha256, verification, commands: [...done, ...(discard?.commands ?? [])], bytesWritten: r.bytesWritten });
    } catch (error) {
      if (error instanceof DriveReplacedError) return replaced(error.why);
      if (deps.signal?.aborted) return stopped(done);
      // A drive pulled out of its bay fails its writes before udev has told anyone it left.
      if (await vanished(deps, req.device)) {
        return end({ ok: false, refused: false, failureCode: 'removed', passes: null, verification: `${REMOVED_DURING_ERASE}: ${(error as Error).message}`, commands: done });
      }
      // EBUSY from the O_EXCL open: something claimed the disk after the guard ran.
      const busy = error instanceof MediumOpenError && error.code === 'EBUSY';
      return end({ ok: false, refused: busy && commands.length === 0, failureCode: busy ? 'in_use' : 'io_error', passes: null, verification: `overwrite failed: ${(error as Error).message}`, commands: [...commands] });
    }
  };
  if (req.method === 'overwrite') return overwrite();
  // The HPA restore took its time: the same two checks again, right before the first marker.
  if (deps.signal?.aborted) return stopped(commands);
  const late = commands.length > 0 ? await changed() : undefined;
  if (late) return replaced(late);
  const unlock = await openLockedAta(req, deps, timing);
  // A drive that was not locked needed no unlock: its one look (hdparm -I) is not part of the erase.
  if (unlock && !(unlock.ok && unlock.notLocked)) commands.push(...unlock.commands);
  if (unlock && !unlock.ok) return end({ ok: false, refused: false, failureCode: unlock.code, passes: null, verification: `not erased: ${unlock.reason}`, commands, disposition: unlock.disposition });
  const master = unlock && !unlock.notLocked ? unlock.password : undefined;
  // Markers first: the firmware's word is never taken for the erase (issue 21).
  let planted: PlantResult;
  try {
    const beforeWrite = boundTo ? (medium: Medium) => checkOpened(deps.sys, boundTo, medium) : undefined;
    if (req.passesBeforeFirmware?.length) {
      // BSI-GS: the overwrite comes first; the markers then prove the firmware erase that follows it.
      await overwriteOnly(req.device, req.passesBeforeFirmware, { ...deps, ...(beforeWrite ? { beforeWrite } : {}) });
      commands.push(`${METHOD_INFO.overwrite.command}: ${req.passesBeforeFirmware.length} pass(es) before the firmware erase`);
    }
    planted = await plantMarkersOn(req.device, beforeWrite);
  } catch (error) {
    if (error instanceof DriveReplacedError) return replaced(error.why);
    if (deps.signal?.aborted) return stopped(commands);
    if (await vanished(deps, req.device)) {
      return end({ ok: false, refused: false, failureCode: 'removed', passes: null, verification: `${REMOVED_DURING_ERASE}: ${(error as Error).message}`, commands });
    }
    const busy = error instanceof MediumOpenError && error.code === 'EBUSY';
    return end({ ok: false, refused: busy && commands.length === 0, failureCode: busy ? 'in_use' : 'io_error', passes: null, verification: `the test patterns that prove the erase could not be written (${(error as Error).message}); the firmware erase was not started`, commands });
  }
  commands.push(MARKER_COMMAND);
  if (!planted.ok) return end({ ok: false, refused: false, failureCode: 'not_verified', passes: null, verification: `${planted.reason}: the erase could not be proven, so the firmware erase was not started`, commands });
  if (deps.signal?.aborted) return stopped(commands);
  const result = await firmwareErase(deps, req.device, req.method, timing, master);
  commands.push(...result.commands);
  // A firmware erase runs inside the drive and cannot be stopped: a cancel that came once its
  // command was out changed nothing, so the drive's own outcome is reported (a purged drive is
  // never reported as cancelled). A drive pulled meanwhile still failed.
  const cancelledLate = deps.signal?.aborted === true && stopCodeOf(deps.signal.reason) === 'cancelled';
  if (deps.signal?.aborted && !cancelledLate) return stopped(commands);
  const tooLate = cancelledLate ? `; ${CANCELLED_BY_OPERATOR} after the firmware erase had started, which cannot be stopped` : '';
  if (!result.ok) return end({ ok: false, refused: false, failureCode: result.code, passes: null, verification: `${result.reason}${tooLate}`, commands });
  const technique = METHOD_INFO[req.method].technique;
  const check = await checkMarkersOn(req.device, planted.markers);
  // The level's read-back of the medium, once the markers are gone (issue 29): one pattern, or
  // random-looking data after a crypto erase; anything else disproves the erase as a marker does.
  const readback = markersGone(check) && req.verification ? await firmwareReadback(req.device, req.method, req.verification, deps) : undefined;
  if (markersGone(check) && (!readback || readback.ok)) {
    // The proof first: the certificate prints the beginning of this text on one line.
    const read = readback ? `; ${readback.text}` : '';
    const passes = req.passesBeforeFirmware?.length ?? null;
    return end({ ok: true, refused: false, passes, verification: `${describeMarkers(check)}${read}; ${technique}: ${result.detail}${tooLate}`, commands, verificationHash: check.sha256 });
  }
  // The drive said it erased, and did not: it fails the firmware step and is never certified on
  // its word. It is erased by overwrite instead (Clear), both steps on the certificate.
  const disproved = readback && !readback.ok
    ? `${technique} reported success (${result.detail}) and ${describeMarkers(check)}, but ${readback.text}, so the drive did not erase itself`
    : `${technique} reported success (${result.detail}), but ${describeMarkers(check)}, so the drive did not erase itself`;
  if (cancelledLate) {
    return end({ ok: false, refused: false, failureCode: 'cancelled', passes: null, verification: `The firmware erase failed and the drive is NOT erased: ${disproved}; ${CANCELLED_BY_OPERATOR}, so no overwrite followed`, commands });
  }
  const fallback = await overwrite();
  return {
    ...fallback,
    method: 'overwrite',
    certifiedAs: { label: nistLabel(METHOD_INFO.overwrite.category), technique: `${METHOD_INFO.overwrite.technique}, after ${technique} failed its check` },
    verification: `${fallback.ok ? 'Firmware erase failed: overwritten.' : 'Firmware erase failed, and the overwrite that followed failed too.'} ${disproved}. Overwrite: ${fallback.verification}`,
  };
}

/**
 * An ATA Security Erase of a drive locked with a user password nobody knows: a master password
 * unlocks it first, since the markers that prove the erase must be written to a readable drive.
 */
async function openLockedAta(req: EraseRequest, deps: EraseDeps, timing: FirmwareTiming): Promise<MasterUnlock | undefined> {
  if (!req.ataMasterPasswords || !req.method.startsWith('ata-secure-erase')) return undefined;
  return unlockWithMaster(deps, req.device, req.ataMasterPasswords, timing);
}

/** The first pass's rates (the drive as it came in), with the write errors of every pass. */
function firstPassProfile(profiles: readonly ThroughputProfile[]): ThroughputProfile {
  const first = profiles[0] as ThroughputProfile;
  const sum = (key: 'ioErrors' | 'retries') => profiles.reduce((n, p) => n + p[key], 0);
  return { ...first, ioErrors: sum('ioErrors'), retries: sum('retries') };
}

/** The reason a drive that left mid-erase is reported with. */
export const REMOVED_DURING_ERASE = 'removed during erase';

/** The reason an erase the operator cancelled is reported with. */
export const CANCELLED_BY_OPERATOR = 'cancelled by the operator';

/**
 * The failure code of a stopped erase, from the abort's reason: a pull-out is `removed` (its
 * result is `failed`), an operator's cancel `cancelled` (its result is `cancelled`, spec 2).
 */
function stopCodeOf(reason: unknown): 'removed' | 'cancelled' | 'aborted' {
  if (reason === REMOVED_DURING_ERASE) return 'removed';
  if (reason === CANCELLED_BY_OPERATOR) return 'cancelled';
  return 'aborted';
}

/**
 * The overwrite's own check, on the device it opened (O_EXCL) and before its first write: the
 * open file's dev_t is the bound one and the node still names that disk. Checked after the open,
 * so no swap can slip in between the check and the open.
 */
async function checkOpened(sys: SystemView, bound: DriveIdentity, medium: Medium): Promise<void> {
  if (medium.kind !== 'block') return;
  const opened = splitDevT((await medium.handle.stat({ bigint: true })).rdev);
  const why = opened !== bound.devT ? `${bound.device} opened device ${opened}, not ${bound.devT}` : await driveChanged(sys, bound);
  if (why) throw new DriveReplacedError(why);
}

/** True when the device node went away within a couple of seconds of an I/O error: the drive was pulled. */
async function vanished(deps: EraseDeps, device: string): Promise<boolean> {
  for (let i = 0; i < 10; i++) {
    if ((await deps.sys.deviceNumber(device)) === undefined) return true;
    await deps.sleep(200);
  }
  return false;
}

/** The passes a method writes before its firmware erase (BSI-GS), each made durable; unverified (the firmware erase follows). */
async function overwriteOnly(device: string, patterns: readonly Pattern[], deps: EraseDeps & { beforeWrite?: (medium: Medium) => Promise<void> }): Promise<void> {
  const medium = await openMedium(device);
  try {
    await deps.beforeWrite?.(medium);
    for (const [index, pattern] of patterns.entries()) {
      await writePass(medium, pattern, { pass: index + 1, ...(deps.tuning ? { tuning: deps.tuning } : {}), ...(deps.onProgress ? { onProgress: deps.onProgress } : {}), ...(deps.signal ? { signal: deps.signal } : {}) });
      await deps.afterPass?.(index + 1, pattern);
    }
  } finally {
    await medium.handle.close();
  }
}

/** A firmware erase's read-back at the level asked, in a customer's words. */
async function firmwareReadback(device: string, method: EraseMethod, level: VerificationLevel, deps: EraseDeps): Promise<{ ok: boolean; text: string }> {
  const percent = typeof level === 'object' ? level.sample : 100;
  try {
    const r = await readBackAfterFirmware(device, percent, /crypto/.test(method), { ...(deps.tuning ? { tuning: deps.tuning } : {}), ...(deps.onProgress ? { onProgress: deps.onProgress } : {}), ...(deps.signal ? { signal: deps.signal } : {}) });
    const what = percent === 100 ? `full read-back: all ${r.blocksRead} blocks of ${r.blockBytes} bytes read` : `${percent}% sampled read-back: ${r.blocksRead} of ${r.blocks} blocks of ${r.blockBytes} bytes, picked at random in each 1/100 of the drive`;
    return { ok: r.ok, text: `${what}; ${r.showed}` };
  } catch (error) {
    return { ok: false, text: `the read-back after the firmware erase could not be done (${(error as Error).message})` };
  }
}
