import { describeSelfEncryption, sedLocked } from '../probes/tcg-discovery.js';
import type { DriveCapabilities } from './capabilities.js';

/** The 32 characters printed on a self-encrypting drive's label (TCG: the Physical Security ID). */
export const PSID_PATTERN = /^[A-Z0-9]{32}$/;

/** Which tool of the image can PSID-revert this drive, or none. */
export type PsidReverter = 'nvme' | 'sedutil-cli' | 'none';

/**
 * The plain-words reason a drive with a locked locking range gets no erase plan: every read and
 * write of the locked range fails, and the drive refuses its own sanitize and format while locked
 * (NVMe answers Command Sequence Error). Undefined when the drive is not locked.
 */
export function sedLockedReason(caps: DriveCapabilities): string | undefined {
  if (!sedLocked(caps.selfEncryption)) return undefined;
  return `the drive is ${describeSelfEncryption(caps.selfEncryption)}: its data cannot be read or written until it is unlocked; a PSID revert with the 32-character PSID printed on its label erases it and unlocks it`;
}
