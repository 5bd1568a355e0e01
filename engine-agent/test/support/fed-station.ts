import type { StationView } from '@erasure/shared';
import { StationController, type StationRuntimePorts } from '../../src/api/station-controller.js';
import type { Presence } from '../../src/station/debounce.js';

/** A slot of the simulated backplane: a virtio-scsi target as udev names it, with a loop device as its drive. */
export const idPathOf = (slot: number) => `pci-0000:00:03.0-scsi-0:0:${slot}:0`;
/** The connector of that slot's target. */
export const connectorOf = (slot: number) => ({ transport: 'scsi' as const, controller: '0000:00:03.0', target: `0:0:${slot}:0` });

/** A loop device stands in for a disk behind the virtio-scsi controller (virtual devices are not bays). */
const devpathOf = (device: string) => `/devices/pci0000:00/0000:00:03.0/virtio1/host0/block/${device.slice(5)}`;

/**
 * A station controller as serve builds it after unlock (policy auto-start), on the real `ports`
 * but with its udev presences fed by the test: `insert` seats a loop device in a slot as a settled
 * udev event, `pull` removes it. The udev monitor itself is tested with recorded udevadm output
 * in udev-monitor.test.ts. `onView` sees every view the controller announces.
 */
export function fedStation(ports: StationRuntimePorts, onView?: (view: StationView) => void) {
  let feed: (p: Presence) => void = () => undefined;
  const slotOf = new Map<string, number>();
  const controller: StationController = new StationController(
    {
      ...ports,
      watch: (onPresence) => {
        feed = onPresence;
        return { stop: async () => undefined, ended: new Promise(() => undefined) };
      },
      announcePresent: async () => undefined,
      // Loop devices have no bus path: each stands in for the target of a slot.
      laneOf: async (p) => {
        const slot = slotOf.get(p.event.devname ?? '');
        return slot === undefined ? undefined : { lane: idPathOf(slot), connector: connectorOf(slot) };
      },
    },
    'auto',
    onView ? () => onView(controller.view()) : () => undefined,
  );
  return {
    controller,
    /** Seats `drive` in `slot` (an insertion: udev `add`). */
    insert(slot: number, drive: { device: string }) {
      slotOf.set(drive.device, slot);
      const devpath = devpathOf(drive.device);
      feed({ devpath, present: true, event: { action: 'add', devpath, devname: drive.device, devtype: 'disk', seqnum: undefined, properties: { ID_PATH: idPathOf(slot) } } });
    },
    /** Pulls `drive` from its slot. */
    pull(drive: { device: string }) {
      feed({ devpath: devpathOf(drive.device), present: false });
    },
    /** The bay of that label, as the controller shows it now. */
    bay: (label: string) => controller.view().bays.find((b) => b.label === label),
  };
}
