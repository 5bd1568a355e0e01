import { describe, expect, it } from 'vitest';
import type { SystemView } from '../adapters/system-view.js';
import { guardTarget } from './guard.js';

/**
 * A machine with sda (target), sdb (a USB stick written with the erasure ISO) and sr0.
 * `labels` are the /dev/disk/by-label links, `udev` the udev records (/run/udev/data/b<dev>) by device number.
 */
function machine(opts: { mountinfo?: string; labels?: Record<string, string>; udev?: Record<string, string> } = {}): SystemView {
  const links: Record<string, string> = {
    '/dev/sda': '/dev/sda',
    '/dev/sdb': '/dev/sdb',
    '/sys/dev/block/8:0': '/sys/devices/pci0000:00/ata1/host0/block/sda',
    '/sys/dev/block/8:16': '/sys/devices/pci0000:00/usb1/host6/block/sdb',
    '/sys/dev/block/8:17': '/sys/devices/pci0000:00/usb1/host6/block/sdb/sdb1',
  };
  for (const [label, node] of Object.entries(opts.labels ?? {})) links[`/dev/disk/by-label/${label}`] = node;
  const texts: Record<string, string> = {
    '/proc/self/mountinfo': opts.mountinfo ?? '22 1 0:21 / / rw - overlay overlay rw\n',
    '/sys/class/block/sdb1/partition': '1\n',
    '/sys/class/block/sda/dev': '8:0\n',
    '/sys/class/block/sdb/dev': '8:16\n',
    '/sys/class/block/sdb1/dev': '8:17\n',
    '/proc/swaps': 'Filename Type Size Used Priority\n',
  };
  for (const [devNo, record] of Object.entries(opts.udev ?? {})) texts[`/run/udev/data/b${devNo}`] = record;
  const dirs: Record<string, string[]> = { '/dev/disk/by-label': Object.keys(opts.labels ?? {}), '/sys/block/sdb': ['sdb1', 'holders', 'queue'] };
  const devNos: Record<string, string> = { '/dev/sda': '8:0', '/dev/sdb': '8:16' };
  return {
    realPath: async (p) => links[p],
    readText: async (p) => texts[p],
    listDir: async (p) => dirs[p] ?? [],
    deviceNumber: async (p) => devNos[p],
  };
}

describe('the boot medium is never a target', () => {
  it('refuses a disk whose partition carries the erasure image label, even unmounted (toram)', async () => {
    const v = await guardTarget(machine({ labels: { ERASURE: '/dev/sdb1' } }), '/dev/sdb', ['/dev/sdb']);
    expect(v).toMatchObject({ ok: false, code: 'boot_medium' });
  });

  it('refuses a stick that is the image as a whole disk (the hybrid ISO written with dd)', async () => {
    const v = await guardTarget(machine({ labels: { ERASURE: '/dev/sdb' } }), '/dev/sdb', ['/dev/sdb']);
    expect(v).toMatchObject({ ok: false, code: 'boot_medium' });
  });

  it('refuses the disk live-boot mounted as its medium', async () => {
    const mountinfo = '22 1 0:21 / / rw - overlay overlay rw\n30 22 8:17 / /run/live/medium ro - iso9660 /dev/sdb1 ro\n';
    const v = await guardTarget(machine({ mountinfo }), '/dev/sdb', ['/dev/sdb']);
    expect(v).toMatchObject({ ok: false, code: 'boot_medium' });
  });

  it('does not mistake a customer disk whose label only starts like the image\u2019s for the boot medium', async () => {
    const v = await guardTarget(machine({ labels: { ERASURES: '/dev/sda', ERASURE: '/dev/sdb1' } }), '/dev/sda', ['/dev/sda']);
    expect(v).toMatchObject({ ok: true });
  });

  it('allows a selected disk that carries no image and nothing mounted', async () => {
    const v = await guardTarget(machine({ labels: { ERASURE: '/dev/sdb1', 'Backup 2019': '/dev/sda' } }), '/dev/sda', ['/dev/sda']);
    expect(v).toMatchObject({ ok: true, kernelName: 'sda' });
  });
});

describe('the station\u2019s data volume is never a target', () => {
  it('refuses a disk whose partition is labelled ERASURE-DATA, even unmounted', async () => {
    const v = await guardTarget(machine({ labels: { 'ERASURE-DATA': '/dev/sdb1' } }), '/dev/sdb', ['/dev/sdb']);
    expect(v).toMatchObject({ ok: false, code: 'data_volume' });
  });

  it('refuses it by label before the mount is even looked at, when it is mounted as DATA_DIR', async () => {
    const mountinfo = '22 1 0:21 / / rw - overlay overlay rw\n31 22 8:0 / /var/lib/erasure rw,nosuid - ext4 /dev/sda rw\n';
    const v = await guardTarget(machine({ mountinfo, labels: { 'ERASURE-DATA': '/dev/sda' } }), '/dev/sda', ['/dev/sda']);
    expect(v).toMatchObject({ ok: false, code: 'data_volume' });
  });

  it('refuses a second ERASURE-DATA disk that the by-label link does not point to, from its udev record', async () => {
    const v = await guardTarget(machine({ labels: { 'ERASURE-DATA': '/dev/sda' }, udev: { '8:17': 'S:disk/by-label/ERASURE-DATA\nE:ID_FS_TYPE=ext4\nE:ID_FS_LABEL=ERASURE-DATA\n' } }), '/dev/sdb', ['/dev/sdb']);
    expect(v).toMatchObject({ ok: false, code: 'data_volume' });
  });

  it('allows a customer disk whose label only starts like the data volume\u2019s', async () => {
    const v = await guardTarget(machine({ labels: { 'ERASURE-DATA2': '/dev/sda' }, udev: { '8:0': 'E:ID_FS_LABEL=ERASURE-DATA-OLD\n' } }), '/dev/sda', ['/dev/sda']);
    expect(v).toMatchObject({ ok: true });
  });
});
