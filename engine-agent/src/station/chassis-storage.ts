import type { Fingerprint, FingerprintDrive } from '@erasure/shared';
import type { Lane } from './lanes.js';

/**
 * Whether a slot is a hot-swap one, from what its lane already says. Spec 4.1 (`POST
 * /api/record`): the fingerprint's storage lists internal drives only, and on a station a drive
 * in a hot-swap slot is one passing through to be erased, not the chassis's own. Before the map
 * is known these are the slots that are hot-swap by construction:
 * - an SES enclosure slot: a backplane bay with an enclosure processor;
 * - an NVMe drive in a PCIe slot the firmware names (U.2/U.3 bays; an M.2 on the board has none);
 * - SAS, behind an expander or on an HBA phy: SAS slots are hot-plug by design;
 * - USB: a dock (discovery already counts it as external).
 * An AHCI port or a virtual SCSI target says nothing reliable (sysfs has no hot-plug flag for
 * them; the AHCI port register is firmware-dependent), so those stay until the map names them.
 */
export function isHotSwapLane(lane: Lane): boolean {
  const c = lane.connector;
  return c.enclosure !== undefined || c.pcie_slot !== undefined || c.transport === 'sas' || c.transport === 'usb';
}

/** The device node of a storage entry (`/dev/sdb`): the agent writes it, the contract leaves it open-ended. */
export function deviceOfEntry(d: FingerprintDrive): string | undefined {
  const device = (d as Record<string, unknown>).device;
  return typeof device === 'string' ? device : undefined;
}

/**
 * The station's chassis fingerprint: `storage` without the drives sitting in hot-swap slots or,
 * once the chassis map is known, in any of its bays (`bays`, by lane). `laneOf` gives each
 * storage entry's lane by its `device`; a drive without a lane (no bus path the station can map)
 * cannot be in a bay and stays. Everything else in the document is untouched.
 */
export function chassisFingerprint(fp: Fingerprint, laneOf: (device: string) => Lane | undefined, bays: ReadonlySet<string> = new Set()): Fingerprint {
  if (!fp.storage) return fp;
  const own = fp.storage.filter((d) => {
    const device = deviceOfEntry(d);
    const lane = device ? laneOf(device) : undefined;
    return !lane || !(isHotSwapLane(lane) || bays.has(lane.lane));
  });
  return own.length === fp.storage.length ? fp : { ...fp, storage: own };
}
