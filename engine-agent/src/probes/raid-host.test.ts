import { afterEach, describe, expect, it } from 'vitest';
import { sysfsTree, type SysfsTree } from '../../test/support/sysfs-tree.js';
import { looksLikeVirtualDisk, readRaidHost } from './raid-host.js';

const PCI = '/sys/devices/pci0000:00/0000:00:03.0/0000:02:00.0';

/** A disk `name` at SCSI address host:channel:target:0 under a PCI function bound to `driver`. */
function scsiDisk(t: SysfsTree, name: string, driver: string | undefined, address: [number, number, number], procName?: string): void {
  const [h, c, id] = address;
  const dev = `${PCI}/host${h}/target${h}:${c}:${id}/${h}:${c}:${id}:0`;
  t.file(`${dev}/block/${name}/size`, '0\n');
  t.link(`/sys/block/${name}`, `${dev}/block/${name}`);
  t.link(`${dev}/block/${name}/device`, dev);
  if (driver) t.link(`${PCI}/driver`, `/sys/bus/pci/drivers/${driver}`);
  if (procName) t.file(`/sys/class/scsi_host/host${h}/proc_name`, `${procName}\n`);
}

describe('which RAID driver runs a disk host (sysfs)', () => {
  let t: SysfsTree;
  afterEach(() => t.remove());

  it.each([
    ['megaraid_sas', 'MegaRAID', 'megaraid'],
    ['mpt3sas', 'LSI SAS', undefined],
    ['hpsa', 'HPE Smart Array', 'cciss'],
    ['smartpqi', 'HPE Smart Array', 'cciss'],
    ['aacraid', 'Adaptec', 'aacraid'],
  ])('a disk on a host driven by %s is behind a %s controller', async (driver, family, smartctlType) => {
    t = sysfsTree();
    scsiDisk(t, 'sda', driver, [0, 2, 0]);
    const host = await readRaidHost(t.sys, 'sda');
    expect(host).toEqual({ driver, family, ...(smartctlType ? { smartctlType } : {}), hostNumber: 0, channel: 2 });
  });

  it('reads the scsi_host proc_name when the PCI function has no driver link', async () => {
    t = sysfsTree();
    scsiDisk(t, 'sdb', undefined, [3, 0, 5], 'megaraid_sas');
    expect(await readRaidHost(t.sys, 'sdb')).toMatchObject({ driver: 'megaraid_sas', family: 'MegaRAID', hostNumber: 3, channel: 0 });
  });

  it('a disk on an AHCI port is behind no RAID controller', async () => {
    t = sysfsTree();
    scsiDisk(t, 'sdc', 'ahci', [1, 0, 0], 'ahci');
    expect(await readRaidHost(t.sys, 'sdc')).toBeUndefined();
  });

  it('a disk sysfs does not list is behind no known controller', async () => {
    t = sysfsTree();
    expect(await readRaidHost(t.sys, 'sdz')).toBeUndefined();
  });

  it('an HP cciss logical volume (no SCSI layer) is an HPE Smart Array disk', async () => {
    t = sysfsTree();
    // The device path of the real udevadm fixture (hp-smartarray-cciss-logical-volume-udevadm-info.txt).
    const dev = '/sys/devices/pci0000:40/0000:40:13.0/0000:45:00.0/cciss0/c0d0/block/cciss!c0d0';
    t.file(`${dev}/size`, '0\n');
    t.link('/sys/block/cciss!c0d0', dev);
    expect(await readRaidHost(t.sys, 'cciss!c0d0')).toMatchObject({ driver: 'cciss', family: 'HPE Smart Array', smartctlType: 'cciss' });
  });
});

describe('a virtual disk of the controller, not a pass-through disk', () => {
  it('megaraid_sas: logical drives on channel 2 and 3, JBOD disks on 0 and 1', () => {
    const host = { driver: 'megaraid_sas', family: 'MegaRAID' } as const;
    expect(looksLikeVirtualDisk({ ...host, channel: 2 })).toBe(true);
    expect(looksLikeVirtualDisk({ ...host, channel: 0 }, 'ST6000NM0115-1YZ110')).toBe(false);
  });

  it('by model when the channel says nothing: the AVAGO MR9361-16i VD and an HP LOGICAL VOLUME', () => {
    const host = { driver: 'hpsa', family: 'HPE Smart Array' } as const;
    expect(looksLikeVirtualDisk(host, 'MR9361-16i', 'AVAGO')).toBe(true);
    expect(looksLikeVirtualDisk(host, 'LOGICAL_VOLUME', 'HP')).toBe(true);
    expect(looksLikeVirtualDisk(host, 'MB2000GCWDA', 'ATA')).toBe(false);
  });
});
