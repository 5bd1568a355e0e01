import type { Fingerprint } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { chassisFingerprint, isHotSwapLane } from './chassis-storage.js';
import { laneFromIdPath, type Lane } from './lanes.js';

const lane = (idPath: string): Lane => {
  const l = laneFromIdPath(idPath);
  if (!l) throw new Error(`no lane for ${idPath}`);
  return l;
};
const sata = lane('pci-0000:00:1f.2-ata-3.0');
const sasExpander = lane('pci-0000:03:00.0-sas-exp0x500605b0000272bf-phy5-lun-0');
const sasPhy = lane('pci-0000:03:00.0-sas-phy2-lun-0');
const nvmeOnBoard = lane('pci-0000:02:00.0-nvme-1');
const virtioScsi = lane('pci-0000:00:03.0-scsi-0:0:1:0');
const usbDock = lane('pci-0000:00:14.0-usb-0:3.2:1.0-scsi-0:0:0:0');
const sesSlot: Lane = { lane: 'enclosure-500605b0-slot-3', connector: { ...sata.connector, enclosure: { id: '500605b0', slot: '3' } } };
const nvmeU2: Lane = { lane: 'pcie-slot-4', connector: { ...nvmeOnBoard.connector, pcie_slot: '4' } };

describe('hot-swap slots, from what a lane says', () => {
  it.each([
    ['an SES enclosure slot', sesSlot, true],
    ['an NVMe drive in a slot the firmware names', nvmeU2, true],
    ['a SAS expander phy', sasExpander, true],
    ['a SAS HBA phy', sasPhy, true],
    ['a USB dock', usbDock, true],
    ['an AHCI port', sata, false],
    ['an NVMe drive on the board', nvmeOnBoard, false],
    ['a virtual SCSI target', virtioScsi, false],
  ])('counts %s as hot-swap: %s', (_what, sut, expected) => {
    expect(isHotSwapLane(sut)).toBe(expected);
  });
});

describe("a station's chassis fingerprint", () => {
  const fp = {
    system: { serial: 'CHASSIS-01', uuid: 'u-1' },
    storage: [
      { device: '/dev/sda', model: 'INTEL SSDSC2KB480G8', serial: 'BOOT-SSD' },
      { device: '/dev/sdb', model: 'HGST HUS726040AL5210', serial: 'SAS-BAY' },
      { device: '/dev/sdc', model: 'WDC WD10EZEX', serial: 'SATA-BAY' },
      { device: '/dev/nvme0n1', model: 'Samsung PM9A3', serial: 'U2-BAY' },
      { model: 'No device node', serial: 'ODD' },
    ],
  } as Fingerprint;
  const lanes: Record<string, Lane> = { '/dev/sda': virtioScsi, '/dev/sdb': sasExpander, '/dev/sdc': sata, '/dev/nvme0n1': nvmeU2 };
  const laneOf = (device: string) => lanes[device];
  const serials = (f: Fingerprint) => f.storage?.map((d) => d.serial);

  it('leaves drives in hot-swap slots out before the map is known, and keeps the rest of the document', () => {
    const sut = chassisFingerprint(fp, laneOf);
    expect(serials(sut)).toEqual(['BOOT-SSD', 'SATA-BAY', 'ODD']);
    expect(sut.system).toEqual(fp.system);
  });

  it('leaves out drives in the bays of the map once it is known, whatever their slot', () => {
    expect(serials(chassisFingerprint(fp, laneOf, new Set([sata.lane])))).toEqual(['BOOT-SSD', 'ODD']);
  });

  it('keeps a drive whose slot it cannot tell, and changes nothing when nothing sits in a bay', () => {
    expect(serials(chassisFingerprint(fp, () => undefined, new Set([sata.lane])))).toEqual(serials(fp));
    const internal = { ...fp, storage: [fp.storage![0]!] } as Fingerprint;
    expect(chassisFingerprint(internal, laneOf)).toBe(internal);
    const bare = { system: fp.system } as Fingerprint;
    expect(chassisFingerprint(bare, laneOf, new Set([sata.lane]))).toBe(bare);
  });
});
