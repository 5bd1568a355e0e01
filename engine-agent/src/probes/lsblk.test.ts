import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { flattenLsblk, parseLsblkJson, parseLsblkText, type LsblkDevice } from './lsblk.js';
import type { ParseResult } from './parse-result.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe.skipIf(!fixturesPresent)(`lsblk parsers over ${FIXTURES_SKIP_NOTE}`, () => {
  it('reads the laptop capture: SATA SSD with null serial, padded NVMe serial, loops and LVM', () => {
    const sut = ok(parseLsblkJson(JSON.parse(fixtureText('lsblk', 'laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json'))));
    const disks = sut.filter((d) => d.type === 'disk');
    expect(disks.map((d) => [d.name, d.transport, d.model, d.serial, d.sizeBytes, d.rotational, d.removable])).toEqual([
      ['sda', 'sata', 'MTFDDAK512MBF-1A', undefined, 512110190592, false, false],
      ['nvme0n1', 'nvme', 'SAMSUNG MZVPV512HDGL-000H1', 'S27FNYAH406993', 512110190592, false, false],
    ]);
    expect(sut.filter((d) => d.type === 'loop')).toHaveLength(14);
    const lvm = flattenLsblk(sut).find((d) => d.name === 'xubuntu--vg--old-root') as LsblkDevice;
    expect(lvm).toMatchObject({ type: 'lvm', mountpoints: ['/_imageconfigs'] });
  });

  it('reads the largest discard each disk takes (DISC-MAX), which tells a drive that supports discard', () => {
    const sut = ok(parseLsblkJson(JSON.parse(fixtureText('lsblk', 'laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json'))));
    expect(sut.filter((d) => d.type === 'disk').map((d) => [d.name, d.discardMaxBytes])).toEqual([
      ['sda', 2147450880],
      ['nvme0n1', 2199023255040],
    ]);
  });

  it('reads the 2.37-era capture with paths and several mountpoints', () => {
    const [disk] = ok(parseLsblkJson(JSON.parse(fixtureText('lsblk', 'samsung-sm951-nvme-lsblk-J-p-O-b.json'))));
    expect(disk).toMatchObject({ name: '/dev/nvme0n1', serial: 'S27FNYAH407000', logicalSectorSize: 512, physicalSectorSize: 512 });
    expect(disk?.children[1]?.mountpoints).toEqual(['/var/snap/firefox/common/host-hunspell', '/']);
  });

  it('reads the text table with the tree and vendor columns', () => {
    const sut = ok(parseLsblkText(fixtureText('lsblk', 'kingston-wdc-nvme-lsblk-sysroot-vendor-columns.txt')));
    expect(sut.map((d) => [d.name, d.model, d.vendor, d.revision, d.children.length])).toEqual([
      ['sda', 'KINGSTON SH103S3', 'ATA', 'BBF0', 6],
      ['sdb', 'WDC WD800JD-00MS', 'ATA', '1E01', 1],
      ['nvme0n1', 'KINGSTON SKC1000240G', undefined, undefined, 3],
    ]);
  });

  it('reads the all-columns text table of a VMware VM', () => {
    const sut = ok(parseLsblkText(fixtureText('lsblk', 'vmware-vm-lsblk-allcols-text.txt')));
    const sda = sut.find((d) => d.name === 'sda');
    expect(sda).toMatchObject({ type: 'disk', rotational: true, removable: false, logicalSectorSize: 512 });
    expect(sda?.children.map((c) => [c.name, c.mountpoints])).toEqual([
      ['sda1', []],
      ['sda2', ['/']],
    ]);
    expect(sut.find((d) => d.name === 'sr0')).toMatchObject({ type: 'rom', removable: true });
  });
});
