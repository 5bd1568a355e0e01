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

/**
 * Why a drive locked with an unknown user password (below level maximum) gets no plan here: a
 * locked drive aborts every read and write, so an overwrite would only fail with I/O errors nobody
 * can act on. Only its own security erase, opened with a master password, reaches it; so with the
 * account's master passwords (and the attempt counter not run out) it is planned for that erase,
 * and never for an overwrite. Undefined when the drive may be planned.
 */
export function unknownPasswordReason(caps: DriveCapabilities, policy: { readonly ataMasterPasswords?: boolean; readonly forceMethod?: string }): string | undefined {
  const sec = caps.ataSecurity;
  if (!sec?.locked || sec.level === 'maximum') return undefined;
  if (sec.countExpired) return 'the drive is locked with a user password, and has counted out its unlock attempts until it is power-cycled: nothing can be written to it now. Power-cycle it, then erase it again.';
  if (!policy.ataMasterPasswords) return "the drive is locked with a user password nobody here knows: nothing can be written to it until it is unlocked. An admin can set the fleet's ATA master passwords on the web app's Devices page, and they are then tried; or unlock it with its user password.";
  if (policy.forceMethod === 'overwrite') return "the drive is locked with a user password: an overwrite cannot write to it. Only its own security erase, opened with the account's master passwords, can erase it.";
  return undefined;
}
