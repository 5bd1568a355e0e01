import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, personalizedIso, SCREENS_DIR, SLOW, stickFrom, vmIdentity, workDir } from './harness.js';
import { dataPartitionOf } from '../src/data-partition.js';
import { sha256File, survivingSectors, writeSectorPattern } from './pattern.js';
import { Vm, vmSkipReason, type VmDrive } from './qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);
if (skip) console.warn(`[iso] skipped: ${skip}`);

/**
 * Whether the ext4 filesystem at `offset` of `file` was left mounted: ext4 sets its journal's
 * needs_recovery flag (incompat 0x4) when mounted and clears it on a clean unmount.
 */
function leftMounted(file: string, offset: number): boolean {
  const sb = Buffer.alloc(1024);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, sb, 0, sb.length, offset + 1024);
  } finally {
    closeSync(fd);
  }
  if (sb.readUInt16LE(0x38) !== 0xef53) throw new Error(`no ext4 superblock at ${offset} of ${file}`);
  return (sb.readUInt32LE(0x60) & 0x4) !== 0;
}

/**
 * Freezes the guest's CPUs (QMP `stop`) as soon as its console matches, so nothing it would do
 * next runs: with erasure.after=poweroff the line asked for is followed at once by a shutdown
 * that unmounts the volumes. Reads only what the console added, every 50 ms.
 */
async function freezeOnSerial(vm: Vm, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const fd = openSync(vm.serialLog, 'r');
  const chunk = Buffer.alloc(1 << 16);
  let log = '';
  try {
    for (;;) {
      let n: number;
      while ((n = readSync(fd, chunk, 0, chunk.length, null)) > 0) log += chunk.toString('latin1', 0, n);
      if (pattern.test(log)) break;
      const dead = vm.dead();
      if (dead) throw new Error(`${vm.opts.name}: ${dead} before the serial log showed ${pattern}\n${log.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`${vm.opts.name}: no ${pattern} on the serial console within ${timeoutMs / 1000} s\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    closeSync(fd);
  }
  const exited = vm.waitForExit(Number.MAX_SAFE_INTEGER).then((code) => {
    throw new Error(`${vm.opts.name}: QEMU exited (${code}) before it could be frozen: the guest shut down first`);
  });
  await Promise.race([vm.qmp('stop'), exited]);
  exited.catch(() => undefined);
  return log;
}

/** A small PDF document, as a customer's file left on a drive would start. */
const SMALL_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** Writes `bytes` into a drive's backing file at `offset`, as the host sees it (the guest's reads go to this file). */
function writeInto(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** Signs in to the cloud's web app over HTTP as `email`, for the admin calls a person makes there. */
async function webAppAdmin(cloudUrl: string, email: string, password: string) {
  const login = await fetch(new URL('/login', cloudUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }), redirect: 'manual' });
  if (login.status !== 303) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
  const me = (await (await fetch(new URL('/app/api/me', cloudUrl), { headers: { cookie } })).json()) as { csrf_token: string };
  return (method: string, path: string, body: unknown) =>
    fetch(new URL(path, cloudUrl), { method, headers: { cookie, 'x-csrf-token': me.csrf_token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/**
 * erasure.mode=headless on SeaBIOS, booted twice from one USB stick written with the image, on one
 * machine. The virtio disk of each boot is erased with DoD 5220.22-M (3 passes) by
 * `erasure.method=/dev/vda:…`, the others by their plan's default method. Boot 1: the machine is allowed and erases a drive; the gateway goes away mid-erase, so
 * the result cannot be delivered and is kept on the stick's own ERASURE-DATA partition; the power
 * is then cut (the guest frozen the moment it says so, QEMU killed: nothing unmounted). Boot 2,
 * the gateway back and four other drives in: the kept result is delivered before anything else,
 * then every target drive is erased and certified; with `erasure.validate=yes` and the account's
 * validation rate at 100 %, every drive is then picked and read back by the validate mode (one of
 * them written with a PDF file by the test after its erase, while the guest is held just before
 * the reads, so it is rejected), and the machine powers off (erasure.after=poweroff). The stick's image part is never touched. The four targets (NVMe,
 * SATA, virtio-scsi, virtio-blk) are each throttled like a slow disk and erased at once: each
 * wipe result reaches the cloud as its drive finishes.
 */
describe.skipIf(Boolean(skip))('headless runs of the boot image in QEMU (SeaBIOS, USB stick): a result kept through a power cut, then four drives', () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>>;
  const identity = vmIdentity('QEMU-HL-0001');
  // Boot 1's drive; the power is cut after its erase.
  const cutDrive = { serial: 'VIRTIO-PC-01', file: join(work.dir, 'virtio-pc.img'), bytes: 8 * MiB };
  // Boot 2's drives. Sizes differ so they finish in a clear order; the SATA disk's is not a
  // multiple of 4 KiB. The NVMe disk is small: QEMU's emulated NVMe reads at well under 1 MB/s
  // under TCG, and the read-back sample after its Format covers the whole of a small disk.
  const drives = [
    { kind: 'nvme' as const, serial: 'NVME-HL-01', file: join(work.dir, 'nvme.img'), bytes: 16 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'sata' as const, serial: 'SATA-HL-01', file: join(work.dir, 'sata.img'), bytes: 14 * MiB + 1536, bytesPerSecond: 2 * MiB },
    { kind: 'scsi' as const, serial: 'SCSI-HL-01', file: join(work.dir, 'scsi.img'), bytes: 10 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'virtio' as const, serial: 'VIRTIO-HL-01', file: join(work.dir, 'virtio.img'), bytes: 6 * MiB, bytesPerSecond: 2 * MiB },
  ];
  // ---- boot 2, RAID (issue 30 item 3): QEMU's emulated MegaRAID SAS 2108 (megasas-gen2), one
  // controller in JBOD mode and one without. The JBOD disk is erased and certified as itself; the
  // other is seen only as the controller's virtual disk, which is erased and certified marked as
  // the virtual disk, while the physical disk behind it gets a not-erased result of its own.
  const raidDrives = [
    { kind: 'megasas' as const, jbod: true, serial: 'MR-JBOD-01', file: join(work.dir, 'megasas-jbod.img'), bytes: 8 * MiB, bytesPerSecond: 2 * MiB },
    { kind: 'megasas' as const, jbod: false, serial: 'MR-VD-01', file: join(work.dir, 'megasas-vd.img'), bytes: 8 * MiB, bytesPerSecond: 2 * MiB },
  ];
  /** The wipe result serial of the virtual disk: QEMU's logical drive answers with its member's serial. */
  const VD_SERIAL = 'MR-VD-01 (RAID virtual disk)';
  // ---- end of boot 2, RAID
  // ---- sd-emmc (issue 30 item 4): an SD card behind sdhci-pci in boot 2 ----
  // QEMU's sd-card takes only an image whose size is a power of 2. Its CID is QEMU's own (product
  // name "QEMU!", serial 0xdeadbeef), which the agent reads from sysfs: the card's result carries
  // that serial. `tag` marks the card's sectors of the original pattern.
  const sdCard = { kind: 'sd-card' as const, tag: 'SD-HL-01', serial: '0xdeadbeef', file: join(work.dir, 'sd.img'), bytes: 8 * MiB, bytesPerSecond: 2 * MiB };
  const sdCardDrives: VmDrive[] = [{ kind: sdCard.kind, file: sdCard.file, bytesPerSecond: sdCard.bytesPerSecond }];
  // ---- end sd-emmc ----
  // Every target of boot 2 (each block above adds its own).
  const bootTwoTargets = drives.length + raidDrives.length + sdCardDrives.length;
  let stick = '';
  let stickHash = '';
  let dataPart = { offset: 0, bytes: 0 };
  let accountId = '';
  const vms: Vm[] = [];

  const boot = async (name: string, bootDrives: readonly VmDrive[]) => {
    const vm = new Vm({
      name,
      workDir: work.dir,
      firmware: 'bios',
      smbios: identity,
      gatewayPort: Number(new URL(stack.gateway.url).port),
      drives: [{ kind: 'usb-stick', file: stick, serial: 'STICK-01', boot: true }, ...bootDrives],
    });
    vms.push(vm);
    await vm.boot({ timeoutMs: 15 * 60_000 * (SLOW / 4 + 0.25) });
    return vm;
  };

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'VM Headless Refurb');
    accountId = String(account.id);
    // R2v3 sampling: an admin sets the account's validation rate to 100 % in the web app, so every
    // certified drive of the token's lot is picked for validation.
    await stack.cli('admin', 'create-user', '--account', accountId, '--email', 'admin@vm.example', '--password', 'vm-admin-password', '--role', 'admin');
    const admin = await webAppAdmin(stack.cloud.url, 'admin@vm.example', 'vm-admin-password');
    const rate = await admin('PUT', '/app/api/validation/rate', { rate_percent: 100 });
    if (rate.status !== 200) throw new Error(`validation rate not set: ${rate.status} ${await rate.text()}`);
    const token = await stack.cli('admin', 'mint-device-token', '--account', accountId, '--quota', '10', '--customer', 'VM Customer', '--lot', 'LOT-VM-1');
    // Baked in once, so both boots run with it: boot 1 never gets to power off (it is frozen
    // first), boot 2 must. The virtio disk (/dev/vda in both boots) is erased by DoD 3-pass.
    const iso = await personalizedIso(
      work.dir,
      'headless',
      String(token.token),
      'erasure.mode=headless erasure.devices=all erasure.confirm=yes erasure.after=poweroff erasure.method=/dev/vda:dod-5220.22-m-3 erasure.validate=yes',
    );
    stick = stickFrom(iso, work.dir);
    // The image part of the stick; its ERASURE-DATA partition after it is the agent's to write.
    dataPart = dataPartitionOf(stick) ?? dataPart;
    stickHash = sha256File(stick, dataPart.offset);
    writeSectorPattern(cutDrive.file, cutDrive.serial, cutDrive.bytes);
    for (const d of drives) writeSectorPattern(d.file, d.serial, d.bytes);
    for (const d of raidDrives) writeSectorPattern(d.file, d.serial, d.bytes);
    writeSectorPattern(sdCard.file, sdCard.tag, sdCard.bytes); // sd-emmc
  }, 5 * 60_000);

  afterAll(async () => {
    for (const vm of vms) {
      vm.stop();
      // The serial console of each boot, kept for a person to read beside the screenshots.
      copyFileSync(vm.serialLog, join(SCREENS_DIR, `${vm.opts.name}-serial.log`));
    }
    await stack?.stop();
    work.cleanup();
  });

  describe('boot 1: the gateway goes away mid-erase, then the power is cut', () => {
    let serial = '';
    let statusAtCut: unknown;
    let mountedAtCut = false;

    beforeAll(async () => {
      const started = Date.now();
      const vm = await boot('headless-1', [{ kind: 'virtio', file: cutDrive.file, serial: cutDrive.serial, bytesPerSecond: 1 * MiB }]);
      await vm.waitForSerial(/start \/dev\/vd[a-z]:/, 15 * 60_000 * (SLOW / 4 + 0.25));
      await stack.stopGateway();
      await vm.qmp('query-status'); // the QMP connection, open before the moment it is needed
      await freezeOnSerial(vm, /not delivered yet, kept on the ERASURE-DATA volume/, 10 * 60_000 * (SLOW / 4 + 0.25));
      statusAtCut = await vm.qmp('query-status');
      // The power cut: QEMU killed, nothing flushed or unmounted by the guest.
      vm.stop();
      await vm.waitForExit(30_000);
      serial = vm.serial();
      mountedAtCut = leftMounted(stick, dataPart.offset);
      console.info(`boot 1 (power cut) took ${Math.round((Date.now() - started) / 1000)} s`);
    }, 30 * 60_000);

    it('boots, reads the token and gateway from the medium, and runs headless', () => {
      expect(serial).toMatch(/erasure: mode headless, gateway http:\/\/10\.0\.2\.100:8787 \(from medium\), device token from medium/);
    });

    it("mounts the stick's own ERASURE-DATA partition and binds it to this machine", () => {
      expect(serial).toMatch(/ERASURE-DATA volume \/dev\/sd[a-z]\d+ mounted at \/var\/lib\/erasure through a loop device \(a partition of the boot stick\) \(bound to this machine now\)/);
    });

    it("keeps the result on the stick's ERASURE-DATA partition when the gateway is unreachable after the erase", () => {
      expect(serial).toMatch(/plan \/dev\/vda: [^\n]*VIRTIO-PC-01[^\n]*DoD 5220\.22-M \(3 passes\)/);
      expect(serial).toMatch(/result \/dev\/vda: erased by overwrite, wipe result not delivered/);
      expect(serial).toMatch(/1 wipe result\(s\) not delivered yet, kept on the ERASURE-DATA volume/);
      expect(survivingSectors(cutDrive.file, cutDrive.serial)).toEqual({ survivors: 0, sectors: cutDrive.bytes / 512 });
    });

    it('cuts the power while the machine still runs: the ERASURE-DATA volume is still mounted, its journal not closed', () => {
      expect(statusAtCut).toMatchObject({ running: false, status: 'paused' });
      expect(mountedAtCut).toBe(true);
    });
  });

  describe('boot 2: the gateway back, four drives in', () => {
    let serial = '';
    let exitCode: number | null = null;
    let mountedAfter = true;
    // Where the test writes a PDF into the SCSI disk after its erase, before its validation read.
    const planted = { serial: 'SCSI-HL-01', offset: 9 * MiB };

    beforeAll(async () => {
      const started = Date.now();
      await stack.restartGateway();
      const vm = await boot('headless-2', [
        ...drives.map(({ kind, file, serial: s, bytesPerSecond }) => ({ kind, file, serial: s, bytesPerSecond })),
        ...raidDrives.map(({ kind, jbod, file, serial: s, bytesPerSecond }) => ({ kind, jbod, file, serial: s, bytesPerSecond })),
        ...sdCardDrives,
      ]);
      await vm.waitForSerial(/kept wipe results from an earlier run: \d+ delivered/, 15 * 60_000 * (SLOW / 4 + 0.25));
      await vm.waitForSerial(/headless run finished/, 25 * 60_000 * (SLOW / 4 + 0.25));
      const validationStarted = Date.now();
      // erasure.validate=yes: the guest is held as it names the drives it is about to look up and
      // read; a file is then written onto the SCSI disk through its backing file, and it goes on.
      await vm.qmp('query-status');
      await freezeOnSerial(vm, /validate: looking up \d+ drive\(s\) with the cloud/, 5 * 60_000 * (SLOW / 4 + 0.25));
      const scsi = drives.find((d) => d.serial === planted.serial)!;
      writeInto(scsi.file, planted.offset, SMALL_PDF);
      await vm.qmp('cont');
      await vm.waitForSerial(/validate: finished/, 15 * 60_000 * (SLOW / 4 + 0.25));
      console.info(`boot 2: validating the ${bootTwoTargets} picked drives took ${Math.round((Date.now() - validationStarted) / 1000)} s`);
      // The run ends with erasure.after=poweroff: QEMU exits when the guest powers off.
      exitCode = await vm.waitForExit(5 * 60_000);
      serial = vm.serial();
      mountedAfter = leftMounted(stick, dataPart.offset);
      console.info(`boot 2 (headless, ${bootTwoTargets} drives) took ${Math.round((Date.now() - started) / 1000)} s`);
    }, 40 * 60_000);

    it('boots, reads the token and gateway from the medium, and runs headless', () => {
      expect(serial).toMatch(/erasure: mode headless, gateway http:\/\/10\.0\.2\.100:8787 \(from medium\), device token from medium/);
    });

    it('finds the same volume bound to this machine after the power cut', () => {
      expect(serial).toMatch(/ERASURE-DATA volume \/dev\/sd[a-z]\d+ mounted at \/var\/lib\/erasure through a loop device \(a partition of the boot stick\): /);
      expect(serial).not.toMatch(/bound to this machine now/);
    });

    it('delivers the kept result before anything else at the next boot', () => {
      expect(serial).toMatch(/kept result [0-9a-f-]+-\d+: delivered, wipe result \S+/);
      expect(serial).toMatch(/kept wipe results from an earlier run: 1 delivered, 0 refused, 0 still waiting/);
      expect(serial.indexOf('kept wipe results from an earlier run')).toBeLessThan(serial.indexOf('session health'));
      expect(serial.indexOf('kept wipe results from an earlier run')).toBeLessThan(serial.indexOf('plan /dev/'));
    });

    it('refuses the USB stick it booted from, which shows up as an ordinary disk, and leaves its image part untouched across both boots', () => {
      expect(serial).toMatch(/skip \/dev\/sd[a-z]: \/dev\/sd[a-z] (holds an erasure boot image|carries the running system)[^\n]*\(boot_medium\)/);
      expect(dataPart.offset).toBeGreaterThan(0);
      expect(sha256File(stick, dataPart.offset)).toBe(stickHash);
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
      // Every target: the four drives, the two megasas disks (the JBOD disk and the virtual disk) and the SD card.
      expect(serial).toMatch(new RegExp(`progress /dev/\\w+: pass 1 of 1, writing, \\d+%, [^;\\n]*MB/s, \\d+ s elapsed, [^;\\n]* left; job: \\d of ${bootTwoTargets} drives done`));
      const finished = serial.match(new RegExp(`finished /dev/\\w+: erased after [^;\\n]+; job: \\d of ${bootTwoTargets} drives done`, 'g')) ?? [];
      expect(finished).toHaveLength(bootTwoTargets);
      expect(finished.at(-1)).toMatch(new RegExp(`job: ${bootTwoTargets} of ${bootTwoTargets} drives done`));
    });

    it('leaves no 512-byte sector of the original pattern on any drive, the tail of a size that is not a multiple of 4 KiB included', () => {
      expect(drives.some((d) => d.bytes % 4096 !== 0)).toBe(true);
      for (const d of drives) expect({ drive: d.serial, ...survivingSectors(d.file, d.serial) }).toEqual({ drive: d.serial, survivors: 0, sectors: d.bytes / 512 });
    });

    it('erases every target at once, and each wipe result reaches the cloud in the order the drives finished, after the kept one', () => {
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const all = db.prepare('SELECT drive_serial, wipe_status, started_at, completed_at FROM wipe_results ORDER BY id').all() as Array<{ drive_serial: string; wipe_status: string; started_at: string; completed_at: string }>;
        // Boot 1's kept result, boot 2's erased targets and the physical disk the megasas virtual disk hides.
        expect(all).toHaveLength(1 + bootTwoTargets + 1);
        // The kept result of boot 1 arrived first, before any of boot 2's.
        expect(all[0]?.drive_serial).toBe(cutDrive.serial);
        // The erased ones: the not-erased result of the hidden disk has no erase to overlap.
        const rows = all.slice(1).filter((r) => r.wipe_status === 'completed');
        expect(rows).toHaveLength(bootTwoTargets);
        // Overlap: every drive started before any drive finished (the agent's own times, on the results).
        const lastStart = rows.map((r) => r.started_at).sort().at(-1) ?? '';
        const firstEnd = rows.map((r) => r.completed_at).sort()[0] ?? '';
        expect(lastStart < firstEnd, `last start ${lastStart}, first end ${firstEnd}`).toBe(true);
        // Arrival (row order) is finishing order: no result waited for a slower drive. Two drives
        // that finish within a second of each other (seen: 52 ms apart) may arrive either way round.
        // The four drives of clearly different sizes only: the megasas disks finished within 0.4 s
        // of the SCSI disk on a loaded TCG host, their times 1.4 s apart; their results are checked in their own tests.
        const ordered = rows.filter((r) => drives.some((d) => d.serial === r.drive_serial));
        expect(ordered).toHaveLength(4);
        const ends = ordered.map((r) => Date.parse(r.completed_at));
        for (let i = 0; i < ends.length; i++) {
          for (let j = i + 1; j < ends.length; j++) {
            expect((ends[i] as number) - (ends[j] as number), `${ordered[i]?.drive_serial} (done ${ordered[i]?.completed_at}) arrived before ${ordered[j]?.drive_serial} (done ${ordered[j]?.completed_at})`).toBeLessThan(1_000);
          }
        }
      } finally {
        db.close();
      }
    });

    it('has the cloud hold the asset with the VM DMI identity, exactly one wipe result per drive of both boots, and certificates', async () => {
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const asset = db.prepare('SELECT manufacturer, model, serial_number FROM assets').all();
        expect(asset).toEqual([{ manufacturer: identity.manufacturer, model: identity.product, serial_number: identity.serial }]);
        const results = db.prepare('SELECT drive_serial, wipe_method, wipe_status, validation, certifiable FROM wipe_results ORDER BY drive_serial').all() as Array<Record<string, unknown>>;
        // The megasas disks' results are checked in their own test below.
        const raid = (s: unknown) => String(s).startsWith('MR-');
        expect(results.filter((r) => raid(r.drive_serial)).map((r) => r.drive_serial)).toEqual(['MR-JBOD-01', 'MR-VD-01', VD_SERIAL]);
        expect(results.filter((r) => !raid(r.drive_serial)).map((r) => r.drive_serial)).toEqual([sdCard.serial, 'NVME-HL-01', 'SATA-HL-01', 'SCSI-HL-01', 'VIRTIO-HL-01', 'VIRTIO-PC-01']);
        expect(results.filter((r) => !raid(r.drive_serial)).map((r) => [r.wipe_method, r.wipe_status, r.certifiable])).toEqual([
          ['NIST 800-88 R2 Clear', 'completed', 1], // sd-emmc: the SD card, Clear by overwrite
          ['NIST 800-88 R2 Purge', 'completed', 1],
          ['NIST 800-88 R2 Clear', 'completed', 1],
          ['NIST 800-88 R2 Clear', 'completed', 1],
          ['DoD 5220.22-M (3 passes)', 'completed', 1],
          ['DoD 5220.22-M (3 passes)', 'completed', 1],
        ]);
      } finally {
        db.close();
      }
      const deadline = Date.now() + 120_000;
      let certificates: Array<{ drive_serial: string; status: string }> = [];
      while (Date.now() < deadline) {
        certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as typeof certificates;
        if (certificates.length === 1 + bootTwoTargets && certificates.every((c) => c.status === 'complete')) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      // The megasas JBOD disk and virtual disk are certified too; the disk the virtual disk hides is not.
      expect(certificates.map((c) => [c.drive_serial, c.status]).sort()).toEqual([
        [sdCard.serial, 'complete'], // sd-emmc
        ['MR-JBOD-01', 'complete'],
        [VD_SERIAL, 'complete'],
        ['NVME-HL-01', 'complete'],
        ['SATA-HL-01', 'complete'],
        ['SCSI-HL-01', 'complete'],
        ['VIRTIO-HL-01', 'complete'],
        ['VIRTIO-PC-01', 'complete'],
      ]);
    });

    it('validates the picked drives after the run (erasure.validate=yes): the DoD-erased and default-erased drives are approved', () => {
      const lookup = /validate: looking up \d+ drive\(s\) with the cloud: ([^\n]*)/.exec(serial);
      expect(serial.indexOf(lookup?.[0] ?? '-')).toBeGreaterThan(serial.indexOf('headless run finished'));
      for (const d of drives) expect(lookup?.[1]).toContain(d.serial);
      expect(serial).toMatch(/validate: skip \/dev\/sd[a-z]: [^\n]*\(boot_medium\)/);
      expect(serial).toMatch(/validate VIRTIO-HL-01: approved \(\/dev\/vda, certificate CW-\d+\): every one of 12,288 sectors holds [^\n]*random[^\n]*DoD 5220\.22-M \(3 passes\)[^\n]*; recorded by the cloud/);
      expect(serial).toMatch(/validate SATA-HL-01: approved \(\/dev\/sd[a-z], certificate CW-\d+\): every one of [\d,]+ sectors holds zeros, as NIST 800-88 R2 Clear left it; recorded by the cloud/);
      expect(serial).toMatch(/validate NVME-HL-01: approved \(\/dev\/nvme0n1, certificate CW-\d+\): [^\n]*; recorded by the cloud/);
      // Every certified target of boot 2 is picked (the megasas JBOD disk and virtual disk, the SD card too); the SCSI disk is rejected.
      expect(serial).toMatch(new RegExp(`validate: finished: ${bootTwoTargets - 1} approved, 1 rejected, `));
    });

    it('rejects the drive written with a file after its erase, and marks its certificate "Not valid: failed validation"', async () => {
      expect(serial).toMatch(/validate SCSI-HL-01: rejected \(\/dev\/sd[a-z], certificate CW-\d+\): found a PDF document at byte 9,437,184[^\n]*; recorded by the cloud/);
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const rows = db.prepare('SELECT drive_serial, validation FROM wipe_results WHERE drive_serial IN (?, ?, ?, ?) ORDER BY drive_serial').all('NVME-HL-01', 'SATA-HL-01', 'SCSI-HL-01', 'VIRTIO-HL-01');
        expect(rows).toEqual([
          { drive_serial: 'NVME-HL-01', validation: 'approved' },
          { drive_serial: 'SATA-HL-01', validation: 'approved' },
          { drive_serial: 'SCSI-HL-01', validation: 'rejected' },
          { drive_serial: 'VIRTIO-HL-01', validation: 'approved' },
        ]);
        expect(db.prepare('SELECT disposition FROM wipe_results WHERE drive_serial = ?').get('SCSI-HL-01')).toEqual({ disposition: 'review' });
      } finally {
        db.close();
      }
      const certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as Array<{ id: string; drive_serial: string }>;
      const verifyUrl = (s: string) => new URL(`/certificates/${certificates.find((c) => c.drive_serial === s)!.id}/verify`, stack.cloud.url);
      const rejected = (await (await fetch(verifyUrl('SCSI-HL-01'), { headers: { accept: 'application/json' } })).json()) as Record<string, unknown>;
      expect(rejected).toMatchObject({ valid: false, validation: 'rejected', reason: expect.stringContaining('a PDF document') });
      const page = await (await fetch(verifyUrl('SCSI-HL-01'), { headers: { accept: 'text/html' } })).text();
      expect(page).toContain('Not valid: failed validation');
      expect(page).toContain('a PDF document');
      const approved = (await (await fetch(verifyUrl('VIRTIO-HL-01'), { headers: { accept: 'application/json' } })).json()) as Record<string, unknown>;
      expect(approved).toMatchObject({ valid: true });
    });

    // ---- boot 2, RAID (issue 30 item 3): the megasas disks in JBOD mode and behind a virtual disk
    it('sees the disk behind the JBOD megasas as a physical drive with its own serial, erases it and leaves no sector of its pattern', () => {
      expect(serial).toMatch(/plan \/dev\/sd[a-z]: [^\n]*MR-JBOD-01[^\n]*-> overwrite/);
      const jbod = raidDrives.find((d) => d.jbod)!;
      expect({ drive: jbod.serial, ...survivingSectors(jbod.file, jbod.serial) }).toEqual({ drive: jbod.serial, survivors: 0, sectors: jbod.bytes / 512 });
    });

    it('reports the disk behind the megasas virtual disk as not erased, with its own serial, the reason in plain words and review', () => {
      expect(serial).toMatch(/not erased \/dev\/bus\/\d+ \(megaraid,0\): QEMU QEMU HARDDISK MR-VD-01: behind a RAID virtual disk: switch the controller to JBOD\/HBA mode/);
      expect(serial).toMatch(/result \/dev\/bus\/\d+ \(megaraid,0\): NOT ERASED, wipe result \S+, certificate -/);
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const hidden = db.prepare('SELECT wipe_status, disposition, certifiable, verification_result FROM wipe_results WHERE drive_serial = ?').all('MR-VD-01');
        expect(hidden).toEqual([{ wipe_status: 'failed', disposition: 'review', certifiable: 0, verification_result: expect.stringMatching(/^Not erased: behind a RAID virtual disk: switch the controller to JBOD\/HBA mode to erase it as a physical drive/) }]);
        const jbod = db.prepare('SELECT wipe_status, certifiable, verification_result FROM wipe_results WHERE drive_serial = ?').get('MR-JBOD-01') as Record<string, unknown>;
        expect(jbod).toMatchObject({ wipe_status: 'completed', certifiable: 1 });
        expect(String(jbod.verification_result)).toMatch(/^Connected through: MegaRAID RAID controller \(megaraid_sas\) in pass-through \(JBOD\/HBA\) mode: erased as a physical drive/);
      } finally {
        db.close();
      }
    });

    it("certifies the megasas virtual disk marked as such, naming the physical disk it spans, never under that disk's serial", async () => {
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const vd = db.prepare('SELECT wipe_status, certifiable, verification_result FROM wipe_results WHERE drive_serial = ?').get(VD_SERIAL) as Record<string, unknown>;
        expect(vd).toMatchObject({ wipe_status: 'completed', certifiable: 1 });
        expect(String(vd.verification_result)).toMatch(/^RAID virtual disk \(MegaRAID\) spanning QEMU QEMU HARDDISK \(serial MR-VD-01, 0 GB\): this erases the virtual disk, not the physical drives as such/);
      } finally {
        db.close();
      }
      const certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as Array<{ drive_serial: string }>;
      expect(certificates.map((c) => c.drive_serial)).toContain(VD_SERIAL);
      expect(certificates.map((c) => c.drive_serial)).not.toContain('MR-VD-01');
    });

    it('gives every drive it saw a result: none ends without one', () => {
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const reported = new Set((db.prepare('SELECT drive_serial FROM wipe_results').all() as Array<{ drive_serial: string }>).map((r) => r.drive_serial));
        const seen = [...drives.map((d) => d.serial), 'MR-JBOD-01', 'MR-VD-01', VD_SERIAL, sdCard.serial];
        expect(seen.filter((s) => !reported.has(s))).toEqual([]);
      } finally {
        db.close();
      }
    });
    // ---- end of boot 2, RAID

    // ---- sd-emmc (issue 30 item 4): the SD card ----
    describe('the SD card behind sdhci-pci (issue 30 item 4)', () => {
      it('finds it as /dev/mmcblk0, names it an SD card by its CID, and plans an overwrite (an SD card has no sanitize or secure erase)', () => {
        expect(serial).toMatch(/plan \/dev\/mmcblk0: QEMU! 0xdeadbeef [^\n]*-> overwrite \(NIST 800-88 R2 Clear\)/);
        expect(serial).toMatch(/not mmc-sanitize: an SD card has no EXT_CSD and no sanitize or secure erase command/);
      });

      it('erases it: not one 512-byte sector of the original pattern is left in its backing file', () => {
        expect(serial).toMatch(/finished \/dev\/mmcblk0: erased after /);
        expect(survivingSectors(sdCard.file, sdCard.tag)).toEqual({ survivors: 0, sectors: sdCard.bytes / 512 });
      });

      it('has a completed wipe result and a certificate for it that name it an SD card, and validation approves it', async () => {
        const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
        try {
          const row = db.prepare('SELECT wipe_method, wipe_status, certifiable, validation, verification_result FROM wipe_results WHERE drive_serial = ?').get(sdCard.serial) as Record<string, unknown> | undefined;
          expect(row).toMatchObject({ wipe_method: 'NIST 800-88 R2 Clear', wipe_status: 'completed', certifiable: 1, validation: 'approved' });
          expect(String(row?.verification_result)).toMatch(/^Drive type: SD card; an SD card has no sanitize or secure erase command, so it is erased by overwrite \(NIST Clear\)\./);
        } finally {
          db.close();
        }
        const certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as Array<{ drive_serial: string; status: string }>;
        expect(certificates.find((c) => c.drive_serial === sdCard.serial)).toMatchObject({ status: 'complete' });
        expect(serial).toMatch(/validate 0xdeadbeef: approved \(\/dev\/mmcblk0, certificate CW-\d+\): every one of 16,384 sectors holds zeros, as NIST 800-88 R2 Clear left it; recorded by the cloud/);
      });
    });
    // ---- end sd-emmc ----

    // Issue 30 item 6 in the image: the health evidence of the emulated NVMe drive, read by smartctl
    // in the guest before and after the erase, reaches the cloud and the Erasure Report.
    it('records SMART before and after the erase of the NVMe drive, and the Erasure Report shows them', () => {
      const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
      try {
        const row = db.prepare('SELECT w.health_grade, w.health_json, c.report_key FROM wipe_results w JOIN certificates c ON c.wipe_result_id = w.id WHERE w.drive_serial = ?').get('NVME-HL-01') as { health_grade: string | null; health_json: string | null; report_key: string | null } | undefined;
        expect(row?.health_grade).toMatch(/^[ABCF]$/);
        const health = JSON.parse(row?.health_json ?? '{}') as { smart_before?: object; smart_after?: object; smart_unavailable?: string };
        expect({ before: typeof health.smart_before, after: typeof health.smart_after, unavailable: health.smart_unavailable }).toEqual({ before: 'object', after: 'object', unavailable: undefined });
        // Section headings and table headers are drawn in capitals.
        const text = execFileSync('pdftotext', ['-layout', join(stack.dataDir, 'objects', ...String(row?.report_key).split('/')), '-'], { encoding: 'utf8' }).toLowerCase();
        expect(text).toContain('health for resale');
        expect(text).toMatch(/smart attribute\s+before the erase\s+after the erase/);
      } finally {
        db.close();
      }
    });

    it('powers off when the run is done (erasure.after=poweroff), the ERASURE-DATA volume unmounted cleanly', () => {
      expect(exitCode).toBe(0);
      expect(serial).not.toMatch(/the machine waits/);
      expect(mountedAfter).toBe(false);
    });
  });
});
