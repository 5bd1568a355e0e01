import { describeSelfEncryption, sedLocked, type SelfEncryption } from '../probes/tcg-discovery.js';
import type { DriveCapabilities } from './capabilities.js';

/** The 32 characters printed on a self-encrypting drive's label (TCG: the Physical Security ID). */
export const PSID_PATTERN = /^[A-Z0-9]{32}$/;

/** Which tool of the image can PSID-revert this drive, or none. */
export type PsidReverter = 'nvme' | 'sedutil-cli' | 'none';

/** The step a person takes on another machine when this image has no tool for the drive. */
export const PSID_ELSEWHERE_STEP =
  'On a computer with sedutil-cli, run: sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID <the 32-character PSID from the label> <the drive>, then bring the drive back to be erased and certified.';

/**
 * The tool that can PSID-revert the drive, as its probe found the image: nvme-cli for NVMe; for
 * SATA and SAS sedutil-cli, which the probe asks first, so a drive read by `sg_raw` was read so
 * because this image has no sedutil-cli (it is not packaged in Debian), and nothing here reverts it.
 */
export function psidReverter(se: SelfEncryption | undefined): PsidReverter {
  if (se?.kind !== 'tcg') return 'none';
  if (se.tool === 'nvme sed discover') return 'nvme';
  return se.tool === 'sedutil-cli --query' ? 'sedutil-cli' : 'none';
}

/**
 * The plain-words reason a drive with a locked locking range gets no erase plan: every read and
 * write of the locked range fails, and the drive refuses its own sanitize and format while locked
 * (NVMe answers Command Sequence Error). Where the image can revert it, the kiosk offers the PSID
 * revert; where it cannot (a SATA or SAS drive, no sedutil-cli), the reason says where and how.
 * Undefined when the drive is not locked.
 */
export function sedLockedReason(caps: DriveCapabilities): string | undefined {
  if (!sedLocked(caps.selfEncryption)) return undefined;
  const locked = `the drive is ${describeSelfEncryption(caps.selfEncryption)}: its data cannot be read or written until it is unlocked`;
  if (psidReverter(caps.selfEncryption) === 'none') {
    return `${locked}, and this image has no tool that can PSID-revert a SATA or SAS drive (sedutil-cli): it needs a PSID revert on another computer, with the 32-character PSID printed on its label. ${PSID_ELSEWHERE_STEP}`;
  }
  return `${locked}; a PSID revert with the 32-character PSID printed on its label erases it and unlocks it`;
}
