import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simCommand } from '../cli/sim-command.js';
import type { Presence } from '../station/debounce.js';
import { laneFromIdPath } from '../station/lanes.js';
import { insertDrive, parseSize, pullDrive, seatedDrives, simulatedLane, watchSimulatedBays } from './backplane.js';
import { asSimulatedStation, simulatedDrives, simulatedFingerprint } from './profile.js';
import { pauseMarker } from './pause.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sim-backplane-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `erasure-agent sim …` as main.ts does, keeping what it printed. */
async function sim(args: string[], size?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await simCommand(dataDir, args, size === undefined ? {} : { size }, (l) => out.push(l), (l) => err.push(l));
  return { code, out, err };
}

/** The presences a watch reports, awaited one by one as they come. */
function presences() {
  const seen: Presence[] = [];
  const waiters: Array<() => void> = [];
  return {
    onPresence: (p: Presence) => {
      seen.push(p);
      waiters.splice(0).forEach((w) => w());
    },
    async next(count: number): Promise<Presence[]> {
      while (seen.length < count) await new Promise<void>((r) => waiters.push(r));
      return seen.slice(0, count);
    },
  };
}

describe('the simulated backplane', () => {
  it('sim insert seats a file-backed drive the station sees as an add on the bay’s SATA lane, sim pull as its removal', async () => {
    const events = presences();
    const watch = watchSimulatedBays(dataDir, events.onPresence);
    await watch.ready;
    try {
      expect(await sim(['insert', '2'], '8M')).toMatchObject({ code: 0, out: [expect.stringMatching(/^bay 2: SIMULATED SATA 8M SIMBAY2-\S+ seated/)] });
      const [added] = await events.next(1);
      if (!added?.present) throw new Error('expected an insertion');
      expect(added.event.action).toBe('add');
      expect(laneFromIdPath(added.event.properties.ID_PATH)).toMatchObject({ lane: simulatedLane(2), connector: { transport: 'sata', controller: '0000:00:17.0', port: '2' } });
      // The drive holds data before the erase: the pattern a customer's files stand in for.
      expect(readFileSync(added.event.devname ?? '').subarray(0, 13).toString()).toBe('CUSTOMER DATA');

      expect(await sim(['pull', '2'])).toMatchObject({ code: 0, out: ['bay 2: drive pulled'] });
      const [, removed] = await events.next(2);
      expect(removed).toEqual({ devpath: added.devpath, present: false });
      expect(await seatedDrives(dataDir)).toEqual([]);
    } finally {
      await watch.stop();
    }
  });

  it('reports drives seated before the station started as change events, not insertions', async () => {
    await insertDrive(dataDir, '1', 4096 * 4);
    const events = presences();
    const watch = watchSimulatedBays(dataDir, events.onPresence);
    try {
      await watch.announcePresent();
      const [seated] = await events.next(1);
      expect(seated).toMatchObject({ present: true, event: { action: 'change', properties: { ID_PATH: simulatedLane(1) } } });
    } finally {
      await watch.stop();
    }
  });

  it('sim pause holds a seated drive’s writes until sim resume (a drive that hangs), and refuses an empty bay', async () => {
    expect((await sim(['insert', '2'], '1M')).code).toBe(0);
    const device = (await seatedDrives(dataDir))[0]!.device;
    expect(await sim(['pause', '2'])).toEqual({ code: 0, out: ['bay 2: drive paused (its erase writes nothing until resumed)'], err: [] });
    expect(existsSync(pauseMarker(device))).toBe(true);
    expect(await sim(['resume', '2'])).toEqual({ code: 0, out: ['bay 2: drive resumed'], err: [] });
    expect(existsSync(pauseMarker(device))).toBe(false);
    expect(await sim(['pause', '3'])).toEqual({ code: 2, out: [], err: ['bay 3 is empty'] });
    // The marker is not a drive: the bay still holds the one it held.
    expect((await seatedDrives(dataDir)).map((d) => d.bay)).toEqual([2]);
  });

  it('reports the simulated station as a chassis of its own, not the simulated laptop beside it', () => {
    const laptop = simulatedFingerprint(simulatedDrives(dataDir));
    const station = asSimulatedStation(laptop);
    expect(station.system).toMatchObject({ product: 'Simulated Station 4-bay', serial: 'SIM-STATION-0001' });
    expect(station.system?.uuid).not.toBe(laptop.system?.uuid);
    expect(station.storage).toEqual(laptop.storage);
  });

  it('refuses a bay that does not exist, a bay already holding a drive, pulling an empty bay and a bad size', async () => {
    expect(await sim(['insert', '5'])).toMatchObject({ code: 2, err: ['no bay 5: the simulated backplane has bays 1 to 4'] });
    expect((await sim(['insert', '3'], '64K')).code).toBe(0);
    expect(await sim(['insert', '3'], '64K')).toMatchObject({ code: 2, err: ['bay 3 already holds a drive: pull it first'] });
    expect(await sim(['pull', '4'])).toMatchObject({ code: 2, err: ['bay 4 is empty'] });
    expect((await sim(['insert', '1'], 'lots')).code).toBe(2);
    expect((await sim(['eject', '1'])).code).toBe(2);
    expect(parseSize('2G')).toBe(2 * 1024 ** 3);
    expect(parseSize('1000')).toBeUndefined(); // not whole 4 KiB blocks
  });

  it('lists a seated bay drive among the simulated machine’s drives (hot-swap, never in its fingerprint), with an overwrite plan', async () => {
    await insertDrive(dataDir, '4', 4096 * 16);
    const drives = simulatedDrives(dataDir);
    const bay = drives.find((d) => d.device.endsWith('bay-4.img'));
    expect(bay).toMatchObject({ internal: false, capabilities: { sizeBytes: 4096 * 16 }, plan: { ok: true, method: 'overwrite' } });
    expect(JSON.stringify(simulatedFingerprint(drives).storage)).not.toContain('SIMBAY4');
    await pullDrive(dataDir, '4');
    expect(simulatedDrives(dataDir).some((d) => d.device.endsWith('bay-4.img'))).toBe(false);
  });
});
