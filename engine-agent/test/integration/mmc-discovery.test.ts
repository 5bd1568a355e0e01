import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverDrive, discoverDrives } from '../../src/probes/discover-drives.js';
import { withConnections } from '../../src/probes/drive-connection.js';
import { fakeRunner } from '../support/fake-runner.js';
import { workspaceDir } from '../support/fixtures.js';
import { sysfsTree, type SysfsTree } from '../support/sysfs-tree.js';

// Issue 30 item 4: eMMC and SD cards are found, named and planned. lsblk lists an eMMC's boot
// partitions as disks of their own; the card's identity comes from sysfs (the kernel's copy of its
// CID) and an eMMC's erase commands from `mmc extcsd read` (a fake mmc replaying a real capture).

const MiB = 1024 * 1024;
const extcsd = readFileSync(join(workspaceDir, 'test', 'fixtures', 'mmc', 'extcsd-emmc51-sanitize.txt'), 'utf8');

/** `lsblk -J -b -O` of a tablet: its eMMC with both boot partitions, and an SD card in its slot. */
const lsblkJson = JSON.stringify({
  blockdevices: [
    { name: 'mmcblk0', path: '/dev/mmcblk0', type: 'disk', tran: null, rm: false, rota: false, size: 250181844992, 'log-sec': 512, 'phy-sec': 512, 'disc-max': 4294966784, model: null, serial: '0x8a4b21c3', mountpoints: [null], children: [{ name: 'mmcblk0p1', path: '/dev/mmcblk0p1', type: 'part', size: 250180796416, mountpoints: [null] }] },
    { name: 'mmcblk0boot0', path: '/dev/mmcblk0boot0', type: 'disk', tran: null, rm: false, rota: false, size: 4194304, ro: true, mountpoints: [null] },
    { name: 'mmcblk0boot1', path: '/dev/mmcblk0boot1', type: 'disk', tran: null, rm: false, rota: false, size: 4194304, ro: true, mountpoints: [null] },
    { name: 'mmcblk1', path: '/dev/mmcblk1', type: 'disk', tran: null, rm: false, rota: false, size: 16 * MiB, 'log-sec': 512, 'phy-sec': 512, 'disc-max': 0, model: null, serial: null, mountpoints: [null] },
  ],
});

let tree: SysfsTree | undefined;
afterEach(() => tree?.remove());

function tablet(): SysfsTree {
  const t = sysfsTree();
  const host = '/sys/devices/pci0000:00/0000:00:1e.4/mmc_host';
  const card = (kernel: string, host_: string, attrs: Record<string, string>) => {
    const dev = `${host}/${host_}/${host_}:0001`;
    for (const [k, v] of Object.entries(attrs)) t.file(`${dev}/${k}`, `${v}\n`);
    t.file(`${dev}/block/${kernel}/size`, '0\n');
    t.link(`/sys/block/${kernel}`, `${dev}/block/${kernel}`);
    t.link(`${dev}/block/${kernel}/device`, dev);
  };
  card('mmcblk0', 'mmc0', { type: 'MMC', name: 'DG4256', serial: '0x8a4b21c3', manfid: '0x000045', date: '03/2022', cid: '450100444734323536038a4b21c36300' });
  card('mmcblk1', 'mmc1', { type: 'SD', name: 'SC32G', serial: '0x1c2b3a49', manfid: '0x000003', date: '11/2021', cid: '035344534333324780 1c2b3a4901 5b00'.replace(/ /g, '') });
  return t;
}

describe('eMMC and SD cards are found as drives, named in plain words, and planned from what the card is', () => {
  it("lists the eMMC once (not its boot0/boot1 partitions), reads its EXT_CSD, and plans its sanitize; the SD card is never sent an eMMC command and is planned an overwrite", async () => {
    tree = tablet();
    const { run, calls } = fakeRunner({
      lsblk: [{ match: '^-J -b -O$', stdout: lsblkJson }],
      mmc: [{ match: '^extcsd read /dev/mmcblk0$', stdout: extcsd }],
    });
    const drives = await withConnections({ sys: tree.sys, run }, await discoverDrives(run, {}, tree.sys));
    expect(drives.map((d) => d.device)).toEqual(['/dev/mmcblk0', '/dev/mmcblk1']);
    const [emmc, sd] = drives;
    expect(emmc?.capabilities).toMatchObject({ transport: 'mmc', model: 'DG4256', serial: '0x8a4b21c3', sizeBytes: 250181844992, mmc: { kind: 'emmc', manfid: '0x000045', date: '03/2022', extCsd: { revision: '1.8 (MMC 5.1)', sanitize: true, secureErase: true, trim: true, sectors: 0x1d200000 } } });
    expect(emmc?.plan).toMatchObject({ ok: true, method: 'mmc-sanitize', label: 'NIST 800-88 R2 Purge' });
    expect(emmc?.connection).toMatchObject({ kind: 'mmc-card', summary: 'eMMC (built-in flash storage)', reportLine: 'Drive type: eMMC (built-in flash storage); its EXT_CSD (rev 1.8 (MMC 5.1)) says: sanitize supported, secure erase supported' });
    expect(emmc?.connection?.details).toContain('Card: product name DG4256, serial 0x8a4b21c3, manufacturer id 0x000045, made 03/2022');
    expect(sd?.capabilities).toMatchObject({ transport: 'mmc', model: 'SC32G', serial: '0x1c2b3a49', mmc: { kind: 'sd' } });
    expect(sd?.plan).toMatchObject({ ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear' });
    expect(sd?.connection).toMatchObject({ summary: 'SD card', reportLine: 'Drive type: SD card; an SD card has no sanitize or secure erase command, so it is erased by overwrite (NIST Clear)' });
    // One EXT_CSD read, of the eMMC; nothing else is sent to either card (no smartctl, no SED probe).
    expect(calls().filter((c) => c[0] !== 'lsblk')).toEqual([['mmc', 'extcsd', 'read', '/dev/mmcblk0']]);
  });

  it('without sysfs the card is not told an eMMC: no eMMC command is sent and it is planned an overwrite', async () => {
    const { run, calls } = fakeRunner({ lsblk: [{ match: '^-J -b -O$', stdout: lsblkJson }], mmc: [{ match: '.', stdout: extcsd }] });
    const drives = await discoverDrives(run);
    expect(drives.map((d) => [d.device, d.capabilities.transport, d.plan.ok && d.plan.method])).toEqual([
      ['/dev/mmcblk0', 'mmc', 'overwrite'],
      ['/dev/mmcblk1', 'mmc', 'overwrite'],
    ]);
    expect(calls().filter((c) => c[0] === 'mmc')).toEqual([]);
  });

  // A station bay probes only the drive seated in it (discoverDrive), with the same sysfs.
  it('finds an eMMC seated in a station bay, probed on its own, as the listing does: its sanitize planned', async () => {
    tree = tablet();
    const own = JSON.stringify({ blockdevices: [JSON.parse(lsblkJson).blockdevices[0]] });
    const { run } = fakeRunner({ lsblk: [{ match: '^-J -b -O /dev/mmcblk0$', stdout: own }], mmc: [{ match: '^extcsd read /dev/mmcblk0$', stdout: extcsd }] });
    const drive = await discoverDrive(run, '/dev/mmcblk0', {}, tree.sys);
    expect(drive).toMatchObject({ device: '/dev/mmcblk0', capabilities: { transport: 'mmc', mmc: { kind: 'emmc' } }, plan: { ok: true, method: 'mmc-sanitize' } });
  });
});
