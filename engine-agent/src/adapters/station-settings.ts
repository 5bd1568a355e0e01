import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErasePolicy } from '../station/station.js';
import { writeFileDurably } from './durable-file.js';

/** What the kiosk's station settings saved (DATA_DIR/station-settings.json). */
export interface StationSettings {
  readonly policy?: ErasePolicy;
}

const FILE = 'station-settings.json';

/**
 * The station settings saved in DATA_DIR: none when nothing was saved yet. A file that cannot be
 * read or parsed, or a policy that is not one of the two, counts as nothing saved (the boot
 * option or the default then applies), never as a policy.
 */
export async function readStationSettings(dataDir: string): Promise<StationSettings> {
  const text = await readFile(join(dataDir, FILE), 'utf8').catch(() => undefined);
  let doc: unknown;
  try {
    doc = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return {};
  }
  const policy = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).policy : undefined;
  return policy === 'auto' || policy === 'confirm' ? { policy } : {};
}

/** Saves the station settings durably (with the ERASURE-DATA volume mounted at DATA_DIR, across reboots). */
export async function saveStationSettings(dataDir: string, settings: StationSettings): Promise<void> {
  await writeFileDurably(dataDir, FILE, `${JSON.stringify(settings)}\n`);
}
