import { describe, expect, it } from 'vitest';
import { createUdevParser } from './udev-events.js';

/** As `udevadm monitor --udev --property --subsystem-match=block` prints a drive seated in a SATA bay. */
const SEATED = `monitor will print the received events for:
UDEV - the event which udev sends out after rule processing

UDEV  [5123.445201] add      /devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb (block)
ACTION=add
DEVPATH=/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb
SUBSYSTEM=block
DEVNAME=/dev/sdb
DEVTYPE=disk
SEQNUM=4021
ID_MODEL=ST2000DM008-2FR102
ID_SERIAL=ST2000DM008-2FR102_ZFL0ABCD
ID_SERIAL_SHORT=ZFL0ABCD
ID_PATH=pci-0000:00:1f.2-ata-3.0
ID_PATH_TAG=pci-0000_00_1f_2-ata-3_0

UDEV  [5123.512877] add      /devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb/sdb1 (block)
ACTION=add
DEVPATH=/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb/sdb1
SUBSYSTEM=block
DEVNAME=/dev/sdb1
DEVTYPE=partition
SEQNUM=4022

`;

describe('udev block events from udevadm monitor', () => {
  it('reads a drive seated in a bay as an add of a whole disk with its path and serial', () => {
    const [disk] = createUdevParser()(SEATED);
    expect(disk).toMatchObject({ action: 'add', devname: '/dev/sdb', devtype: 'disk', seqnum: 4021 });
    expect(disk?.properties.ID_PATH).toBe('pci-0000:00:1f.2-ata-3.0');
    expect(disk?.properties.ID_SERIAL_SHORT).toBe('ZFL0ABCD');
  });

  it('reports partitions flagged as partitions, so the station can skip them', () => {
    const events = createUdevParser()(SEATED);
    expect(events.map((e) => e.devtype)).toEqual(['disk', 'partition']);
  });

  it('assembles events split anywhere across chunks, mid-line included', () => {
    const parse = createUdevParser();
    const events = [...SEATED].reduce<ReturnType<typeof parse>>((all, _c, i, chars) => (i % 7 === 0 ? [...all, ...parse(chars.slice(i, i + 7).join(''))] : all), []);
    expect(events.map((e) => e.devname)).toEqual(['/dev/sdb', '/dev/sdb1']);
  });

  it('holds back an event until its closing blank line arrives', () => {
    const parse = createUdevParser();
    const withoutEnd = SEATED.slice(0, SEATED.indexOf('UDEV  [5123.512877]'));
    expect(parse(withoutEnd.trimEnd())).toEqual([]);
    expect(parse('\n\n').map((e) => e.devname)).toEqual(['/dev/sdb']);
  });

  it('reads a pull-out as a remove of the same device path', () => {
    const [ev] = createUdevParser()('UDEV  [5200.1] remove   /devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb (block)\nACTION=remove\nDEVPATH=/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb\nDEVNAME=/dev/sdb\nDEVTYPE=disk\n\n');
    expect(ev).toMatchObject({ action: 'remove', devtype: 'disk', devpath: '/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb' });
  });

  it('drops the banner and events that are not add, remove or change', () => {
    expect(createUdevParser()('monitor will print\n\nUDEV  [1.0] bind     /devices/x (block)\nACTION=bind\n\n')).toEqual([]);
  });
});
