import type { Runner } from '../../src/adapters/runner.js';
import { fixtureText } from './fixtures.js';

/**
 * A laptop replayed from real captures whose SATA SSD (sda) the BIOS froze: lsblk lists it (and
 * the NVMe SSD and loop devices beside it, each lsblk call with a device answering that device's
 * own entry, as lsblk does), hdparm -I says "frozen". Any other tool answers nothing, as an
 * absent one would. `rtcwake` is never answered: a test keeps the freeze lock removal off.
 */
export function frozenLaptop(): { run: Runner; calls: string[][] } {
  const listing = fixtureText('lsblk', 'laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json');
  const entries = (JSON.parse(listing) as { blockdevices: Array<{ path?: string }> }).blockdevices;
  const calls: string[][] = [];
  const run: Runner = async (tool, args) => {
    calls.push([tool, ...args]);
    const device = args.find((a) => a.startsWith('/dev/')) ?? '';
    const answer: Record<string, () => string> = {
      lsblk: () => (args.length === 3 ? listing : JSON.stringify({ blockdevices: entries.filter((e) => e.path === device) })),
      smartctl: () => fixtureText('smartctl', device.includes('nvme') ? 'samsung-970evo-nvme-smartctl-x.json' : 'micron-5200-mtfddak960tdn-sata-ssd-smartctl-a.json'),
      hdparm: () => fixtureText('hdparm', args[0] === '-I' ? 'tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt' : 'forensicswiki-hdparm-N-hpa-disabled.txt'),
      nvme: () => fixtureText('nvme', 'samsung-980pro-1tb-nvme-id-ctrl-json-sorted.json'),
    };
    const stdout = answer[tool]?.();
    return { exitCode: stdout === undefined ? 127 : 0, stdout: stdout ?? '', stderr: stdout === undefined ? `${tool}: not on this machine` : '', timedOut: false, outputTruncated: false, durationMs: 1 };
  };
  return { run, calls };
}
