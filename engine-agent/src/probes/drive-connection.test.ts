import { afterEach, describe, expect, it } from 'vitest';
import { fakeRunner } from '../../test/support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { sysfsTree, type SysfsTree } from '../../test/support/sysfs-tree.js';
import { buildCapabilities, type DriveFacts } from '../drives/capabilities.js';
import { planErase } from '../drives/plan-erase.js';
import type { DiscoveredDrive } from './discover-drives.js';
import { withConnections } from './drive-connection.js';
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
