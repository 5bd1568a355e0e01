import { checkMarkers, plantMarkers, type MarkerCheck, type MarkerSet, type PlantResult } from './markers.js';
import { openMedium, type Medium } from './medium.js';

/**
 * Plants the markers on the device before its firmware erase. The device is opened (O_EXCL,
 * O_DIRECT) only for this and closed again, so the firmware tool finds it free. `beforeWrite`
 * sees the opened device before the first marker is written and stops the run by throwing (a
 * station bay checks it is still its drive). Open and I/O errors are thrown to the caller, which
 * tells a pulled drive from a busy or failing one.
 */
export async function plantMarkersOn(device: string, beforeWrite?: (medium: Medium) => Promise<void>): Promise<PlantResult> {
  const medium = await openMedium(device);
  try {
    await beforeWrite?.(medium);
    return await plantMarkers(medium);
  } finally {
    await medium.handle.close();
  }
}

/**
 * Reads the marker LBAs back after the firmware erase. A device that cannot be opened any more
 * proves nothing: every marker counts as unreadable, never as erased (fail closed).
 */
export async function checkMarkersOn(device: string, markers: MarkerSet): Promise<MarkerCheck> {
  let medium: Medium;
  try {
    medium = await openMedium(device);
  } catch {
    return { total: markers.lbas.length, survived: 0, unreadable: markers.lbas.length, filled: 0, sha256: '' };
  }
  try {
    return await checkMarkers(medium, markers);
  } finally {
    await medium.handle.close();
  }
}
