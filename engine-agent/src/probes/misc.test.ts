import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath, fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { createRunner } from '../adapters/runner.js';
import { dirSysfs } from '../../test/support/sysfs-tree.js';
import { busFromDevicePath, readSysBlock } from './sysfs-block.js';
import { parseUdevadmInfo } from './udevadm.js';
import { parseUpower } from './upower.js';
import type { ParseResult } from './parse-result.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe('busFromDevicePath', () => {
  it.each([
    ['/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb', 'usb'],
    ['/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1', 'nvme'],
    ['/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda', 'ata'],
    ['/sys/devices/virtual/block/loop0', undefined],
  ])('%s -> %s', (path, bus) => expect(busFromDevicePath(path)).toBe(bus));
});

describe.skipIf(!fixturesPresent)(`misc parsers over ${FIXTURES_SKIP_NOTE}`, () => {
  const work = mkdtempSync(join(tmpdir(), 'sysfs-dump-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('reads battery health from upower', () => {
    expect(ok(parseUpower(fixtureText('misc', 'dell-laptop-battery-upower-i.txt')))).toEqual({
      nativePath: 'BAT0',
      vendor: 'Samsung SDI',
      model: 'DELL 7XFJJA2',
      serial: '4448',
      state: 'fully-charged',
      technology: 'lithium-ion',
      energyFullWh: 33.4443,
      energyFullDesignWh: 48.84,
      chargePct: 100,
      capacityPct: 68.4773,
    });
  });

  it('decodes udev identity, keeping the encoded spaces and dropping all-zero WWNs', () => {
    expect(ok(parseUdevadmInfo(fixtureText('misc', 'vmware-virtual-scsi-disk-udevadm-info.txt')))).toMatchObject({
      devname: '/dev/sda',
      bus: 'scsi',
      vendor: 'VMware,',
      model: 'VMware Virtual S',
    });
    const cciss = ok(parseUdevadmInfo(fixtureText('misc', 'hp-smartarray-cciss-logical-volume-udevadm-info.txt')));
    expect(cciss).toMatchObject({ bus: 'cciss', model: 'LOGICAL VOLUME', vendor: 'HP', serial: 'SER111' });
    expect(cciss.wwn).toBeUndefined();
    const noModel = ok(parseUdevadmInfo(fixtureText('misc', 'nvme-lvm-pv-udevadm-info-no-model.txt')));
    expect(noModel).toMatchObject({ devname: '/dev/nvme0n1' });
    expect(noModel.model).toBeUndefined();
  });

  it('reads a captured /sys/block through the sysfs port', async () => {
    const r = await createRunner()('tar', ['-xJf', fixturePath('misc', 'util-linux-lsblk-sysfs-dump-simple-nvme.tar.xz'), '-C', work], {
      timeoutMs: 30_000,
    });
    expect(r.exitCode).toBe(0);
    const sut = await readSysBlock(dirSysfs(join(work, 'simple-nvme')));
    expect(sut.map((d) => [d.name, d.bus, d.model, d.vendor, d.rotational, d.sizeBytes, d.partitions.length])).toEqual([
      ['nvme0n1', 'nvme', 'KINGSTON SKC1000240G', undefined, false, 468862128 * 512, 3],
      ['sda', 'ata', 'KINGSTON SH103S3', 'ATA', false, 468862128 * 512, 6],
      ['sdb', 'ata', 'WDC WD800JD-00MS', 'ATA', true, 156301488 * 512, 1],
    ]);
    expect(sut[0]?.serial).toBe('50026B728203601D');
  });
});
