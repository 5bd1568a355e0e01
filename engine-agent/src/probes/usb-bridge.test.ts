import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { sysfsTree, type SysfsTree } from '../../test/support/sysfs-tree.js';
import type { ParseResult } from './parse-result.js';
import { parseSmartctlJsonText } from './smartctl-json.js';
import { parseSmartctlText } from './smartctl-text.js';
import { bridgeChip, bridgeConnectionLine, bridgeWords, readUsbBridge } from './usb-bridge.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

const USB_DEV = '/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1';

/** `sdb` on a UAS/BOT interface of USB device 2-1 with the given ids. */
function usbDisk(t: SysfsTree, ids?: { vendor: string; product: string; name?: string; maker?: string }): void {
  const dev = `${USB_DEV}/2-1:1.0/host6/target6:0:0/6:0:0:0`;
  t.file(`${dev}/block/sdb/size`, '0\n');
  t.link('/sys/block/sdb', `${dev}/block/sdb`);
  t.link(`${dev}/block/sdb/device`, dev);
  t.file(`${USB_DEV}/2-1:1.0/bInterfaceClass`, '08\n');
  if (ids) {
    t.file(`${USB_DEV}/idVendor`, `${ids.vendor}\n`);
    t.file(`${USB_DEV}/idProduct`, `${ids.product}\n`);
    if (ids.name) t.file(`${USB_DEV}/product`, `${ids.name}\n`);
    if (ids.maker) t.file(`${USB_DEV}/manufacturer`, `${ids.maker}\n`);
  }
}

describe('the USB bridge above a disk (sysfs idVendor/idProduct)', () => {
  let t: SysfsTree;
  afterEach(() => t.remove());

  it('names an ASMedia ASM2362 from 174c:2362 on the USB device above the disk', async () => {
    t = sysfsTree();
    usbDisk(t, { vendor: '174c', product: '2362', name: 'ASM236X series', maker: 'ASMedia' });
    const bridge = await readUsbBridge(t.sys, 'sdb', '', 'sntasmedia');
    expect(bridge).toEqual({ vendorId: '174c', productId: '2362', chip: 'ASMedia ASM2362', usbProduct: 'ASM236X series', usbManufacturer: 'ASMedia', smartctlType: 'sntasmedia' });
    expect(bridgeConnectionLine(bridge!, true)).toBe(
      'Connected through: ASMedia ASM2362 USB bridge (174c:2362); firmware erase not passed through: the bridge passes NVMe admin commands for SMART and identify only, not Format NVM or Sanitize; the plan falls back to an overwrite of every sector',
    );
  });

  it('an id not in the table still shows its ids and what the USB device calls itself', async () => {
    t = sysfsTree();
    usbDisk(t, { vendor: '1058', product: '25a2', name: 'Elements 25A2', maker: 'Western Digital' });
    const bridge = await readUsbBridge(t.sys, 'sdb', '', 'sat');
    expect(bridgeWords(bridge!)).toBe('Western Digital Elements 25A2 USB bridge (1058:25a2)');
    expect(bridgeConnectionLine(bridge!, false)).toBe('Connected through: Western Digital Elements 25A2 USB bridge (1058:25a2)');
  });

  it('a disk on a SATA port has no bridge', async () => {
    t = sysfsTree();
    const dev = '/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0';
    t.file(`${dev}/block/sda/size`, '0\n');
    t.link('/sys/block/sda', `${dev}/block/sda`);
    t.link(`${dev}/block/sda/device`, dev);
    expect(await readUsbBridge(t.sys, 'sda')).toBeUndefined();
  });

  it('a USB path without ids on the way names no bridge', async () => {
    t = sysfsTree();
    usbDisk(t);
    expect(await readUsbBridge(t.sys, 'sdb')).toBeUndefined();
  });
});

describe.skipIf(!fixturesPresent)(`bridge chips in the real smartctl outputs, over ${FIXTURES_SKIP_NOTE}`, () => {
  it('JMicron from smartctl -d usbjmicron (Hitachi HDS721050DLE630 in a dock)', () => {
    const r = ok(parseSmartctlJsonText(fixtureText('smartctl', 'hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json')));
    expect(r.viaUsbBridge).toBe(true);
    expect(bridgeChip({}, r.deviceType, r.model)).toBe('JMicron (chip not identified)');
    expect(bridgeChip({ vendorId: '152d', productId: '0578' }, r.deviceType, r.model)).toBe('JMicron JMS578');
  });

  it('ASMedia ASM109x from the model the bridge answers IDENTIFY with', () => {
    const r = ok(parseSmartctlText(fixtureText('smartctl', 'asmedia-asmt109x-bridge-masking-wd-m2-ssd-smartctl-x.txt')));
    expect(r.viaUsbBridge).toBe(true);
    expect(bridgeChip({}, r.deviceType, r.model)).toBe('ASMedia ASM109x');
  });

  it('ASMedia from -d sntasmedia (Samsung Portable SSD T7, NVMe behind the bridge)', () => {
    const r = ok(parseSmartctlText(fixtureText('smartctl', 'samsung-t7-portable-nvme-usb-asmedia-bridge-smartctl-d-sntasmedia-all.txt')));
    expect(r.model).toBe('Samsung Portable SSD T7');
    // The text output does not repeat -d; the capture's argv was `-d sntasmedia`.
    expect(bridgeChip({}, 'sntasmedia', r.model)).toBe('ASMedia (chip not identified)');
  });

  it('a plain -d sat bridge (SanDisk pSSD) names no chip without the USB ids', () => {
    const r = ok(parseSmartctlJsonText(fixtureText('smartctl', 'sandisk-pssd-sat-smartctl-a.json')));
    expect(r.deviceType).toBe('sat');
    expect(bridgeChip({}, r.deviceType, r.model)).toBeUndefined();
  });
});
