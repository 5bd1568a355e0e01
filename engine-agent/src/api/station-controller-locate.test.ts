import type { Bay } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import type { Presence } from '../station/debounce.js';
import { StationController, type LocateTarget, type StationRuntimePorts } from './station-controller.js';

/**
 * Locate in the bay view: Bay 7 is an SES slot (the map's connector records the enclosure and
 * slot), Bay 1 an AHCI port whose drive only ledctl could blink.
 */
const ENCLOSURE = { id: '0x500605b0000272bd', slot: 'Slot 07' };
const SES_LANE = 'enclosure-0x500605b0000272bd-slot-Slot_07';
const AHCI_LANE = 'pci-0000:00:17.0-ata-1';
const BAYS: Bay[] = [
  { lane: AHCI_LANE, label: 'Bay 1', connector: { transport: 'sata', controller: '0000:00:17.0', port: '1' } },
  { lane: SES_LANE, label: 'Bay 7', connector: { transport: 'sas', controller: '0000:03:00.0', phy: 7, enclosure: ENCLOSURE } },
];

const seated = (device: string, lane: string): Presence => ({
  devpath: `/devices/x/block/${device.slice(5)}`,
  present: true,
  event: { action: 'add', devpath: `/devices/x/block/${device.slice(5)}`, devname: device, devtype: 'disk', seqnum: undefined, properties: { ID_PATH: lane } },
});

/** Fake ports: which targets blink is the test's; every locate call is recorded. */
function rig(blinks: (t: LocateTarget) => boolean) {
  let feed: (p: Presence) => void = () => undefined;
  const located: LocateTarget[] = [];
  const ports: StationRuntimePorts = {
    lookupMap: async () => ({ ok: true, name: 'Front cage', bays: BAYS }),
    saveMap: async () => ({ ok: true }),
    watch: (onPresence) => {
      feed = onPresence;
      return { stop: async () => undefined, ended: new Promise(() => undefined) };
    },
    announcePresent: async () => undefined,
    controllers: async () => [],
    canLocate: async (t) => blinks(t),
    locate: async (t) => {
      located.push(t);
      return blinks(t);
    },
    followCertificate: () => undefined,
    certificateOf: () => undefined,
    laneOf: async (p) => {
      const lane = p.event.properties.ID_PATH ?? '';
      return lane === SES_LANE ? { lane, connector: { transport: 'sas', controller: '0000:03:00.0', phy: 7, enclosure: ENCLOSURE } } : { lane, connector: { transport: 'sata', controller: '0000:00:17.0', port: '1' } };
    },
    probe: async (device) => ({ device, health: 'unknown' }),
    guard: async () => ({ ok: true }),
    runBay: () => new Promise(() => undefined),
  };
  return { ports, located, feed: (p: Presence) => feed(p) };
}

const settle = () => new Promise((r) => setTimeout(r, 10));
const canLocate = (sut: StationController) => Object.fromEntries(sut.view().bays.map((b) => [b.label, b.can_locate]));

describe('locating a bay', () => {
  it('offers Locate on an empty SES bay and blinks it by the slot its connector records', async () => {
    const { ports, located } = rig((t) => t.enclosure?.slot === ENCLOSURE.slot);
    const sut = new StationController(ports, 'confirm', () => undefined);
    await sut.start();
    await settle();
    expect(canLocate(sut)).toEqual({ 'Bay 1': false, 'Bay 7': true });
    expect(await sut.locate(SES_LANE)).toEqual({ ok: true });
    expect(located).toEqual([{ enclosure: ENCLOSURE }]);
    expect(await sut.locate(AHCI_LANE)).toEqual({ ok: false, reason: 'no drive in that bay to locate' });
  });

  it('blinks a seated drive by its device and its slot together', async () => {
    const { ports, located, feed } = rig((t) => t.enclosure !== undefined);
    const sut = new StationController(ports, 'confirm', () => undefined);
    await sut.start();
    feed(seated('/dev/sdc', SES_LANE));
    await settle();
    expect(await sut.locate(SES_LANE)).toEqual({ ok: true });
    expect(located).toEqual([{ device: '/dev/sdc', enclosure: ENCLOSURE }]);
  });

  it('offers Locate on a drive ledctl can blink, and keeps saying it cannot once a locate fails', async () => {
    let ledctlWorks = true;
    const { ports, feed } = rig((t) => t.device === '/dev/sda' && ledctlWorks);
    const sut = new StationController(ports, 'confirm', () => undefined);
    await sut.start();
    feed(seated('/dev/sda', AHCI_LANE));
    await settle();
    expect(canLocate(sut)['Bay 1']).toBe(true);
    ledctlWorks = false;
    expect(await sut.locate(AHCI_LANE)).toEqual({ ok: false, reason: 'this enclosure cannot blink a locate LED for that bay' });
    expect(canLocate(sut)['Bay 1']).toBe(false);
  });

  it('says a drive on a controller ledctl does not support cannot be located', async () => {
    const { ports, feed } = rig(() => false);
    const sut = new StationController(ports, 'confirm', () => undefined);
    await sut.start();
    feed(seated('/dev/sdb', AHCI_LANE));
    await settle();
    expect(canLocate(sut)).toEqual({ 'Bay 1': false, 'Bay 7': false });
    expect(await sut.locate(AHCI_LANE)).toEqual({ ok: false, reason: 'this enclosure cannot blink a locate LED for that bay' });
  });
});

// Issue 32: the bays' LEDs follow their states, beside Locate on demand.
describe("a bay's LEDs following its state", () => {
  it('blink while the bay erases, by its drive and its SES slot, and go off when the operator stops it', async () => {
    const { ports, feed, located } = rig(() => true);
    const shown: [LocateTarget, string][] = [];
    ports.showBayLed = async (t, led) => (shown.push([t, led]), true);
    const sut = new StationController(ports, 'confirm', () => undefined);
    await sut.start();
    feed(seated('/dev/sdc', SES_LANE));
    await settle();
    expect(shown).toEqual([]); // waiting for the operator: off, as it was
    expect(sut.confirm(SES_LANE)).toEqual({ ok: true });
    await settle();
    expect(shown).toEqual([[{ device: '/dev/sdc', enclosure: ENCLOSURE }, 'working']]);
    // Locate on a bay already blinking leaves its blink alone (a 15-s locate would end by turning it off).
    expect(await sut.locate(SES_LANE)).toEqual({ ok: true });
    expect(located).toEqual([]);
    expect(sut.cancel(SES_LANE)).toEqual({ ok: true });
    await settle();
    expect(shown.map(([, led]) => led)).toEqual(['working', 'off']);
  });
});
