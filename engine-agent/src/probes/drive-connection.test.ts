import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRunner } from '../../test/support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE, workspaceDir } from '../../test/support/fixtures.js';
import { sysfsTree, type SysfsTree } from '../../test/support/sysfs-tree.js';
import { buildCapabilities, type DriveFacts } from '../drives/capabilities.js';
import { planErase } from '../drives/plan-erase.js';
import type { DiscoveredDrive } from './discover-drives.js';
import { disksOfController, reportedSerial, withConnections } from './drive-connection.js';
import type { RaidHost } from './raid-host.js';
import { parseSmartctlJsonText } from './smartctl-json.js';
import { parseSmartctlText } from './smartctl-text.js';

const PCI = '/sys/devices/pci0000:00/0000:00:03.0/0000:02:00.0';

function drive(facts: DriveFacts, internal = true): DiscoveredDrive {
  const capabilities = buildCapabilities(facts);
  return { device: facts.device, internal, capabilities, plan: planErase(capabilities), ...(facts.smart ? { smart: facts.smart } : {}) };
}

function megaraidDisk(t: SysfsTree, name: string, channel: number): void {
  const dev = `${PCI}/host0/target0:${channel}:0/0:${channel}:0:0`;
  t.file(`${dev}/block/${name}/size`, '0\n');
  t.link(`/sys/block/${name}`, `${dev}/block/${name}`);
  t.link(`${dev}/block/${name}/device`, dev);
  t.link(`${PCI}/driver`, '/sys/bus/pci/drivers/megaraid_sas');
}

describe.skipIf(!fixturesPresent)(`how each drive is attached, over ${FIXTURES_SKIP_NOTE}`, () => {
  let t: SysfsTree;
  afterEach(() => t.remove());

  it('the MegaRAID virtual disk names the physical disks it spans, each not erased with the reason', async () => {
    t = sysfsTree();
    megaraidDisk(t, 'sda', 2);
    const smart = parseSmartctlText(fixtureText('smartctl', 'avago-mr9361-16i-raid-virtual-disk-smart-unavailable.txt'));
    if (!smart.ok) throw new Error(smart.reason);
    const { run } = fakeRunner({
      smartctl: [
        { match: '--scan-open', fixture: 'smartctl/scan-megaraid-smartctl-scan-j.json' },
        { match: '-d megaraid,0 /dev/bus/0$', fixture: 'smartctl/seagate-st6000nm0115-megaraid-sat-smartctl-all.json' },
        { match: '-d megaraid,1 /dev/bus/0$', fixture: 'smartctl/wdc-wd4000fyyx-megaraid-sat-smartctl-a.json' },
      ],
    });
    const [vd] = await withConnections({ sys: t.sys, run }, [drive({ device: '/dev/sda', smart: smart.value })]);
    expect(vd?.connection?.kind).toBe('raid-virtual-disk');
    expect(vd?.connection?.summary).toBe('behind RAID controller (MegaRAID), virtual disk');
    expect(vd?.connection?.reportLine).toBe(
      'RAID virtual disk (MegaRAID) spanning ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB); WD4000FYYX (serial XXXXXXXXXXXX, 4001 GB): this erases the virtual disk, not the physical drives as such',
    );
    expect(vd?.connection?.details).toContain('ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB): not erased, behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive');
  });

  it('a disk the controller passes through (JBOD) is erased as a physical drive, and the other disk keeps its own row', async () => {
    t = sysfsTree();
    megaraidDisk(t, 'sdb', 0);
    const smart = parseSmartctlJsonText(fixtureText('smartctl', 'seagate-st6000nm0115-megaraid-sat-smartctl-all.json'));
    if (!smart.ok) throw new Error(smart.reason);
    const { run } = fakeRunner({
      smartctl: [
        { match: '--scan-open', fixture: 'smartctl/scan-megaraid-smartctl-scan-j.json' },
        { match: '-d megaraid,0 /dev/bus/0$', fixture: 'smartctl/seagate-st6000nm0115-megaraid-sat-smartctl-all.json' },
      ],
    });
    const [jbod] = await withConnections({ sys: t.sys, run }, [drive({ device: '/dev/sdb', smart: { ...smart.value, deviceType: 'sat' } })]);
    expect(jbod?.connection?.kind).toBe('raid-passthrough');
    expect(jbod?.connection?.summary).toBe('behind RAID controller (MegaRAID)');
    expect(jbod?.connection?.reportLine).toMatch(/^Connected through: MegaRAID RAID controller \(megaraid_sas\) in pass-through/);
  });

  it('a USB disk whose firmware erase the bridge refused says why the plan fell back', async () => {
    t = sysfsTree();
    const usb = '/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1';
    const dev = `${usb}/2-1:1.0/host6/target6:0:0/6:0:0:0`;
    t.file(`${dev}/block/sdc/size`, '0\n');
    t.link('/sys/block/sdc', `${dev}/block/sdc`);
    t.link(`${dev}/block/sdc/device`, dev);
    t.file(`${usb}/idVendor`, '152d\n');
    t.file(`${usb}/idProduct`, '0578\n');
    const smart = parseSmartctlJsonText(fixtureText('smartctl', 'hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json'));
    if (!smart.ok) throw new Error(smart.reason);
    const d = drive({ device: '/dev/sdc', smart: smart.value, hdparm: undefined }, false);
    const { run, calls } = fakeRunner({});
    const [bridged] = await withConnections({ sys: t.sys, run }, [d]);
    expect(bridged?.connection?.summary).toBe('through USB bridge (JMicron JMS578)');
    expect(bridged?.connection?.reportLine).toBe("Connected through: JMicron JMS578 USB bridge (152d:0578); firmware erase not passed through: the bridge's vendor pass-through carries SMART reads only, not ATA security or sanitize commands; the plan falls back to an overwrite of every sector");
    // No RAID host: smartctl is not asked to scan for controllers.
    expect(calls()).toEqual([]);
  });
});

/** Outputs captured from the boot image on QEMU's `megasas-gen2` (test/fixtures/raid/PROVENANCE.md). */
const qemu = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'raid', name), 'utf8');

/** A disk of a megaraid_sas host at `pci` (host `host`, SCSI channel `channel`), as QEMU's megasas-gen2 shows it. */
function megasasDisk(t: SysfsTree, pci: string, name: string, host: number, channel: number): void {
  const dev = `${pci}/host${host}/target${host}:${channel}:0/${host}:${channel}:0:0`;
  t.file(`${dev}/block/${name}/size`, '8192\n');
  t.link(`/sys/block/${name}`, `${dev}/block/${name}`);
  t.link(`${dev}/block/${name}/device`, dev);
  t.link(`${pci}/driver`, '/sys/bus/pci/drivers/megaraid_sas');
}

describe("QEMU's emulated MegaRAID (megasas-gen2), one controller in JBOD mode and one without", () => {
  let t: SysfsTree;
  afterEach(() => t.remove());

  const scenario = () =>
    fakeRunner({
      smartctl: [
        { match: '--scan-open', stdout: qemu('qemu-megasas-gen2-jbod-and-raid-smartctl-scan-open-json.json') },
        { match: '-d megaraid,0 /dev/bus/1$', stdout: qemu('qemu-megasas-gen2-raid-mode-pd0-megaraid-smartctl-a.json'), exit: 4 },
        { match: '-d megaraid,0 /dev/bus/0$', stdout: qemu('qemu-megasas-gen2-jbod-pd0-megaraid-smartctl-a.json'), exit: 4 },
      ],
    });
  const seen = (file: string, device: string) => {
    const smart = parseSmartctlJsonText(qemu(file));
    if (!smart.ok) throw new Error(smart.reason);
    return drive({ device, smart: smart.value });
  };

  it('the logical drive that answers with its member disk\'s serial is the virtual disk (SCSI channel 2), not a pass-through disk', async () => {
    t = sysfsTree();
    megasasDisk(t, '/sys/devices/pci0000:00/0000:00:03.0', 'sda', 0, 0);
    megasasDisk(t, '/sys/devices/pci0000:00/0000:00:04.0', 'sdb', 1, 2);
    const { run } = scenario();
    const [jbod, vd] = await withConnections({ sys: t.sys, run }, [seen('qemu-megasas-gen2-jbod-disk-smartctl-a.json', '/dev/sda'), seen('qemu-megasas-gen2-raid-mode-virtual-disk-smartctl-a.json', '/dev/sdb')]);
    // Both carry the serial of a physical disk smartctl reads behind a controller.
    expect([jbod?.capabilities.serial, vd?.capabilities.serial]).toEqual(['MR-JBOD-01', 'MR-VD-01']);
    expect(jbod?.connection?.kind).toBe('raid-passthrough');
    expect(jbod?.connection?.serial).toBeUndefined();
    expect(vd?.connection?.kind).toBe('raid-virtual-disk');
    expect(vd?.connection?.reportLine).toBe('RAID virtual disk (MegaRAID) spanning QEMU QEMU HARDDISK (serial MR-VD-01, 0 GB): this erases the virtual disk, not the physical drives as such');
    // The physical disk behind it gets its own not-erased row, with its own serial.
    expect(vd?.connection?.hidden).toEqual([
      { through: '/dev/bus/1', deviceType: 'megaraid,0', model: 'QEMU QEMU HARDDISK', serial: 'MR-VD-01', capacityBytes: 4194304, reason: 'behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive' },
    ]);
  });

  it("the virtual disk's wipe result does not certify under its member's serial: it is marked as the RAID virtual disk", async () => {
    t = sysfsTree();
    megasasDisk(t, '/sys/devices/pci0000:00/0000:00:04.0', 'sdb', 1, 2);
    const { run } = scenario();
    const [vd] = await withConnections({ sys: t.sys, run }, [seen('qemu-megasas-gen2-raid-mode-virtual-disk-smartctl-a.json', '/dev/sdb')]);
    expect(vd?.connection?.serial).toBe('MR-VD-01 (RAID virtual disk)');
    // The serial its wipe result and its validation look-up carry.
    expect(vd && reportedSerial(vd)).toBe('MR-VD-01 (RAID virtual disk)');
  });
});

describe('the physical disks a virtual disk spans', () => {
  const disk = (through: string, serial: string) => ({ through, deviceType: 'megaraid,0', serial });
  const host: RaidHost = { driver: 'megaraid_sas', family: 'MegaRAID', smartctlType: 'megaraid', hostNumber: 1, channel: 2 };

  it("are those of its own controller only: another controller's disks are not hung under its array", () => {
    const vd = drive({ device: '/dev/sdb' });
    expect(disksOfController(vd, host, [disk('/dev/bus/0', 'MR-JBOD-01'), disk('/dev/bus/0', 'MR-JBOD-02'), disk('/dev/bus/1', 'MR-VD-01')])).toEqual([disk('/dev/bus/1', 'MR-VD-01')]);
  });
});
