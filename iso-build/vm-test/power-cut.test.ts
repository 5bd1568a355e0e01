import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../../test/support/stack.js';
import { BASE_ISO, personalizedIso, SCREENS_DIR, SLOW, stickFrom, vmIdentity, workDir } from './harness.js';
import { survivingSectors, writeSectorPattern } from './pattern.js';
import { Vm, vmSkipReason } from './qemu.js';

const MiB = 1024 * 1024;
const skip = vmSkipReason(BASE_ISO);
if (skip) console.warn(`[iso] skipped: ${skip}`);

/**
 * A plain stick written with the image keeps a wipe result through a power cut. The machine is
 * allowed and erases a drive; the gateway goes away mid-erase, so the result cannot be delivered
 * and is kept on the stick's own ERASURE-DATA partition. The power is then cut (QEMU killed, no
 * shutdown). Booted again from the same stick with the gateway back, the machine delivers the
 * result before anything else, and the cloud certifies it.
 */
describe.skipIf(Boolean(skip))('a wipe result survives a power cut on a plain stick (QEMU, SeaBIOS, USB stick)', () => {
  const work = workDir();
  let stack: Awaited<ReturnType<typeof startStack>>;
  const identity = vmIdentity('QEMU-PC-0001');
  const drive = { serial: 'VIRTIO-PC-01', file: join(work.dir, 'virtio.img'), bytes: 8 * MiB };
  let stick = '';
  let accountId = '';
  let first: Vm;
  let second: Vm;
  let firstSerial = '';
  let secondSerial = '';

  const boot = (name: string, gatewayPort: number, drives: Vm['opts']['drives']) => {
    const vm = new Vm({ name, workDir: work.dir, firmware: 'bios', smbios: identity, gatewayPort, drives: [{ kind: 'usb-stick', file: stick, serial: 'STICK-PC-01', boot: true }, ...drives] });
    vm.start();
    return vm;
  };

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'VM Power Cut Refurb');
    accountId = String(account.id);
    const token = await stack.cli('admin', 'mint-device-token', '--account', accountId, '--quota', '10');
    // erasure.after=wait: the power cut is the test's, not a shutdown the machine chose.
    const iso = await personalizedIso(work.dir, 'power-cut', String(token.token), 'erasure.mode=headless erasure.devices=all erasure.confirm=yes erasure.after=wait');
    stick = stickFrom(iso, work.dir);
    writeSectorPattern(drive.file, drive.serial, drive.bytes);

    // First boot: allowed, erasing; then the gateway goes away before the result is sent.
    first = boot('power-cut-1', Number(new URL(stack.gateway.url).port), [{ kind: 'virtio', file: drive.file, serial: drive.serial, bytesPerSecond: 1 * MiB }]);
    await first.waitForSerial(/start \/dev\/vd[a-z]:/, 15 * 60_000 * (SLOW / 4 + 0.25));
    await stack.stopGateway();
    await first.waitForSerial(/not delivered yet, kept on the ERASURE-DATA volume/, 10 * 60_000 * (SLOW / 4 + 0.25));
    firstSerial = first.serial();
    // The power cut: QEMU killed, nothing flushed or unmounted by the guest.
    first.stop();
    await first.waitForExit(30_000);

    // Second boot from the same stick, the drive gone, the gateway back.
    const gateway = await stack.restartGateway();
    second = boot('power-cut-2', Number(new URL(gateway.url).port), []);
    await second.waitForSerial(/kept wipe results from an earlier run: \d+ delivered/, 15 * 60_000 * (SLOW / 4 + 0.25));
    await second.waitForSerial(/headless run finished/, 10 * 60_000 * (SLOW / 4 + 0.25));
    secondSerial = second.serial();
  }, 45 * 60_000);

  afterAll(async () => {
    for (const vm of [first, second]) {
      vm?.stop();
      if (vm) copyFileSync(vm.serialLog, join(SCREENS_DIR, `${vm.opts.name}-serial.log`));
    }
    await stack?.stop();
    work.cleanup();
  });

  it("keeps the result on the stick's ERASURE-DATA partition when the gateway is unreachable after the erase", () => {
    expect(firstSerial).toMatch(/ERASURE-DATA volume \/dev\/sd[a-z]\d+ mounted at \/var\/lib\/erasure through a loop device \(a partition of the boot stick\) \(bound to this machine now\)/);
    expect(firstSerial).toMatch(/result \/dev\/vd[a-z]: erased by overwrite, wipe result not delivered/);
    expect(firstSerial).toMatch(/1 wipe result\(s\) not delivered yet, kept on the ERASURE-DATA volume/);
    expect(survivingSectors(drive.file, drive.serial)).toEqual({ survivors: 0, sectors: drive.bytes / 512 });
  });

  it('finds the same volume bound to this machine after the power cut', () => {
    expect(secondSerial).toMatch(/ERASURE-DATA volume \/dev\/sd[a-z]\d+ mounted at \/var\/lib\/erasure through a loop device \(a partition of the boot stick\): /);
    expect(secondSerial).not.toMatch(/bound to this machine now/);
  });

  it('delivers the kept result before anything else at the next boot', () => {
    expect(secondSerial).toMatch(/kept result [0-9a-f-]+-\d+: delivered, wipe result \S+/);
    expect(secondSerial).toMatch(/kept wipe results from an earlier run: 1 delivered, 0 refused, 0 still waiting/);
    expect(secondSerial.indexOf('kept wipe results from an earlier run')).toBeLessThan(secondSerial.indexOf('session health'));
  });

  it('has the cloud hold exactly one wipe result for the drive, certified', async () => {
    const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT drive_serial, wipe_status, certifiable FROM wipe_results').all();
      expect(rows).toEqual([{ drive_serial: drive.serial, wipe_status: 'completed', certifiable: 1 }]);
    } finally {
      db.close();
    }
    const deadline = Date.now() + 120_000;
    let certificates: Array<{ drive_serial: string; status: string }> = [];
    while (Date.now() < deadline) {
      certificates = (await stack.cli('admin', 'list-certificates', '--account', accountId)) as typeof certificates;
      if (certificates.length === 1 && certificates[0]?.status === 'complete') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(certificates.map((c) => [c.drive_serial, c.status])).toEqual([[drive.serial, 'complete']]);
  });
});
