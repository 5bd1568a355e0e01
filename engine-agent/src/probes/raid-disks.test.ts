import { describe, expect, it } from 'vitest';
import { fakeRunner } from '../../test/support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { BEHIND_VIRTUAL_DISK, hiddenDiskRows, listControllerDisks, raidScanEntries, virtualDiskWords, type ControllerDisk } from './raid-disks.js';

const SEAGATE = 'smartctl/seagate-st6000nm0115-megaraid-sat-smartctl-all.json';
const WDC = 'smartctl/wdc-wd4000fyyx-megaraid-sat-smartctl-a.json';

describe.skipIf(!fixturesPresent)(`physical disks behind a RAID controller, over ${FIXTURES_SKIP_NOTE}`, () => {
  it('the scan lists the megaraid disks and not the directly attached ones', () => {
    const entries = raidScanEntries(fixtureText('smartctl', 'scan-megaraid2-smartctl-scan-json.json'));
    expect(entries.map((e) => e.type)).toEqual(expect.arrayContaining(['megaraid,8', 'megaraid,9', 'megaraid,14']));
    expect(entries.every((e) => e.name === '/dev/bus/6')).toBe(true);
    expect(entries.some((e) => e.name === '/dev/sdc')).toBe(false);
    expect(raidScanEntries(fixtureText('smartctl', 'scan-megaraid-smartctl-scan-j.json')).map((e) => `${e.name} ${e.type}`)).toEqual(['/dev/bus/0 megaraid,0', '/dev/bus/0 megaraid,1']);
  });

  it('each disk the scan lists is read with -d megaraid,N: model, serial, capacity and SMART', async () => {
    const { run, calls } = fakeRunner({
      smartctl: [
        { match: '--scan-open', fixture: 'smartctl/scan-megaraid2-smartctl-scan-json.json' },
        { match: '-d megaraid,14 /dev/bus/6$', fixture: SEAGATE },
        { match: '-d megaraid,8 /dev/bus/6$', fixture: WDC },
      ],
    });
    const disks = await listControllerDisks(run);
    expect(disks.map((d) => [d.deviceType, d.model, d.serial, d.capacityBytes])).toEqual([
      ['megaraid,8', 'WD4000FYYX', 'XXXXXXXXXXXX', 4000787030016],
      ['megaraid,14', 'ST6000NM0115-1YZ110', 'ZAD2C11G', 6001175126016],
    ]);
    expect(disks[1]?.smart?.powerOnHours).toBeGreaterThan(0);
    expect(disks[1]?.smart?.viaRaidController).toBe(true);
    expect(calls().filter((c) => c.includes('-d')).length).toBeGreaterThan(2);
  });

  it('HPE Smart Array disks are probed by -d cciss,N until the first empty slot', async () => {
    // smartctl --scan lists no cciss disks; slot 0 answers as a SATA disk behind the controller does.
    const { run, calls } = fakeRunner({ smartctl: [{ match: '-d cciss,0 /dev/sg1$', fixture: SEAGATE }] });
    const disks = await listControllerDisks(run, ['/dev/sg1']);
    expect(disks.map((d) => `${d.deviceType} ${d.serial}`)).toEqual(['cciss,0 ZAD2C11G']);
    expect(calls().map((c) => c.join(' '))).toContain('smartctl --json -a -d cciss,1 /dev/sg1');
    expect(calls().map((c) => c.join(' '))).not.toContain('smartctl --json -a -d cciss,2 /dev/sg1');
  });
});

const disk = (serial: string, model = 'ST6000NM0115-1YZ110'): ControllerDisk => ({ through: '/dev/bus/0', deviceType: 'megaraid,0', model, serial, capacityBytes: 6001175126016 });

describe('a row per physical disk behind a virtual disk', () => {
  it('a disk the controller passes through (its serial is on a listed sdX) needs no row of its own', () => {
    expect(hiddenDiskRows([disk('ZAD2C11G')], ['zad2c11g '])).toEqual([]);
  });

  it('a disk only a virtual disk shows gets its own row: not erased, the reason, review', () => {
    expect(hiddenDiskRows([disk('ZAD2C11G'), disk('ZAD2C22H')], ['00574c0df553f2000000349c07b26200'])).toEqual([
      { disk: disk('ZAD2C11G'), reason: BEHIND_VIRTUAL_DISK, disposition: 'review' },
      { disk: disk('ZAD2C22H'), reason: BEHIND_VIRTUAL_DISK, disposition: 'review' },
    ]);
    expect(BEHIND_VIRTUAL_DISK).toBe('behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive');
  });

  it("a virtual disk's wipe text says it is a virtual disk and names the disks it spans", () => {
    const words = virtualDiskWords({ family: 'MegaRAID' }, [disk('ZAD2C11G'), disk('WD-1', 'WD4000FYYX')]);
    expect(words).toBe('RAID virtual disk (MegaRAID) spanning ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB); WD4000FYYX (serial WD-1, 6001 GB): this erases the virtual disk, not the physical drives as such');
  });
});
