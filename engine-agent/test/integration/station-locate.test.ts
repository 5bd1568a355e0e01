import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunner } from '../../src/adapters/runner.js';
import { bayLedPort, enclosureSlotLocate, locatePorts } from '../../src/adapters/locate-led.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';

/**
 * The station's locate ports against a sysfs tree built in a temp dir (an SES backplane whose
 * slots are empty, and a disk on a port with no enclosure) and a fake `ledctl` on PATH.
 */

const ENCLOSURE_ID = '0x500605b0000272bd';
const SES = '/sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/expander-0:0/port-0:0:24/end_device-0:0:24/target0:0:24/0:0:24:0/enclosure/0:0:24:0';
const AHCI_DISK = '/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const tempDir = (prefix: string) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
};

/** A sysfs tree with relative symlinks as the kernel makes them. */
function sysTree() {
  const root = tempDir('station-locate-sysfs-');
  const file = (p: string, text: string) => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };
  const link = (at: string, target: string) => {
    mkdirSync(dirname(join(root, at)), { recursive: true });
    symlinkSync(relative(dirname(join(root, at)), join(root, target)), join(root, at));
  };
  // An SES enclosure with twelve slots, none holding a drive.
  file(`${SES}/id`, `${ENCLOSURE_ID}\n`);
  for (let n = 0; n < 12; n++) {
    const slot = `${SES}/Slot ${String(n).padStart(2, '0')}`;
    for (const [attr, value] of [['locate', '0'], ['fault', '0'], ['status', 'not installed'], ['slot', String(n)]]) file(`${slot}/${attr}`, `${value}\n`);
  }
  link('/sys/class/enclosure/0:0:24:0', SES);
  // Two disks on AHCI ports: no enclosure_device link, so only ledctl can blink them.
  for (const [name, at] of [['sda', AHCI_DISK], ['sdb', AHCI_DISK.replace(/0:0:0/g, '1:0:0').replace('ata1', 'ata2')]] as const) {
    file(`${at}/block/${name}/size`, '1000\n');
    link(`/sys/class/block/${name}`, `${at}/block/${name}`);
    link(`${at}/block/${name}/device`, at);
  }
  return {
    root,
    sys: nodeSystemView(root),
    locateOf: (slot: string) => readFileSync(join(root, SES, slot, 'locate'), 'utf8'),
    faultOf: (slot: string) => readFileSync(join(root, SES, slot, 'fault'), 'utf8'),
  };
}

/**
 * A fake ledmon `ledctl` on PATH: /dev/sda sits behind a controller that manages LEDs, any other
 * drive behind one that does not (ledctl then says so and exits 33, LED_STATUS_NOT_SUPPORTED).
 */
function fakeLedctl() {
  const bin = tempDir('station-locate-bin-');
  const log = join(bin, 'calls.log');
  writeFileSync(
    join(bin, 'ledctl'),
    ['#!/bin/sh', `echo "$*" >> '${log}'`, 'case "$2" in', '  *=/dev/sda) exit 0 ;;', 'esac', 'echo "ledctl: ${2#*=}: device not supported" >&2', 'exit 33', ''].join('\n'),
  );
  chmodSync(join(bin, 'ledctl'), 0o755);
  const calls = () => {
    try {
      return readFileSync(log, 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  };
  return { run: createRunner({ env: { PATH: bin } }), calls };
}

/** A sleep the test ends by hand, as the blink's 15 s. */
function manualSleep() {
  const waiting: Array<{ ms: number; wake: () => void }> = [];
  return { sleep: (ms: number) => new Promise<void>((wake) => waiting.push({ ms, wake })), waiting, wakeAll: () => waiting.splice(0).forEach((w) => w.wake()) };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('locating an empty bay behind an SES enclosure', () => {
  it('finds the slot from the enclosure id and slot the map records, with no drive in it', async () => {
    const tree = sysTree();
    expect(await enclosureSlotLocate(tree.sys, { id: ENCLOSURE_ID, slot: 'Slot 07' })).toBe('/sys/class/enclosure/0:0:24:0/Slot 07/locate');
    expect(await enclosureSlotLocate(tree.sys, { id: '0x5000000000000000', slot: 'Slot 07' })).toBeUndefined();
    expect(await enclosureSlotLocate(tree.sys, { id: ENCLOSURE_ID, slot: 'Slot 12' })).toBeUndefined();
    expect(await enclosureSlotLocate(tree.sys, { id: ENCLOSURE_ID, slot: '../0:0:24:0/Slot 07' })).toBeUndefined();
  });

  it('blinks the empty slot: writes 1, then 0 after 15 s, and runs no ledctl', async () => {
    const tree = sysTree();
    const clock = manualSleep();
    const ledctl = fakeLedctl();
    const sut = locatePorts({ sys: tree.sys, run: ledctl.run, root: tree.root, sleep: clock.sleep });
    expect(await sut.canLocate({ enclosure: { id: ENCLOSURE_ID, slot: 'Slot 07' } })).toBe(true);
    expect(await sut.locate({ enclosure: { id: ENCLOSURE_ID, slot: 'Slot 07' } })).toBe(true);
    expect([tree.locateOf('Slot 07'), tree.locateOf('Slot 06')]).toEqual(['1', '0\n']);
    expect(clock.waiting.map((w) => w.ms)).toEqual([15_000]);
    clock.wakeAll();
    await settle();
    expect(tree.locateOf('Slot 07')).toBe('0');
    expect(ledctl.calls()).toEqual([]);
  });

  it('says it cannot locate a slot the enclosure does not have, nor an empty bay with no SES slot', async () => {
    const tree = sysTree();
    const sut = locatePorts({ sys: tree.sys, run: fakeLedctl().run, root: tree.root });
    expect(await sut.canLocate({ enclosure: { id: ENCLOSURE_ID, slot: 'Slot 12' } })).toBe(false);
    expect(await sut.locate({ enclosure: { id: ENCLOSURE_ID, slot: 'Slot 12' } })).toBe(false);
    expect(await sut.locate({})).toBe(false);
  });
});

describe('locating a drive through ledctl where there is no SES slot', () => {
  it('blinks a drive whose controller manages LEDs: locate, then locate_off after 15 s, this drive only', async () => {
    const tree = sysTree();
    const clock = manualSleep();
    const ledctl = fakeLedctl();
    const sut = locatePorts({ sys: tree.sys, run: ledctl.run, root: tree.root, sleep: clock.sleep });
    expect(await sut.canLocate({ device: '/dev/sda' })).toBe(true);
    expect(await sut.locate({ device: '/dev/sda' })).toBe(true);
    expect(ledctl.calls()).toEqual(['--listed-only locate_off=/dev/sda', '--listed-only locate=/dev/sda']);
    expect(clock.waiting.map((w) => w.ms)).toEqual([15_000]);
    clock.wakeAll();
    await settle();
    expect(ledctl.calls().at(-1)).toBe('--listed-only locate_off=/dev/sda');
  });

  it('says it cannot locate a drive whose controller ledctl does not support (exit non-zero), and leaves no LED to turn off', async () => {
    const tree = sysTree();
    const clock = manualSleep();
    const ledctl = fakeLedctl();
    const sut = locatePorts({ sys: tree.sys, run: ledctl.run, root: tree.root, sleep: clock.sleep });
    expect(await sut.canLocate({ device: '/dev/sdb' })).toBe(false);
    expect(await sut.locate({ device: '/dev/sdb' })).toBe(false);
    expect(ledctl.calls()).toEqual(['--listed-only locate_off=/dev/sdb', '--listed-only locate=/dev/sdb']);
    expect(clock.waiting).toEqual([]);
  });

  it('says it cannot locate a drive when ledctl is not installed', async () => {
    const tree = sysTree();
    const sut = locatePorts({ sys: tree.sys, run: createRunner({ env: { PATH: tempDir('station-locate-empty-bin-') } }), root: tree.root });
    expect(await sut.canLocate({ device: '/dev/sda' })).toBe(false);
    expect(await sut.locate({ device: '/dev/sda' })).toBe(false);
  });
});

// Issue 32: a station that runs lights-out, its bays' LEDs following their state.
describe("a bay's LEDs following its state", () => {
  it('on an SES slot: locate blinks while erasing, fault is on for a failed erase, both off when done, and no ledctl runs', async () => {
    const tree = sysTree();
    const ledctl = fakeLedctl();
    const show = bayLedPort({ sys: tree.sys, run: ledctl.run, root: tree.root });
    const slot = { enclosure: { id: ENCLOSURE_ID, slot: 'Slot 03' } };
    expect(await show(slot, 'working')).toBe(true);
    expect([tree.locateOf('Slot 03'), tree.faultOf('Slot 03')]).toEqual(['1', '0']);
    expect(await show(slot, 'failed')).toBe(true);
    expect([tree.locateOf('Slot 03'), tree.faultOf('Slot 03')]).toEqual(['0', '1']);
    expect(await show(slot, 'off')).toBe(true);
    expect([tree.locateOf('Slot 03'), tree.faultOf('Slot 03')]).toEqual(['0', '0']);
    expect(tree.locateOf('Slot 04')).toBe('0\n');
    expect(ledctl.calls()).toEqual([]);
  });

  it('through ledctl where there is no SES slot: the IBPI locate, failure and normal patterns, this drive only', async () => {
    const tree = sysTree();
    const ledctl = fakeLedctl();
    const show = bayLedPort({ sys: tree.sys, run: ledctl.run, root: tree.root });
    for (const led of ['working', 'failed', 'off'] as const) expect(await show({ device: '/dev/sda' }, led)).toBe(true);
    expect(ledctl.calls()).toEqual(['--listed-only locate=/dev/sda', '--listed-only failure=/dev/sda', '--listed-only normal=/dev/sda']);
  });

  it('says the LEDs cannot be driven where ledctl does not support the controller, or is not installed', async () => {
    const tree = sysTree();
    expect(await bayLedPort({ sys: tree.sys, run: fakeLedctl().run, root: tree.root })({ device: '/dev/sdb' }, 'working')).toBe(false);
    const none = createRunner({ env: { PATH: tempDir('station-leds-empty-bin-') } });
    expect(await bayLedPort({ sys: tree.sys, run: none, root: tree.root })({ device: '/dev/sda' }, 'working')).toBe(false);
  });
});
