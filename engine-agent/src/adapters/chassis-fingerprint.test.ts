import type { Fingerprint } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { stationChassis } from './chassis-fingerprint.js';
import type { Runner } from './runner.js';
import type { SystemView } from './system-view.js';

/** udev's ID_PATH of each drive, as `udevadm info --query=property` prints it. */
const ID_PATHS: Record<string, string> = {
  '/dev/sda': 'pci-0000:00:1f.2-ata-1.0',
  '/dev/sdb': 'pci-0000:03:00.0-sas-phy2-lun-0',
  '/dev/sdc': 'pci-0000:00:1f.2-ata-3.0',
};

function fakeEnv() {
  const calls: string[][] = [];
  const run: Runner = async (tool, args) => {
    calls.push([tool, ...args]);
    const device = args.find((a) => a.startsWith('--name='))?.slice('--name='.length) ?? '';
    const idPath = ID_PATHS[device];
    const stdout = idPath ? `DEVNAME=${device}\nDEVTYPE=disk\nID_PATH=${idPath}\nID_SERIAL_SHORT=x\n` : '';
    return { exitCode: idPath ? 0 : 1, stdout, stderr: idPath ? '' : 'Unknown device', timedOut: false, outputTruncated: false, durationMs: 1 };
  };
  // No SES enclosure and no named PCIe slots on this machine.
  const sys: SystemView = { listDir: async () => [], readText: async () => undefined, realPath: async () => undefined, deviceNumber: async () => undefined };
  return { env: { run, sys }, calls };
}

const boot = {
  system: { serial: 'CHASSIS-01', uuid: 'u-1' },
  storage: [
    { device: '/dev/sda', serial: 'BOOT-SSD' },
    { device: '/dev/sdb', serial: 'SAS-BAY' },
    { device: '/dev/sdc', serial: 'SATA-BAY' },
    { device: '/dev/sdd', serial: 'NO-UDEV' },
  ],
} as Fingerprint;
const serials = (f: Fingerprint) => f.storage?.map((d) => d.serial);

describe('the chassis a station reports', () => {
  it('reports no drive in a hot-swap slot at boot, then none in a bay once the map is known', async () => {
    const { env } = fakeEnv();
    const sut = stationChassis(env);
    expect(serials(await sut.fingerprint(boot))).toEqual(['BOOT-SSD', 'SATA-BAY', 'NO-UDEV']);
    // The map names the SATA port 3 as a bay: the report that already went out listed its drive.
    expect(await sut.mapKnown(['pci-0000:00:1f.2-ata-3.0', 'pci-0000:00:1f.2-ata-4.0'])).toBe(true);
    expect(serials(await sut.fingerprint(boot))).toEqual(['BOOT-SSD', 'NO-UDEV']);
  });

  it('says there is nothing to report again when the map takes out no drive the report listed', async () => {
    const { env } = fakeEnv();
    const sut = stationChassis(env);
    expect(await sut.mapKnown(['pci-0000:00:1f.2-ata-3.0'])).toBe(false); // before any report
    await sut.fingerprint(boot);
    expect(await sut.mapKnown(['pci-0000:00:1f.2-ata-3.0'])).toBe(false); // already out
    expect(await sut.mapKnown(['pci-0000:03:00.0-sas-phy2-lun-0'])).toBe(true); // ata-3 is back in
  });

  it('asks udev for the slots of the boot’s drives once', async () => {
    const { env, calls } = fakeEnv();
    const sut = stationChassis(env);
    await sut.fingerprint(boot);
    await sut.fingerprint(boot);
    await sut.mapKnown(['pci-0000:00:1f.2-ata-3.0']);
    expect(calls).toHaveLength(4);
    expect(calls[0]).toEqual(['udevadm', 'info', '--query=property', '--name=/dev/sda']);
  });
});
