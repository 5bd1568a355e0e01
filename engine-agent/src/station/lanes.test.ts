import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import type { SysfsReader } from '../probes/sysfs-block.js';
import { laneFromIdPath, resolveLane } from './lanes.js';

describe('lanes: the stable physical identity of a slot', () => {
  it('names a SATA bay by its AHCI controller and port', () => {
    expect(laneFromIdPath('pci-0000:00:1f.2-ata-3.0')).toEqual({ lane: 'pci-0000:00:1f.2-ata-3.0', connector: { transport: 'sata', controller: '0000:00:1f.2', port: '3' } });
  });

  it('keeps the port multiplier port of a SATA bay behind a PMP', () => {
    expect(laneFromIdPath('pci-0000:00:1f.2-ata-2.3')?.connector.port).toBe('2.3');
  });

  it('names a SAS bay behind an expander by the expander and its phy', () => {
    expect(laneFromIdPath('pci-0000:03:00.0-sas-exp0x500605b0000272bf-phy5-lun-0')?.connector).toEqual({ transport: 'sas', controller: '0000:03:00.0', expander: '0x500605b0000272bf', phy: 5 });
  });

  it('names a direct-attached SAS bay by the HBA phy', () => {
    expect(laneFromIdPath('pci-0000:03:00.0-sas-phy2-lun-0')?.connector).toEqual({ transport: 'sas', controller: '0000:03:00.0', phy: 2 });
  });

  it('names an NVMe bay by its controller, the same whichever namespace is seen', () => {
    expect(laneFromIdPath('pci-0000:02:00.0-nvme-1')).toEqual({ lane: 'pci-0000:02:00.0-nvme', connector: { transport: 'nvme', controller: '0000:02:00.0' } });
    expect(laneFromIdPath('pci-0000:02:00.0-nvme-2')?.lane).toBe('pci-0000:02:00.0-nvme');
  });

  it('names a USB dock bay by its port path', () => {
    expect(laneFromIdPath('pci-0000:00:14.0-usb-0:3.2:1.0-scsi-0:0:0:0')?.connector).toEqual({ transport: 'usb', controller: '0000:00:14.0', usb_path: '0:3.2:1.0', target: '0:0:0:0' });
  });

  it('names a virtio-scsi target as QEMU presents it', () => {
    expect(laneFromIdPath('pci-0000:00:03.0-scsi-0:0:1:0')?.connector).toEqual({ transport: 'scsi', controller: '0000:00:03.0', target: '0:0:1:0' });
  });

  it('maps no lane for a device without a bus path (device-mapper, loop)', () => {
    expect(laneFromIdPath(undefined)).toBeUndefined();
    expect(laneFromIdPath('platform-ahci-ata-1')).toBeUndefined();
  });

  it.skipIf(!fixturesPresent)(`reads the lane of a real VMware virtual SCSI disk from its udevadm properties (${FIXTURES_SKIP_NOTE})`, () => {
    const text = fixtureText('misc', 'vmware-virtual-scsi-disk-udevadm-info.txt');
    const idPath = /^E: ID_PATH=(.+)$/m.exec(text)?.[1];
    expect(laneFromIdPath(idPath)).toEqual({ lane: 'pci-0000:00:10.0-scsi-0:0:0:0', connector: { transport: 'scsi', controller: '0000:00:10.0', target: '0:0:0:0' } });
  });
});

/** A SAS disk in slot 05 of a backplane whose SES processor has SAS address 0x500605b0000272bd. */
function sesMachine(): SysfsReader {
  const base = '/sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/expander-0:0';
  const slot = `${base}/port-0:0:12/end_device-0:0:12/target0:0:12/0:0:12:0/enclosure/0:0:12:0/Slot 05`;
  return {
    listDir: async (p) => (p === '/sys/class/block/sdc/device' ? ['block', 'enclosure_device:Slot 05', 'vendor'] : []),
    realPath: async (p) => (p === '/sys/class/block/sdc/device/enclosure_device:Slot 05' ? slot : undefined),
    readText: async (p) => (p === `${base}/port-0:0:12/end_device-0:0:12/target0:0:12/0:0:12:0/enclosure/0:0:12:0/id` ? '0x500605b0000272bd\n' : undefined),
  };
}

describe('lanes behind an SES enclosure', () => {
  it('prefer the enclosure slot, which survives recabling, and keep the phy in the connector', async () => {
    const lane = await resolveLane(sesMachine(), 'sdc', 'pci-0000:03:00.0-sas-exp0x500605b0000272bf-phy5-lun-0');
    expect(lane).toEqual({
      lane: 'enclosure-0x500605b0000272bd-slot-Slot_05',
      connector: { transport: 'sas', controller: '0000:03:00.0', expander: '0x500605b0000272bf', phy: 5, enclosure: { id: '0x500605b0000272bd', slot: 'Slot 05' } },
    });
  });

  it('fall back to the bus path where there is no enclosure', async () => {
    const none: SysfsReader = { listDir: async () => [], realPath: async () => undefined, readText: async () => undefined };
    expect((await resolveLane(none, 'sdb', 'pci-0000:00:1f.2-ata-3.0'))?.lane).toBe('pci-0000:00:1f.2-ata-3.0');
  });
});

describe('lanes of NVMe drives', () => {
  it('name the PCIe slot the firmware lists for the controller, which survives a renumbered bus', async () => {
    const slots: SysfsReader = {
      listDir: async (p) => (p === '/sys/bus/pci/slots' ? ['1', '7'] : []),
      realPath: async () => undefined,
      readText: async (p) => ({ '/sys/bus/pci/slots/1/address': '0000:01:00\n', '/sys/bus/pci/slots/7/address': '0000:02:00\n' })[p],
    };
    expect(await resolveLane(slots, 'nvme1n1', 'pci-0000:02:00.0-nvme-1')).toEqual({ lane: 'pcie-slot-7', connector: { transport: 'nvme', controller: '0000:02:00.0', pcie_slot: '7' } });
  });

  it('fall back to the controller address where no slot is named (QEMU, most desktops)', async () => {
    const none: SysfsReader = { listDir: async () => [], realPath: async () => undefined, readText: async () => undefined };
    expect((await resolveLane(none, 'nvme0n1', 'pci-0000:00:04.0-nvme-1'))?.lane).toBe('pci-0000:00:04.0-nvme');
  });
});
