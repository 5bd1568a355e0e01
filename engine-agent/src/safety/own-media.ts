import type { SystemView } from '../adapters/system-view.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { guardTarget } from './guard.js';

/** The words of the boot medium's row (issue 30 item 7): shown, never a target. */
export const BOOT_MEDIUM_WORDS = 'boot medium: never erased';
/** The station's data volume, on the same terms. */
export const DATA_VOLUME_WORDS = 'data volume of this station: never erased';

/**
 * The drives with the machine's own media (the boot medium, the station's data volume) kept in
 * the list but without a plan: the kiosk shows them as a row that says what they are, the
 * operator cannot select them, and they are never erased or reported. The erase still guards
 * every target itself (erase-drive.ts); this only says it before anyone picks one.
 */
export async function markOwnMedia(sys: SystemView, drives: readonly DiscoveredDrive[]): Promise<DiscoveredDrive[]> {
  return Promise.all(
    drives.map(async (d) => {
      const verdict = await guardTarget(sys, d.device, [d.device]);
      if (verdict.ok || (verdict.code !== 'boot_medium' && verdict.code !== 'data_volume')) return d;
      const reason = verdict.code === 'boot_medium' ? BOOT_MEDIUM_WORDS : DATA_VOLUME_WORDS;
      return { ...d, ownMedium: reason, plan: { ok: false, reason, rejected: [] } };
    }),
  );
}
