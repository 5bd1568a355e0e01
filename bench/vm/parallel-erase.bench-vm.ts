import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, personalizedIso, SLOW, stickFrom, vmIdentity, workDir } from '../../iso-build/vm-test/harness.js';
import { writeSectorPattern } from '../../iso-build/vm-test/pattern.js';
import { accelerator, Vm, vmSkipReason, type VmDrive } from '../../iso-build/vm-test/qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);
if (skip) console.warn(`[bench] qemu-parallel skipped: ${skip}`);

/** A drive's erase inside a boot, in the guest kernel's seconds (the serial console's timestamps). */
interface DriveTime {
  readonly device: string;
  readonly serial: string;
  readonly start: number;
  readonly end: number;
}

/** Each named drive's start and finish, read off the headless run's console lines. */
export function driveTimes(serial: string, driveSerials: readonly string[]): DriveTime[] {
  const at = (line: string) => Number(/^\[\s*(\d+\.\d+)\]/.exec(line)?.[1] ?? Number.NaN);
  const lines = serial.split('\n');
  const out: DriveTime[] = [];
  for (const driveSerial of driveSerials) {
    // "plan /dev/nvme0n1: QEMU NVMe Ctrl NVME-BN-01 0.0 GiB -> …": the model may hold spaces, the serial is known.
    const device = lines.map((l) => new RegExp(`erasure: plan (/dev/\\w+): .* ${driveSerial} `).exec(l)?.[1]).find(Boolean);
    if (!device) continue;
    const start = lines.find((l) => l.includes(`erasure: start ${device}:`));
    const end = lines.find((l) => l.includes(`erasure: finished ${device}:`));
    if (start && end) out.push({ device, serial: driveSerial, start: at(start), end: at(end) });
  }
  return out;
}

/**
 * The figure: the whole machine's erase time (first drive's start to last drive's finish)
 * over the slowest drive's time when it is the only drive. nwipe and Blancco erase every drive at
 * once; one after another was 3.96x here. Goal: <= 1.2x.
 */
describe.skipIf(Boolean(skip))('bench: four throttled drives in one boot against the slowest alone (QEMU)', () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>>;
  let iso = '';
  const drives = [
    { kind: 'nvme' as const, serial: 'NVME-BN-01', file: join(work.dir, 'nvme.img'), bytes: 16 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'sata' as const, serial: 'SATA-BN-01', file: join(work.dir, 'sata.img'), bytes: 14 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'scsi' as const, serial: 'SCSI-BN-01', file: join(work.dir, 'scsi.img'), bytes: 10 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'virtio' as const, serial: 'VIRTIO-BN-01', file: join(work.dir, 'virtio.img'), bytes: 6 * MiB, bytesPerSecond: 2 * MiB },
  ];

  /** One headless boot from a fresh stick with these drives; resolves with its console once it powered off. */
  async function boot(name: string, targets: typeof drives): Promise<string> {
    for (const d of targets) writeSectorPattern(d.file, d.serial, d.bytes);
    const vmDrives: VmDrive[] = [{ kind: 'usb-stick', file: stickFrom(iso, work.dir), serial: 'STICK-BN-01', boot: true }, ...targets.map(({ kind, file, serial, bytesPerSecond }) => ({ kind, file, serial, bytesPerSecond }))];
    const vm = new Vm({ name, workDir: work.dir, firmware: 'bios', smbios: vmIdentity(`QEMU-BN-${name}`), gatewayPort: Number(new URL(stack.gateway.url).port), drives: vmDrives });
    vm.start();
    try {
      await vm.waitForSerial(/headless run finished/, 25 * 60_000 * (SLOW / 4 + 0.25));
      await vm.waitForExit(5 * 60_000);
      return vm.serial();
    } finally {
      vm.stop();
    }
  }

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Bench');
    const token = await stack.cli('admin', 'mint-device-token', '--account', String(account.id), '--quota', '10');
    iso = await personalizedIso(work.dir, 'bench', String(token.token), 'erasure.mode=headless erasure.devices=all erasure.confirm=yes erasure.after=poweroff');
  }, 5 * 60_000);

  afterAll(async () => {
    await stack?.stop();
    work.cleanup();
  });

  it('prints the whole erase time over the slowest drive alone', async () => {
    const together = driveTimes(await boot('bench-four', drives), drives.map((d) => d.serial));
    expect(together).toHaveLength(drives.length);
    const own = together.map((d) => ({ ...d, seconds: d.end - d.start }));
    const slowest = own.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    const whole = Math.max(...together.map((d) => d.end)) - Math.min(...together.map((d) => d.start));
    const alone = driveTimes(await boot('bench-alone', drives.filter((d) => d.serial === slowest.serial)), [slowest.serial]);
    expect(alone).toHaveLength(1);
    const aloneSeconds = alone[0]!.end - alone[0]!.start;
    console.log(`qemu parallel erase bench (${accelerator()}; each drive throttled to 2 MiB/s):`);
    for (const d of own) console.log(`  ${d.serial.padEnd(14)} ${d.seconds.toFixed(1).padStart(6)} s inside the four-drive run`);
    console.log(`  whole erase, four drives in one run:   ${whole.toFixed(1)} s`);
    console.log(`  slowest drive (${slowest.serial}) alone: ${aloneSeconds.toFixed(1)} s   (baseline, a boot of its own)`);
    console.log(`  whole / slowest alone: ${(whole / aloneSeconds).toFixed(2)}x (goal <= 1.2x; one after another was 3.96x)`);
  });
});
