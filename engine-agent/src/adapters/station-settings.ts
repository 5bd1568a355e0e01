import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErasePolicy } from '../station/station.js';
import { writeFileDurably } from './durable-file.js';

/**
 * What the kiosk's station settings saved (DATA_DIR/station-settings.json). `unreadable` says why
 * a file that is there could not be taken at its word; its policy is then `confirm`.
 */
export interface StationSettings {
  readonly policy?: ErasePolicy;
  readonly unreadable?: string;
}

const FILE = 'station-settings.json';

/**
 * The station settings saved in DATA_DIR: none when nothing was saved yet (no file). A file that
 * is there but cannot be read or parsed, or holds no valid policy, fails closed: its policy is
 * `confirm` (an auto-start the operator may have switched off is never assumed), and `unreadable`
 * says why for the journal.
 */
export async function readStationSettings(dataDir: string): Promise<StationSettings> {
  let text: string;
  try {
    text = await readFile(join(dataDir, FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { policy: 'confirm', unreadable: `${FILE} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { policy: 'confirm', unreadable: `${FILE} is not valid JSON` };
  }
  const policy = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).policy : undefined;
  return policy === 'auto' || policy === 'confirm' ? { policy } : { policy: 'confirm', unreadable: `${FILE} holds no valid policy (${JSON.stringify(policy) ?? 'none'})` };
}

/** Saves the station settings durably (with the ERASURE-DATA volume mounted at DATA_DIR, across reboots). */
export async function saveStationSettings(dataDir: string, settings: { readonly policy: ErasePolicy }): Promise<void> {
  await writeFileDurably(dataDir, FILE, `${JSON.stringify({ policy: settings.policy })}\n`);
}
