/**
 * How a drive is attached when that changes what can be erased (issue 30 items 3 and 5): through
 * a USB bridge, or behind a RAID controller. `summary` is the plain words of the drive row;
 * `reportLine` goes on the wipe result (and so the Erasure Report); `details` are the lines
 * behind the row's Details disclosure.
 */
export interface DriveConnection {
  /** `mmc-card`: an eMMC or SD card (issue 30 item 4), named on the row in plain words. */
  readonly kind: 'usb-bridge' | 'raid-passthrough' | 'raid-virtual-disk' | 'mmc-card';
  readonly summary: string;
  readonly reportLine: string;
  readonly details: readonly string[];
  /**
   * A virtual disk's physical disks the controller does not expose: each gets its own not-erased
   * row and wipe result (issue 30 item 7). `through`/`deviceType` name where smartctl reached it.
   */
  /**
   * The serial the wipe result carries instead of the drive's own: a virtual disk that answers
   * with its member's serial (QEMU's megasas) certifies as `<serial> (RAID virtual disk)`.
   */
  readonly serial?: string;
  readonly hidden?: ReadonlyArray<{ readonly through: string; readonly deviceType: string; readonly model?: string; readonly serial?: string; readonly capacityBytes?: number; readonly reason: string }>;
}
