import type { DriveCapabilities } from './capabilities.js';

/**
 * Why a drive locked with a user password at security level "maximum" gets no erase (issue 30
 * item 1): a master password cannot unlock it, only start an erase nobody can prove, so without
 * the user password the exact result is `failed`, disposition `destroy`.
 */
export const MAXIMUM_LOCKED_WORDS = 'the drive is locked with a user password at security level "maximum": a master password cannot unlock it, and without the user password it cannot be erased and proven here. Destroy it.';

/** The words when `caps` is such a drive; undefined for any other. */
export function maximumLockedReason(caps: DriveCapabilities): string | undefined {
  const sec = caps.ataSecurity;
  return sec?.locked && sec.level === 'maximum' ? MAXIMUM_LOCKED_WORDS : undefined;
}
