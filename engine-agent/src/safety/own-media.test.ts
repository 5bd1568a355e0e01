import { describe, expect, it } from 'vitest';
import type { SystemView } from '../adapters/system-view.js';
import { buildCapabilities } from '../drives/capabilities.js';
import { planErase } from '../drives/plan-erase.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { BOOT_MEDIUM_WORDS, markOwnMedia } from './own-media.js';

/** sda (a customer disk) and sdb (a USB stick written with the erasure ISO, label ERASURE on sdb1). */
function machine(): SystemView {
  const links: Record<string, string> = {
    '/dev/sda': '/dev/sda',
    '/dev/sdb': '/dev/sdb',
    '/dev/disk/by-label/ERASURE': '/dev/sdb1',
    '/sys/dev/block/8:0': '/sys/devices/pci0000:00/ata1/host0/block/sda',
    '/sys/dev/block/8:16': '/sys/devices/pci0000:00/usb1/host6/block/sdb',
    '/sys/dev/block/8:17': '/sys/devices/pci0000:00/usb1/host6/block/sdb/sdb1',
  };
  const texts: Record<string, string> = {
    '/proc/self/mountinfo': '22 1 0:21 / / rw - overlay overlay rw\n',
    '/sys/class/block/sdb1/partition': '1\n',
    '/sys/class/block/sda/dev': '8:0\n',
    '/sys/class/block/sdb/dev': '8:16\n',
    '/sys/class/block/sdb1/dev': '8:17\n',
    '/proc/swaps': 'Filename Type Size Used Priority\n',
  };
  const dirs: Record<string, string[]> = { '/dev/disk/by-label': ['ERASURE'], '/sys/block/sdb': ['sdb1', 'holders', 'queue'] };
  const devNos: Record<string, string> = { '/dev/sda': '8:0', '/dev/sdb': '8:16' };
  return { realPath: async (p) => links[p], readText: async (p) => texts[p], listDir: async (p) => dirs[p] ?? [], deviceNumber: async (p) => devNos[p] };
}

const disk = (device: string): DiscoveredDrive => {
  const capabilities = buildCapabilities({ device, sysfs: { name: device.slice(5), sizeBytes: 8e9, rotational: false, logicalBlockSize: 512, physicalBlockSize: 512, model: 'DISK', serial: device, partitions: [] } });
  return { device, internal: true, capabilities, plan: planErase(capabilities) };
};

describe('the boot medium is a row, never a target', () => {
  it('keeps the boot medium in the list without a plan, in the words of its row; the customer disk keeps its plan', async () => {
    const [sda, sdb] = await markOwnMedia(machine(), [disk('/dev/sda'), disk('/dev/sdb')]);
    expect(sda?.plan.ok).toBe(true);
    expect(sda?.ownMedium).toBeUndefined();
    expect(sdb?.ownMedium).toBe(BOOT_MEDIUM_WORDS);
    expect(sdb?.plan).toEqual({ ok: false, reason: 'boot medium: never erased', rejected: [] });
  });
});
