/**
 * How a drive is attached when that changes what can be erased (issue 30 items 3 and 5): through
 * a USB bridge, or behind a RAID controller. `summary` is the plain words of the drive row;
 * `reportLine` goes on the wipe result (and so the Erasure Report); `details` are the lines
 * behind the row's Details disclosure.
 */
export interface DriveConnection {
  readonly kind: 'usb-bridge' | 'raid-passthrough' | 'raid-virtual-disk';
  readonly summary: string;
  readonly reportLine: string;
  readonly details: readonly string[];
}
