import { release } from 'node:os';
import { blockdev } from '../adapters/blockdev.js';
import type { SystemView } from '../adapters/system-view.js';
import { complaint, CommandLog, guarded, type DriverDeps } from './driver-kit.js';
import type { Medium } from './medium.js';

/** A whole-device discard can take minutes on a large SSD that trims synchronously. */
const DISCARD_TIMEOUT_MS = 30 * 60_000;

/** Whether the discard after the overwrite was done, in the words the Erasure Report prints. */
export interface DiscardOutcome {
  readonly done: boolean;
  readonly text: string;
  readonly commands: readonly string[];
}

/** `discard_max_bytes` of a whole disk: above 0 when the kernel will pass a discard (TRIM/UNMAP/DSM deallocate) to it. */
export async function discardMaxBytes(sys: SystemView, kernelName: string): Promise<number> {
  const text = await sys.readText(`/sys/block/${kernelName}/queue/discard_max_bytes`);
  const n = text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : 0;
  return Number.isSafeInteger(n) ? n : 0;
}

/** True when a kernel release string (`6.1.0-18-amd64`) is at least `major.minor`. */
export function kernelAtLeast(kernelRelease: string, major: number, minor: number): boolean {
  const m = /^(\d+)\.(\d+)/.exec(kernelRelease);
  if (!m) return false;
  const [maj, min] = [Number(m[1]), Number(m[2])];
  return maj > major || (maj === major && min >= minor);
}

/**
 * Whether the opened drive takes a secure discard (BLKSECDISCARD), asked without discarding
 * anything; undefined when that cannot be told (a file, a kernel before 5.19, an error).
 */
export function secureDiscardSupport(medium: Medium, kernelRelease = release()): boolean | undefined {
  if (medium.kind !== 'block' || !kernelAtLeast(kernelRelease, 5, 19)) return undefined;
  try {
    return blockdev().secureDiscardSupported(medium.handle.fd);
  } catch {
    return undefined;
  }
}

/** What the report says about a secure discard the drive supports: it was not used, and why. */
export const SECURE_DISCARD_NOT_USED =
  'the drive also supports secure discard (BLKSECDISCARD); it was not used as a Purge: a discard leaves no verifiable result, and the sanitization is the verified overwrite (NIST Clear)';

/**
 * After a verified overwrite, discards the whole device (`blkdiscard`, through the one runner, once
 * the erase has closed the device: blkdiscard opens it O_EXCL itself, so nothing can have claimed
 * it in between). This is housekeeping for the next owner (full write speed, no stale mapping in the
 * flash translation layer), never part of the sanitization: NIST's Clear is the overwrite. Any
 * device the kernel passes discards to gets it, whatever its `rotational` flag says: loop devices,
 * USB bridges and many virtual disks report 1 for flash, and an SMR disk that accepts TRIM has a
 * mapping to reset too. A failed discard is reported; it does not fail the erase.
 */
export async function discardAfterOverwrite(deps: DriverDeps & { readonly sys: SystemView }, device: string, kernelName: string, secure?: boolean): Promise<DiscardOutcome> {
  const secureNote = secure ? `; ${SECURE_DISCARD_NOT_USED}` : '';
  if ((await discardMaxBytes(deps.sys, kernelName)) === 0) return { done: false, text: `no discard (TRIM) afterwards: the drive does not support it${secureNote}`, commands: [] };
  const log = new CommandLog(deps);
  const result = await guarded(log, async () => {
    const r = await log.run('blkdiscard', [device], DISCARD_TIMEOUT_MS);
    if (r.exitCode === 0) return log.ok('discarded');
    return log.fail('command_failed', `the discard (TRIM) afterwards failed (${complaint(r)}); the drive is sanitized all the same`);
  }).catch((error: unknown) =>
    // Housekeeping after a verified erase: nothing it throws may turn the erase into a failure.
    log.fail('command_failed', `the discard (TRIM) afterwards failed (${(error as Error).message}); the drive is sanitized all the same`),
  );
  const text = result.ok
    ? 'afterwards the whole drive was discarded (TRIM, blkdiscard) so it reaches its next owner at full write speed; the discard is not part of the sanitization'
    : result.reason;
  return { done: result.ok, text: `${text}${secureNote}`, commands: log.commands };
}

/**
 * An eMMC or SD card is discarded as a whole before its overwrite, not after (issue 30 item 4): the
 * card's erase can reach blocks an overwrite through its translation layer cannot, and what the card
 * leaves after an erase (0x00 or 0xFF, its own choice) is then overwritten, so the card ends in the
 * verified pattern that a later validation expects. Still not the sanitization: that is the overwrite.
 */
export async function discardBeforeOverwrite(deps: DriverDeps & { readonly sys: SystemView }, device: string, kernelName: string): Promise<DiscardOutcome> {
  if ((await discardMaxBytes(deps.sys, kernelName)) === 0) return { done: false, text: 'no discard before the overwrite: the card does not support it', commands: [] };
  const log = new CommandLog(deps);
  const result = await guarded(log, async () => {
    const r = await log.run('blkdiscard', [device], DISCARD_TIMEOUT_MS);
    return r.exitCode === 0 ? log.ok('discarded') : log.fail('command_failed', `the discard before the overwrite failed (${complaint(r)}); the overwrite went ahead`);
  }).catch((error: unknown) => log.fail('command_failed', `the discard before the overwrite failed (${(error as Error).message}); the overwrite went ahead`));
  const text = result.ok
    ? 'before the overwrite the whole card was discarded (blkdiscard: the card erases or unmaps every block, which can reach blocks an overwrite does not); the discard is not part of the sanitization'
    : result.reason;
  return { done: result.ok, text, commands: log.commands };
}
