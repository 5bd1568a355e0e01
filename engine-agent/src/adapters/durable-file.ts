import { mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `dir/name` so that a power cut leaves either the old file or the new one, never a torn
 * one: written to `name.tmp`, synced, renamed into place, and the directory synced for the rename.
 */
export async function writeFileDurably(dir: string, name: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}
