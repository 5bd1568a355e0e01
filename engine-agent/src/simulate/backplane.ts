import { readdirSync, readFileSync, statSync, watch as watchDir, type FSWatcher } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Presence } from '../station/debounce.js';
import { pauseMarker } from './pause.js';
import type { UdevEvent } from '../station/udev-events.js';

const MiB = 1024 * 1024;

/** The simulated backplane: four SATA bays on one AHCI controller, as udev's ID_PATH names them. */
export const SIM_CONTROLLER = '0000:00:17.0';
export const SIM_BAYS = 4;
/** A drive seated without `--size`: big enough for a visible progress bar, small enough to erase in seconds. */
export const SIM_DEFAULT_SIZE = 64 * MiB;
/** Refused above this: the backing file lives in DATA_DIR. */
const SIM_MAX_SIZE = 64 * 1024 * MiB;

/** The folder of the bays' backing files (`bay-N.img`, with `bay-N.json` saying what drive it is). */
export const simulatedBaysDir = (dataDir: string) => join(dataDir, 'simulated', 'bays');

/** Bay N's lane, as a real AHCI port's ID_PATH (`pci-0000:00:17.0-ata-N`). */
export const simulatedLane = (bay: number) => `pci-${SIM_CONTROLLER}-ata-${bay}`;

/** A drive seated in a simulated bay. */
export interface SimulatedDrive {
  readonly bay: number;
  /** The backing file: the "block device" the station probes, erases and verifies. */
  readonly device: string;
  readonly model: string;
  readonly serial: string;
  readonly sizeBytes: number;
}

const IMAGE = /^bay-(\d+)\.img$/;
const imagePath = (dataDir: string, bay: number) => join(simulatedBaysDir(dataDir), `bay-${bay}.img`);
const labelPath = (dataDir: string, bay: number) => join(simulatedBaysDir(dataDir), `bay-${bay}.json`);

/** `64M`, `1G`, `512K` or bytes; undefined when it is none of those or out of range. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+)([KMG]?)(i?B)?$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { '': 1, K: 1024, M: MiB, G: 1024 * MiB }[(m[2] ?? '').toUpperCase()] ?? 1;
  const bytes = Number(m[1]) * unit;
  // Whole 4 KiB blocks, like every sector size the erase handles.
  return bytes >= 4096 && bytes <= SIM_MAX_SIZE && bytes % 4096 === 0 ? bytes : undefined;
}

function bayNumber(text: string | number): number | undefined {
  const n = typeof text === 'number' ? text : /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= SIM_BAYS ? n : undefined;
}

/** The drives seated now, by bay (sync: the simulated machine's drive listing reads it too). */
export function seatedDrivesNow(dataDir: string): SimulatedDrive[] {
  let names: string[];
  try {
    names = readdirSync(simulatedBaysDir(dataDir));
  } catch {
    return [];
  }
  const drives: SimulatedDrive[] = [];
  for (const name of names) {
    const bay = bayNumber(IMAGE.exec(name)?.[1] ?? '');
    if (bay === undefined) continue;
    let size: number;
    let label: { model?: string; serial?: string } = {};
    try {
      size = statSync(imagePath(dataDir, bay)).size;
    } catch {
      continue; // pulled between the listing and now
    }
    try {
      label = JSON.parse(readFileSync(labelPath(dataDir, bay), 'utf8')) as typeof label;
    } catch {
      // A drive without its label still shows, by bay.
    }
    drives.push({ bay, device: imagePath(dataDir, bay), model: label.model ?? 'SIMULATED DISK', serial: label.serial ?? `SIMBAY${bay}`, sizeBytes: size });
  }
  return drives.sort((a, b) => a.bay - b.bay);
}

export const seatedDrives = async (dataDir: string): Promise<SimulatedDrive[]> => seatedDrivesNow(dataDir);

/**
 * Seats a drive in a bay: a file filled with a recognisable pattern (so the erase visibly changes
 * it), written aside and renamed into place, so the watch sees it appear whole.
 */
export async function insertDrive(dataDir: string, bayText: string, sizeBytes = SIM_DEFAULT_SIZE): Promise<{ ok: true; drive: SimulatedDrive } | { ok: false; reason: string }> {
  const bay = bayNumber(bayText);
  if (bay === undefined) return { ok: false, reason: `no bay ${bayText}: the simulated backplane has bays 1 to ${SIM_BAYS}` };
  if ((await seatedDrives(dataDir)).some((d) => d.bay === bay)) return { ok: false, reason: `bay ${bay} already holds a drive: pull it first` };
  const dir = simulatedBaysDir(dataDir);
  await mkdir(dir, { recursive: true });
  const serial = `SIMBAY${bay}-${Date.now().toString(36).toUpperCase()}`;
  const model = `SIMULATED SATA ${sizeBytes >= 1024 * MiB ? `${Math.round(sizeBytes / 1024 / MiB)}G` : `${Math.round(sizeBytes / MiB)}M`}`;
  await writeFile(labelPath(dataDir, bay), `${JSON.stringify({ model, serial })}\n`);
  const aside = join(dir, `.bay-${bay}.img.partial`);
  const file = await open(aside, 'w');
  try {
    const chunk = Buffer.alloc(Math.min(4 * MiB, sizeBytes), 'CUSTOMER DATA ');
    for (let at = 0; at < sizeBytes; at += chunk.length) await file.write(chunk, 0, Math.min(chunk.length, sizeBytes - at), at);
  } finally {
    await file.close();
  }
  await rename(aside, imagePath(dataDir, bay));
  return { ok: true, drive: { bay, device: imagePath(dataDir, bay), model, serial, sizeBytes } };
}

/** Pulls a bay's drive: its file goes, as a disk leaves the bus (an erase still writing it is stopped by the station, not by the file). */
export async function pullDrive(dataDir: string, bayText: string): Promise<{ ok: true; bay: number } | { ok: false; reason: string }> {
  const bay = bayNumber(bayText);
  if (bay === undefined) return { ok: false, reason: `no bay ${bayText}: the simulated backplane has bays 1 to ${SIM_BAYS}` };
  if (!(await seatedDrives(dataDir)).some((d) => d.bay === bay)) return { ok: false, reason: `bay ${bay} is empty` };
  await rm(imagePath(dataDir, bay), { force: true });
  await rm(labelPath(dataDir, bay), { force: true });
  return { ok: true, bay };
}

/**
 * Pauses (or resumes) the drive in a bay: its erase stops writing until it is resumed, as a
 * hung drive does, so the floor view's stall can be seen without waiting on real hardware.
 */
export async function pauseDrive(dataDir: string, bayText: string, paused: boolean): Promise<{ ok: true; bay: number } | { ok: false; reason: string }> {
  const bay = bayNumber(bayText);
  if (bay === undefined) return { ok: false, reason: `no bay ${bayText}: the simulated backplane has bays 1 to ${SIM_BAYS}` };
  if (!(await seatedDrives(dataDir)).some((d) => d.bay === bay)) return { ok: false, reason: `bay ${bay} is empty` };
  if (paused) await writeFile(pauseMarker(imagePath(dataDir, bay)), '');
  else await rm(pauseMarker(imagePath(dataDir, bay)), { force: true });
  return { ok: true, bay };
}

/** The udev event a real AHCI port would give for the drive (ID_PATH, model, serial), naming the backing file as its node. */
export function simulatedEvent(drive: SimulatedDrive, action: UdevEvent['action']): UdevEvent {
  const devpath = `/devices/pci0000:00/${SIM_CONTROLLER}/ata${drive.bay}/host${drive.bay}/target${drive.bay}:0:0/${drive.bay}:0:0:0/block/simbay${drive.bay}`;
  return {
    action,
    devpath,
    devname: drive.device,
    devtype: 'disk',
    seqnum: undefined,
    properties: { DEVPATH: devpath, DEVNAME: drive.device, DEVTYPE: 'disk', ID_PATH: simulatedLane(drive.bay), ID_MODEL: drive.model.replace(/ /g, '_'), ID_SERIAL_SHORT: drive.serial, ID_BUS: 'ata' },
  };
}

const devpathOf = (bay: number) => simulatedEvent({ bay, device: '', model: '', serial: '', sizeBytes: 0 }, 'add').devpath;

/**
 * The simulated backplane's event source in place of `udevadm monitor`: the bays' folder is
 * watched, and a drive file appearing or going is a settled presence (add or remove) of that
 * bay's device path. Only the event source and the disks are simulated: lanes, the presence
 * queue and every bay's work are the station's own.
 */
export function watchSimulatedBays(dataDir: string, onPresence: (p: Presence) => void) {
  const dir = simulatedBaysDir(dataDir);
  let seated = new Map<number, SimulatedDrive>();
  let watcher: FSWatcher | undefined;
  let stopped = false;
  let scanning: Promise<void> = Promise.resolve();
  let again = false;
  let endWith: (r: { byStop: boolean; exitCode: number | undefined; stderr: string }) => void = () => undefined;
  const ended = new Promise<{ byStop: boolean; exitCode: number | undefined; stderr: string }>((r) => (endWith = r));
  // One scan at a time; events meanwhile (an erase writing a file fires many) ask for one more.
  const scan = () => {
    if (again) return;
    again = true;
    scanning = scanning.then(async () => {
      again = false;
      if (stopped) return;
      const now = new Map((await seatedDrives(dataDir)).map((d) => [d.bay, d]));
      for (const bay of seated.keys()) if (!now.has(bay)) onPresence({ devpath: devpathOf(bay), present: false });
      for (const [bay, d] of now) if (!seated.has(bay)) onPresence({ devpath: devpathOf(bay), present: true, event: simulatedEvent(d, 'add') });
      seated = now;
    });
  };
  const ready = (async () => {
    await mkdir(dir, { recursive: true });
    // Drives already seated are not insertions: they come as change events from announcePresent.
    seated = new Map((await seatedDrives(dataDir)).map((d) => [d.bay, d]));
    if (stopped) return;
    watcher = watchDir(dir, () => scan());
    watcher.on('error', (error) => endWith({ byStop: false, exitCode: undefined, stderr: `the simulated bays folder cannot be watched: ${error.message}` }));
  })().catch((error: unknown) => endWith({ byStop: false, exitCode: undefined, stderr: `the simulated bays folder cannot be watched: ${(error as Error).message}` }));
  return {
    ended,
    /** Settles once the watch is on: insertions from then on are seen. */
    ready,
    /** Reports the drives seated now as change events (udev's start-up trigger). */
    async announcePresent(): Promise<void> {
      await ready;
      for (const d of seated.values()) onPresence({ devpath: devpathOf(d.bay), present: true, event: simulatedEvent(d, 'change') });
    },
    async stop(): Promise<void> {
      stopped = true;
      watcher?.close();
      await scanning;
      endWith({ byStop: true, exitCode: undefined, stderr: '' });
    },
  };
}
