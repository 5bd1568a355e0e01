import { conforms, Fingerprint } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import type { SystemView } from '../../src/adapters/system-view.js';
import { discoverDrives } from '../../src/probes/discover-drives.js';
import { collectFingerprint, type SystemInfoPort } from '../../src/fingerprint/collect.js';
import { fakeRunner, type FakeRule } from '../support/fake-runner.js';
import { fixtureBytes, fixturesPresent, FIXTURES_SKIP_NOTE, fixtureText } from '../support/fixtures.js';

const LAPTOP_LSBLK = 'lsblk/laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json';

/** A read-only system tree held in memory: directories list their children, files hold text. */
function memorySystem(files: Record<string, string>): SystemView {
  const paths = Object.keys(files);
  return {
    listDir: async (dir) => [...new Set(paths.filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split('/')[0] as string))],
    readText: async (path) => files[path],
    realPath: async (path) => path,
    deviceNumber: async () => undefined,
  };
}

/** The answers of a laptop as systeminformation shapes them (its own field names, not ours). */
const laptopSi: SystemInfoPort = {
  cpu: async () => ({ manufacturer: 'Intel', brand: 'Core™ i7-8650U', physicalCores: 4, cores: 8, speed: 1.9 }),
  mem: async () => ({ total: 33_454_559_232 }),
  graphics: async () => ({ controllers: [{ vendor: 'Intel Corporation', model: 'UHD Graphics 620', vram: 256 }] }),
  battery: async () => ({ hasBattery: true, maxCapacity: 45_280, designedCapacity: 56_000, manufacturer: 'SMP', model: '01AV431', serial: '', cycleCount: 311 }),
  networkInterfaces: async () => [
    { iface: 'lo', mac: '00:00:00:00:00:00', type: 'virtual', internal: true, virtual: false },
    { iface: 'enp0s31f6', mac: '8c:16:45:00:00:01', type: 'wired', speed: 1000, internal: false, virtual: false },
    { iface: 'wlp3s0', mac: '8c:16:45:00:00:02', type: 'wireless', speed: null, internal: false, virtual: false },
    { iface: 'docker0', mac: '02:42:00:00:00:03', type: 'wired', internal: false, virtual: true },
  ],
  audio: async () => [{ name: 'Sunrise Point-LP HD Audio', manufacturer: 'Intel Corporation', type: 'Audio' }],
  usb: async () => [{ name: 'Integrated Camera', vendor: null, manufacturer: 'Chicony Electronics', type: 'Camera' }],
  bluetoothDevices: async () => [],
  cpuTemperature: async () => ({ main: 48, max: 55, cores: [47, 48] }),
};

const laptopSys = () =>
  memorySystem({
    '/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c': '\u0006\u0000\u0000\u0000\u0001',
    '/sys/class/tpm/tpm0/tpm_version_major': '2\n',
    '/sys/class/drm/card0-eDP-1/edid': Buffer.from(fixtureBytes('edid', 'lgdisplay-lgd0555-laptop-panel-1block.bin')).toString('latin1'),
    '/sys/class/drm/card0-eDP-1/status': 'connected\n',
    '/sys/class/hwmon/hwmon3/fan1_input': '2900\n',
  });

/** The laptop's lsblk with a USB stick and a removable card reader added, as lsblk would print them. */
function lsblkWithExternalDisks(): string {
  const doc = JSON.parse(fixtureText('lsblk', LAPTOP_LSBLK.slice('lsblk/'.length))) as { blockdevices: Array<Record<string, unknown>> };
  const sda = doc.blockdevices.find((d) => d.name === 'sda') as Record<string, unknown>;
  doc.blockdevices.push({ ...sda, name: 'sdb', kname: 'sdb', path: '/dev/sdb', tran: 'usb', model: 'USB Flash Disk', serial: 'USB0001', children: undefined });
  doc.blockdevices.push({ ...sda, name: 'sdc', kname: 'sdc', path: '/dev/sdc', tran: 'sata', rm: true, model: 'Card Reader', serial: 'CR0001', children: undefined });
  return JSON.stringify(doc);
}

const scenario = (dmi: string, lsblk: FakeRule): Record<string, FakeRule[]> => ({
  dmidecode: [{ match: '', fixture: `dmidecode/${dmi}` }],
  lsblk: [lsblk],
  smartctl: [
    { match: '/dev/sda$', fixture: 'smartctl/micron-5200-mtfddak960tdn-sata-ssd-smartctl-a.json' },
    { match: '/dev/nvme0n1$', fixture: 'smartctl/samsung-970evo-nvme-smartctl-x.json' },
  ],
  nvme: [{ match: '^id-ctrl /dev/nvme0n1 -o json$', fixture: 'nvme/samsung-980pro-1tb-nvme-id-ctrl-json-sorted.json' }],
  hdparm: [
    { match: '^-I /dev/sda$', fixture: 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt' },
    { match: '^-N /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-N-hpa-disabled.txt' },
  ],
});

describe.skipIf(!fixturesPresent)(`fingerprint collection with fake tools replaying ${FIXTURES_SKIP_NOTE}`, () => {
  it('assembles every section under the field names the cloud promotes, internal drives only', async () => {
    const { run, calls } = fakeRunner(scenario('lenovo-thinkpad-t480-laptop-dmidecode.txt', { match: '^-J -b -O$', stdout: lsblkWithExternalDisks() }));
    const sut = await collectFingerprint({ run, sys: laptopSys(), si: laptopSi, drives: () => discoverDrives(run) });

    expect(conforms(Fingerprint, sut)).toBe(true);
    // The publisher masked serial, UUID and asset tag as "--" (PROVENANCE): the masked strings are
    // what this machine "printed" and ride along, but a UUID must be well formed to count.
    expect(sut.system).toEqual({ manufacturer: 'LENOVO', product: '20L5CTO1WW', version: 'ThinkPad T480', serial: '--', asset_tag: '--', sku: 'LENOVO_MT_20L5_BU_Think_FM_ThinkPad T480', family: 'ThinkPad T480' });
    expect(sut.baseboard).toMatchObject({ manufacturer: 'LENOVO', product: '20L5CTO1WW', serial: '--' });
    expect(sut.bios?.version).toMatch(/^N24ET76W/);
    expect(sut.firmware).toEqual({ mode: 'UEFI', secure_boot: true });
    expect(sut.tpm).toEqual({ version: '2.0' });
    expect(sut.cpu).toEqual({ model: 'Intel Core™ i7-8650U', cores: 4, threads: 8, speed_ghz: 1.9 });
    // Installed RAM from DMI (2 x 16 GB), not the kernel's usable total.
    expect(sut.memory).toEqual({ total_bytes: 32 * 1024 ** 3, slots: 2 });
    expect(sut.gpus).toEqual([{ model: 'Intel Corporation UHD Graphics 620', vram_mb: 256 }]);
    expect(sut.batteries).toEqual([{ health_pct: 81, manufacturer: 'SMP', model: '01AV431', cycle_count: 311 }]);

    const storage = sut.storage ?? [];
    expect(storage.map((d) => (d as { device?: string }).device)).toEqual(['/dev/sda', '/dev/nvme0n1']);
    for (const d of storage) {
      expect(Object.keys(d)).toEqual(expect.arrayContaining(['model', 'serial', 'size_bytes', 'media_type', 'transport']));
      expect(d.media_type).toBe('SSD');
      expect(d.size_bytes).toBe(512_110_190_592);
    }
    expect((storage[1] as { smart?: Record<string, unknown> }).smart).toHaveProperty('power_on_hours');

    const open = sut as Record<string, unknown>;
    expect(open.network).toEqual([{ name: 'enp0s31f6', mac: '8c:16:45:00:00:01', speed_mbps: 1000 }]);
    expect(open.wifi_adapters).toEqual([{ name: 'wlp3s0', mac: '8c:16:45:00:00:02' }]);
    expect(open).not.toHaveProperty('bluetooth'); // an empty list is no section
    expect(open.displays).toEqual([expect.objectContaining({ connector: 'eDP-1', manufacturer: 'LGD' })]);
    expect(open.fans).toEqual([{ sensor: 'hwmon3/fan1', rpm: 2900 }]);
    expect(open.thermals).toEqual({ cpu_c: 48, cpu_max_c: 55 });
    // External and virtual disks are never probed, let alone reported.
    const probed = calls().filter((c) => c[0] !== 'lsblk' && c[0] !== 'dmidecode').map((c) => c.find((a) => a.startsWith('/dev/')));
    expect(new Set(probed)).toEqual(new Set(['/dev/sda', '/dev/nvme0n1']));
  });

  it('drops "To Be Filled By O.E.M." and the shared placeholder UUID but keeps real values beside them', async () => {
    const { run } = fakeRunner(scenario('asrockrack-e3c246d4i-nl-to-be-filled-by-oem-placeholder-uuid-dmidecode.txt', { match: '', fixture: LAPTOP_LSBLK }));
    const sut = await collectFingerprint({ run, sys: memorySystem({}), si: laptopSi, drives: () => discoverDrives(run) });
    expect(sut).not.toHaveProperty('system'); // nothing but placeholders: identity falls back to record_id
    expect(sut.baseboard).toEqual({ manufacturer: 'ASRockRack', product: 'E3C246D4I-NL' });
    expect(sut.firmware).toEqual({ mode: 'BIOS' });
    expect(sut).not.toHaveProperty('tpm');
    expect(conforms(Fingerprint, sut)).toBe(true);
  });

  it('leaves out a section whose source fails instead of failing the whole document', async () => {
    const { run } = fakeRunner({ dmidecode: [{ match: '', stderr: '/dev/mem: Permission denied', exit: 1 }], lsblk: [{ match: '', stdout: 'not json' }] });
    const broken: SystemInfoPort = { ...laptopSi, cpu: async () => Promise.reject(new Error('no /proc/cpuinfo')) };
    const sut = await collectFingerprint({ run, sys: memorySystem({}), si: broken, drives: () => discoverDrives(run) });
    expect(sut).not.toHaveProperty('system');
    expect(sut).not.toHaveProperty('cpu');
    expect(sut.storage).toEqual([]);
    expect(sut.memory).toEqual({ total_bytes: 33_454_559_232 }); // the kernel's total when DMI is unavailable
  });
});
