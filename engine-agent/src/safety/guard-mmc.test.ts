import { describe, expect, it } from 'vitest';
import type { SystemView } from '../adapters/system-view.js';
import { guardTarget } from './guard.js';

/** A thin client booted from its own eMMC (mmcblk0, image on mmcblk0p1), with the eMMC's boot0 area beside it. */
function thinClient(): SystemView {
  const links: Record<string, string> = {
    '/dev/mmcblk0': '/dev/mmcblk0',
    '/dev/mmcblk0boot0': '/dev/mmcblk0boot0',
    '/sys/dev/block/179:0': '/sys/devices/pci0000:00/0000:00:1c.0/mmc_host/mmc0/mmc0:0001/block/mmcblk0',
    '/sys/dev/block/179:1': '/sys/devices/pci0000:00/0000:00:1c.0/mmc_host/mmc0/mmc0:0001/block/mmcblk0/mmcblk0p1',
    '/sys/dev/block/179:8': '/sys/devices/pci0000:00/0000:00:1c.0/mmc_host/mmc0/mmc0:0001/block/mmcblk0/mmcblk0boot0',
  };
  const texts: Record<string, string> = {
    '/proc/self/mountinfo': '22 1 179:1 / /run/live/medium ro - iso9660 /dev/mmcblk0p1 ro\n',
    '/sys/class/block/mmcblk0p1/partition': '1\n',
    '/sys/class/block/mmcblk0/dev': '179:0\n',
    '/sys/class/block/mmcblk0p1/dev': '179:1\n',
    '/proc/swaps': 'Filename Type Size Used Priority\n',
  };
  const dirs: Record<string, string[]> = { '/sys/block/mmcblk0': ['mmcblk0p1', 'holders', 'queue'] };
  const devNos: Record<string, string> = { '/dev/mmcblk0': '179:0', '/dev/mmcblk0boot0': '179:8' };
  return { realPath: async (p) => links[p], readText: async (p) => texts[p], listDir: async (p) => dirs[p] ?? [], deviceNumber: async (p) => devNos[p] };
}

describe('an eMMC is guarded like any disk (issue 30 item 4)', () => {
  it('refuses the eMMC the machine booted from', async () => {
    const v = await guardTarget(thinClient(), '/dev/mmcblk0', ['/dev/mmcblk0']);
    expect(v).toMatchObject({ ok: false, code: 'boot_medium', reason: '/dev/mmcblk0 carries the running system (/run/live/medium)' });
  });

  it("refuses an eMMC's boot partition named on its own: it is an area of the card, not a drive", async () => {
    const v = await guardTarget(thinClient(), '/dev/mmcblk0boot0', ['/dev/mmcblk0boot0']);
    expect(v).toEqual({ ok: false, path: '/dev/mmcblk0boot0', code: 'not_whole_disk', reason: '/dev/mmcblk0boot0 is a boot partition or the RPMB area of the eMMC mmcblk0: select the card itself' });
  });
});
