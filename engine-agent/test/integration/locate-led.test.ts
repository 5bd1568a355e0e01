import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { locateAttribute, locatePorts } from '../../src/adapters/locate-led.js';
import { createRunner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A sysfs tree as the kernel lays out a SAS disk in SES slot 05 (and a disk with no enclosure). */
function sysfs(): string {
  root = mkdtempSync(join(tmpdir(), 'sysfs-'));
  const slot = join(root, 'sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/expander-0:0/port-0:0:12/end_device-0:0:12/target0:0:12/0:0:12:0/enclosure/0:0:12:0/Slot 05');
  mkdirSync(slot, { recursive: true });
  writeFileSync(join(slot, 'locate'), '0\n');
  const disk = join(root, 'sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/expander-0:0/port-0:0:5/end_device-0:0:5/target0:0:5/0:0:5:0');
  mkdirSync(disk, { recursive: true });
  symlinkSync(slot, join(disk, 'enclosure_device:Slot 05'));
  mkdirSync(join(root, 'sys/class/block'), { recursive: true });
  mkdirSync(join(disk, 'block/sdc'), { recursive: true });
  symlinkSync(join(disk, 'block/sdc'), join(root, 'sys/class/block/sdc'));
  symlinkSync(disk, join(disk, 'block/sdc/device'));
  mkdirSync(join(root, 'sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda'), { recursive: true });
  symlinkSync(join(root, 'sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda'), join(root, 'sys/class/block/sda'));
  return slot;
}

describe('locate LEDs of enclosure slots', () => {
  it('finds the SES slot locate attribute of a disk behind an enclosure', async () => {
    const slot = sysfs();
    expect(await locateAttribute(nodeSystemView(root), 'sdc')).toBe(`${slot.slice(root.length)}/locate`);
  });

  it('says there is none for a disk on a plain SATA port, so the bay view can tell the operator', async () => {
    sysfs();
    expect(await locateAttribute(nodeSystemView(root), 'sda')).toBeUndefined();
  });

  it('blinks: writes 1, then 0 after the blink time', async () => {
    const slot = sysfs();
    let wake: () => void = () => undefined;
    const sleep = () => new Promise<void>((r) => (wake = r));
    expect(await locatePorts({ sys: nodeSystemView(root), run: createRunner(), root, sleep }).locate({ device: '/dev/sdc' })).toBe(true);
    expect(readFileSync(join(slot, 'locate'), 'utf8')).toBe('1');
    wake();
    await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(join(slot, 'locate'), 'utf8')).toBe('0');
  });
});
