import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UnfreezeSetting } from '../boot-prep/prepare-drives.js';
import { writeFileDurably } from './durable-file.js';

const FILE = 'unfreeze-setting.json';

/**
 * Whether serve unfreezes frozen drives at boot (a suspend to RAM with an RTC wake-up): the
 * choice saved from the kiosk's settings (DATA_DIR/unfreeze-setting.json) wins over the kernel
 * option `erasure.unfreeze` (ERASURE_UNFREEZE), which wins over the default, auto. A saved file
 * that cannot be read is `off`: a machine may not wake from a suspend, so it is never assumed.
 */
export async function readUnfreezeSetting(dataDir: string, bootOption: UnfreezeSetting['mode'] | undefined): Promise<UnfreezeSetting> {
  let text: string | undefined;
  try {
    text = await readFile(join(dataDir, FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { mode: 'off', source: `${FILE} could not be read` };
  }
  if (text === undefined) return bootOption ? { mode: bootOption, source: `erasure.unfreeze=${bootOption}` } : { mode: 'auto', source: 'default' };
  const mode = (() => {
    try {
      return (JSON.parse(text) as { mode?: unknown }).mode;
    } catch {
      return undefined;
    }
  })();
  return mode === 'auto' || mode === 'off' ? { mode, source: 'kiosk setting' } : { mode: 'off', source: `${FILE} holds no valid choice` };
}

/** Saves the kiosk's choice durably (on the ERASURE-DATA volume, across reboots). */
export async function saveUnfreezeSetting(dataDir: string, mode: 'auto' | 'off'): Promise<void> {
  await writeFileDurably(dataDir, FILE, `${JSON.stringify({ mode })}\n`);
}
