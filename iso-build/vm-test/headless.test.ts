import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, personalizedIso, SCREENS_DIR, SLOW, stickFrom, vmIdentity, workDir } from './harness.js';
import { dataPartitionOf } from '../src/data-partition.js';
import { sha256File, survivingSectors, writeSectorPattern } from './pattern.js';
import { Vm, vmSkipReason } from './qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);
if (skip) console.warn(`[iso] skipped: ${skip}`);

/**
 * erasure.mode=headless on SeaBIOS, booted from a USB stick written with the image: every target
 * drive is erased by its plan's method and certified; the stick itself is never touched. The four
 * targets (NVMe, SATA, virtio-scsi, virtio-blk) are each throttled like a slow disk and erased at
 * once: each wipe result reaches the cloud as its drive finishes.
 */
describe.skipIf(Boolean(skip))('headless run of the boot image in QEMU (SeaBIOS, USB stick)', () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>>;
  let vm: Vm;
  const identity = vmIdentity('QEMU-HL-0001');
  // Sizes differ so the drives finish in a clear order; the SATA disk's is not a multiple of 4 KiB.
  // The NVMe disk is small: QEMU's emulated NVMe reads at well under 1 MB/s under TCG, and the
  // read-back sample after its Format covers the whole of a small disk.
  const drives = [
    { kind: 'nvme' as const, serial: 'NVME-HL-01', file: join(work.dir, 'nvme.img'), bytes: 16 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'sata' as const, serial: 'SATA-HL-01', file: join(work.dir, 'sata.img'), bytes: 14 * MiB + 1536, bytesPerSecond: 2 * MiB },
    { kind: 'scsi' as const, serial: 'SCSI-HL-01', file: join(work.dir, 'scsi.img'), bytes: 10 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'virtio' as const, serial: 'VIRTIO-HL-01', file: join(work.dir, 'virtio.img'), bytes: 6 * MiB, bytesPerSecond: 2 * MiB },
  ];
  let stick = '';
  let stickHash = '';
  let imageBytes = 0;
  let serial = '';
  let accountId = '';

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'VM Headless Refurb');
    accountId = String(account.id);
    const token = await stack.cli('admin', 'mint-device-token', '--account', String(account.id), '--quota', '10');
    const iso = await personalizedIso(work.dir, 'headless', String(token.token), 'erasure.mode=headless erasure.devices=all erasure.confirm=yes erasure.after=poweroff');
    stick = stickFrom(iso, work.dir);
    // The image part of the stick; its ERASURE-DATA partition after it is the agent's to write.
    imageBytes = dataPartitionOf(stick)?.offset ?? 0;
    stickHash = sha256File(stick, imageBytes);
    for (const d of drives) writeSectorPattern(d.file, d.serial, d.bytes);
    vm = new Vm({
      name: 'headless',
      workDir: work.dir,
      firmware: 'bios',
      smbios: identity,
      gatewayPort: Number(new URL(stack.gateway.url).port),
      drives: [{ kind: 'usb-stick', file: stick, serial: 'STICK-01', boot: true }, ...drives.map(({ kind, file, serial, bytesPerSecond }) => ({ kind, file, serial, bytesPerSecond }))],
    });
    vm.start();
    // The run ends with erasure.after=poweroff: QEMU exits when the guest powers off.
    await vm.waitForSerial(/headless run finished/, 25 * 60_000 * (SLOW / 4 + 0.25));
    await vm.waitForExit(5 * 60_000);
    serial = vm.serial();
  }, 40 * 60_000);

  afterAll(async () => {
    vm?.stop();
    // The serial console of the run, kept for a person to read beside the screenshots.
    if (vm) copyFileSync(vm.serialLog, join(SCREENS_DIR, 'headless-serial.log'));
    await stack?.stop();
    work.cleanup();
  });

  it('boots, reads the token and gateway from the medium, and runs headless', () => {
    expect(serial).toMatch(/erasure: mode headless, gateway http:\/\/10\.0\.2\.100:8787 \(from medium\), device token from medium/);
  });

  it('refuses the USB stick it booted from, which shows up as an ordinary disk, and leaves its image part untouched', () => {
    expect(serial).toMatch(/skip \/dev\/sd[a-z]: \/dev\/sd[a-z] (holds an erasure boot image|carries the running system)[^\n]*\(boot_medium\)/);
    expect(imageBytes).toBeGreaterThan(0);
    expect(sha256File(stick, imageBytes)).toBe(stickHash);
  });

  it("mounts the stick's own ERASURE-DATA partition and binds it to this machine", () => {
    expect(serial).toMatch(/ERASURE-DATA volume \/dev\/sd[a-z]\d+ mounted at \/var\/lib\/erasure through a loop device \(a partition of the boot stick\) \(bound to this machine now\)/);
  });

  it('erases the NVMe drive by Format with User Data Erase, as its plan names', () => {
    expect(serial).toMatch(/plan \/dev\/nvme0n1: [^\n]*NVME-HL-01[^\n]*-> nvme-format-user-data/);
  });

  it('says why the SATA and SCSI disks have no firmware erase, and overwrites them and the virtio disk', () => {
    expect(serial).toMatch(/plan \/dev\/sd[a-z]: [^\n]*SATA-HL-01[^\n]*-> overwrite/);
    expect(serial).toMatch(/not ata-secure-erase: ATA Security feature set not supported/);
    expect(serial).toMatch(/plan \/dev\/sd[a-z]: [^\n]*SCSI-HL-01[^\n]*-> overwrite/);
    expect(serial).toMatch(/not scsi-sanitize-overwrite: SCSI SANITIZE[^\n]*not supported/);
    expect(serial).toMatch(/plan \/dev\/vd[a-z]: [^\n]*VIRTIO-HL-01[^\n]*-> overwrite/);
  });

  it("prints each drive's progress as pass n of N with rate and time left, and its finish with the job's count", () => {
    expect(serial).toMatch(/plan \/dev\/vd[a-z]: [^\n]*-> overwrite[^\n]*; about \d+ (s|min) \(from its size\)/);
    expect(serial).toMatch(/progress \/dev\/\w+: pass 1 of 1, writing, \d+%, [^;\n]*MB\/s, \d+ s elapsed, [^;\n]* left; job: \d of 4 drives done/);
    const finished = serial.match(/finished \/dev\/\w+: erased after [^;\n]+; job: \d of 4 drives done/g) ?? [];
    expect(finished).toHaveLength(4);
    expect(finished.at(-1)).toMatch(/job: 4 of 4 drives done/);
  });

  it('leaves no 512-byte sector of the original pattern on any drive, the tail of a size that is not a multiple of 4 KiB included', () => {
    expect(drives.some((d) => d.bytes % 4096 !== 0)).toBe(true);
    for (const d of drives) expect({ drive: d.serial, ...survivingSectors(d.file, d.serial) }).toEqual({ drive: d.serial, survivors: 0, sectors: d.bytes / 512 });
  });

  it('erases the four drives at once, and each wipe result reaches the cloud in the order the drives finished', () => {
    const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT drive_serial, started_at, completed_at FROM wipe_results ORDER BY id').all() as Array<{ drive_serial: string; started_at: string; completed_at: string }>;
      expect(rows).toHaveLength(4);
      // Overlap: every drive started before any drive finished (the agent's own times, on the results).
      const lastStart = rows.map((r) => r.started_at).sort().at(-1) ?? '';
      const firstEnd = rows.map((r) => r.completed_at).sort()[0] ?? '';
      expect(lastStart < firstEnd, `last start ${lastStart}, first end ${firstEnd}`).toBe(true);
      // Arrival (row order) is finishing order: no result waited for a slower drive.
      expect(rows.map((r) => r.drive_serial)).toEqual([...rows].sort((a, b) => a.completed_at.localeCompare(b.completed_at)).map((r) => r.drive_serial));
    } finally {
      db.close();
    }
  });

  it('has the cloud hold the asset with the VM DMI identity, one wipe result per drive, and certificates', async () => {
    const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const asset = db.prepare('SELECT manufacturer, model, serial_number FROM assets').all();
      expect(asset).toEqual([{ manufacturer: identity.manufacturer, model: identity.product, serial_number: identity.serial }]);
      const results = db.prepare('SELECT drive_serial, wipe_method, wipe_status, validation, certifiable FROM wipe_results ORDER BY drive_serial').all() as Array<Record<string, unknown>>;
      expect(results.map((r) => r.drive_serial)).toEqual(['NVME-HL-01', 'SATA-HL-01', 'SCSI-HL-01', 'VIRTIO-HL-01']);
      expect(results.map((r) => [r.wipe_method, r.wipe_status, r.certifiable])).toEqual([
        ['NIST 800-88 R2 Purge', 'completed', 1],
        ['NIST 800-88 R2 Clear', 'completed', 1],
        ['NIST 800-88 R2 Clear', 'completed', 1],
        ['NIST 800-88 R2 Clear', 'completed', 1],
      ]);
    } finally {
      db.close();
    }
    const deadline = Date.now() + 120_000;
    let certificates: Array<{ drive_serial: string; status: string }> = [];
    while (Date.now() < deadline) {
      certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as typeof certificates;
      if (certificates.length === 4 && certificates.every((c) => c.status === 'complete')) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(certificates.map((c) => [c.drive_serial, c.status]).sort()).toEqual([
      ['NVME-HL-01', 'complete'],
      ['SATA-HL-01', 'complete'],
      ['SCSI-HL-01', 'complete'],
      ['VIRTIO-HL-01', 'complete'],
    ]);
  });
});
